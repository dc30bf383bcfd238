package io.rdmatrace.capture.run;

import io.rdmatrace.trace.model.MarkEvent;
import java.util.List;
import java.util.Objects;

/**
 * One row of the PASS/FAIL table: a test case and how it ended.
 *
 * @param text  what the table shows (the failure, or the first few notes of a pass)
 * @param notes everything the steps said, in order (what {@code capture -v} shows)
 */
public record TestCaseResult(String id, String title, MarkEvent.Verdict verdict, String text, List<String> notes) {
    public TestCaseResult {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(text, "text");
        notes = List.copyOf(notes);
    }

    public TestCaseResult(String id, String title, MarkEvent.Verdict verdict, String text) {
        this(id, title, verdict, text, List.of(text));
    }

    /** The first {@code max} notes joined, and how many more there are. */
    public static String summary(List<String> notes, int max) {
        String shown = String.join("; ", notes.subList(0, Math.min(max, notes.size())));
        return notes.size() <= max ? shown : shown + "; and " + (notes.size() - max) + " more (-v shows all)";
    }

    public boolean passed() {
        return verdict == MarkEvent.Verdict.PASS;
    }
}
