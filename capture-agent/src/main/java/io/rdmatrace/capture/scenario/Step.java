package io.rdmatrace.capture.scenario;

import java.util.Objects;

/** One action of a test case with the outcome it must have. */
public record Step(Action action, Expect expect) {
    public Step {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(expect, "expect");
    }

    public static Step of(Action action) {
        return new Step(action, Expect.OK);
    }
}
