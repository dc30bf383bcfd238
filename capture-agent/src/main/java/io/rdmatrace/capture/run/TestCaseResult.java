package io.rdmatrace.capture.run;

import io.rdmatrace.trace.MarkEvent;
import java.util.Objects;

/** One row of the PASS/FAIL table: a test case and how it ended. */
public record TestCaseResult(String id, String title, MarkEvent.Verdict verdict, String text) {
    public TestCaseResult {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(text, "text");
    }

    public boolean passed() {
        return verdict == MarkEvent.Verdict.PASS;
    }
}
