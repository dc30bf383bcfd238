package io.rdmatrace.capture.scenario;

import java.util.Objects;

/**
 * A value in a scenario step: a number, a symbol or text (an enum name, a flag list, a GID), or a
 * {@code $name} reference resolved when the step runs ({@code $peer.qp_num}, {@code $sq_psn}, {@code $iter}).
 */
public sealed interface Value permits Value.Num, Value.Text, Value.Ref {

    record Num(long value) implements Value {
        @Override
        public String toString() {
            return Long.toString(value);
        }
    }

    record Text(String text) implements Value {
        public Text {
            Objects.requireNonNull(text, "text");
        }

        @Override
        public String toString() {
            return text;
        }
    }

    record Ref(String name) implements Value {
        public Ref {
            Objects.requireNonNull(name, "name");
            if (name.isEmpty()) {
                throw new IllegalArgumentException("empty $reference");
            }
        }

        @Override
        public String toString() {
            return "$" + name;
        }
    }

    static Value num(long v) {
        return new Num(v);
    }

    static Value ref(String name) {
        return new Ref(name);
    }

    static Value text(String t) {
        return new Text(t);
    }

    /** "$name" → Ref, a number → Num, anything else → Text. */
    static Value parse(String s) {
        if (s.startsWith("$")) {
            return new Ref(s.substring(1));
        }
        Long n = io.rdmatrace.capture.config.Symbols.parseNumber(s.trim());
        return n != null ? new Num(n) : new Text(s);
    }
}
