package io.rdmatrace.trace.model;

import java.util.Objects;

/**
 * A scenario step boundary or verdict, e.g. step {@code TC02}, verdict FAIL, text
 * "RESET→RTS was accepted".
 */
public record MarkEvent(EventHeader header, String step, Verdict verdict, String text) implements TraceEvent {
    public MarkEvent {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(text, "text");
    }

    @Override
    public EventKind kind() {
        return EventKind.MARK;
    }

    /** Codes are on-disk: never renumber. */
    public enum Verdict {
        /** information only, e.g. the start of a step */
        INFO(1),
        PASS(2),
        FAIL(3),
        /** the step did not run (a previous step failed, or it does not apply) */
        SKIP(4);

        private final int code;

        Verdict(int code) {
            this.code = code;
        }

        public int code() {
            return code;
        }

        public static Verdict byCode(int code) {
            for (Verdict v : values()) {
                if (v.code == code) {
                    return v;
                }
            }
            return null;
        }
    }
}
