package io.rdmatrace.analyzer.timeline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

import io.rdmatrace.analyzer.report.Json;

/**
 * A small streaming JSON writer (objects, arrays, strings, numbers, booleans, null) that puts the
 * commas in. Strings are escaped so the text can also sit inside an HTML {@code <script>} element:
 * {@code <}, {@code >} and {@code &} are written as \\u escapes.
 */
final class JsonOut {
    private final Appendable out;
    /** One entry per open container: true while it has no member yet. */
    private final Deque<Boolean> first = new ArrayDeque<>();
    private boolean afterName;

    JsonOut(Appendable out) {
        this.out = out;
    }

    JsonOut beginObject() {
        separate();
        raw("{");
        first.push(true);
        return this;
    }

    JsonOut endObject() {
        first.pop();
        raw("}");
        return this;
    }

    JsonOut beginArray() {
        separate();
        raw("[");
        first.push(true);
        return this;
    }

    JsonOut endArray() {
        first.pop();
        raw("]");
        return this;
    }

    JsonOut name(String name) {
        separate();
        string(name);
        raw(":");
        afterName = true;
        return this;
    }

    JsonOut value(String value) {
        separate();
        if (value == null) {
            raw("null");
        } else {
            string(value);
        }
        return this;
    }

    JsonOut value(long value) {
        separate();
        raw(Long.toString(value));
        return this;
    }

    JsonOut value(double value) {
        separate();
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw new IllegalArgumentException("JSON has no " + value);
        }
        raw(String.format(Locale.ROOT, "%.3f", value));
        return this;
    }

    JsonOut value(boolean value) {
        separate();
        raw(Boolean.toString(value));
        return this;
    }

    JsonOut value(Number value) {
        if (value == null) {
            separate();
            raw("null");
            return this;
        }
        return value instanceof Double || value instanceof Float ? value(value.doubleValue()) : value(value.longValue());
    }

    /** Shorthand for {@code name(n).value(v)}. */
    JsonOut field(String name, String value) {
        return name(name).value(value);
    }

    JsonOut field(String name, long value) {
        return name(name).value(value);
    }

    JsonOut field(String name, double value) {
        return name(name).value(value);
    }

    JsonOut field(String name, boolean value) {
        return name(name).value(value);
    }

    JsonOut field(String name, Number value) {
        return name(name).value(value);
    }

    private void separate() {
        if (afterName) {
            afterName = false;
            return;
        }
        if (!first.isEmpty()) {
            if (first.peek()) {
                first.pop();
                first.push(false);
            } else {
                raw(",");
            }
        }
    }

    private void string(String s) {
        raw(Json.scriptSafeString(s));
    }

    private void raw(String s) {
        try {
            out.append(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
