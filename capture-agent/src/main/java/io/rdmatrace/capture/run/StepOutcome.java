package io.rdmatrace.capture.run;

import java.util.Objects;

/** How one step ended: met its expectation or not, with a short text for the test case's verdict. */
record StepOutcome(boolean ok, String text) {
    static final StepOutcome OK = new StepOutcome(true, "");

    StepOutcome {
        Objects.requireNonNull(text, "text");
    }

    static StepOutcome ok(String note) {
        return new StepOutcome(true, note);
    }

    static StepOutcome fail(String why) {
        return new StepOutcome(false, why);
    }
}
