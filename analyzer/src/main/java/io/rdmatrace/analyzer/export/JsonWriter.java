package io.rdmatrace.analyzer.export;

import java.util.ArrayDeque;
import java.util.Deque;

import io.rdmatrace.analyzer.report.Json;

/**
 * A small streaming JSON writer (RFC 8259) for the bundle's metadata and the diff report: two-space
 * indentation, every control character escaped, numbers written as given. The project has no JSON
 * library, and the documents written here are simple trees.
 */
public final class JsonWriter {
    private final StringBuilder out = new StringBuilder();
    /** per open container: true while nothing was written into it yet */
    private final Deque<Boolean> empty = new ArrayDeque<>();
    private boolean afterName;

    public JsonWriter beginObject() {
        open('{');
        return this;
    }

    public JsonWriter endObject() {
        close('}');
        return this;
    }

    public JsonWriter beginArray() {
        open('[');
        return this;
    }

    public JsonWriter endArray() {
        close(']');
        return this;
    }

    /** The next member's name (inside an object). */
    public JsonWriter name(String name) {
        separate();
        string(name);
        out.append(": ");
        afterName = true;
        return this;
    }

    public JsonWriter value(String text) {
        separate();
        if (text == null) {
            out.append("null");
        } else {
            string(text);
        }
        return this;
    }

    public JsonWriter value(long number) {
        separate();
        out.append(number);
        return this;
    }

    /** A 64-bit value that C treats as unsigned (addresses, u64 counters). */
    public JsonWriter unsignedValue(long number) {
        separate();
        out.append(Long.toUnsignedString(number));
        return this;
    }

    public JsonWriter value(double number) {
        separate();
        if (Double.isNaN(number) || Double.isInfinite(number)) {
            out.append("null"); // JSON has no NaN/Infinity
        } else {
            out.append(number);
        }
        return this;
    }

    public JsonWriter value(boolean flag) {
        separate();
        out.append(flag);
        return this;
    }

    /** name + string value. */
    public JsonWriter member(String name, String text) {
        return name(name).value(text);
    }

    public JsonWriter member(String name, long number) {
        return name(name).value(number);
    }

    public JsonWriter member(String name, boolean flag) {
        return name(name).value(flag);
    }

    /** The document so far, with a final newline once every container is closed. */
    public String toJson() {
        return empty.isEmpty() ? out + "\n" : out.toString();
    }

    @Override
    public String toString() {
        return toJson();
    }

    private void open(char bracket) {
        separate();
        out.append(bracket);
        empty.push(true);
    }

    private void close(char bracket) {
        if (empty.isEmpty()) {
            throw new IllegalStateException("no open container to close with " + bracket);
        }
        boolean wasEmpty = empty.pop();
        if (!wasEmpty) {
            newline();
        }
        out.append(bracket);
    }

    private void separate() {
        if (afterName) {
            afterName = false;
            return;
        }
        if (!empty.isEmpty()) {
            if (!empty.peek()) {
                out.append(',');
            }
            empty.pop();
            empty.push(false);
            newline();
        }
    }

    private void newline() {
        out.append('\n');
        for (int i = 0; i < empty.size(); i++) {
            out.append("  ");
        }
    }

    private void string(String s) {
        Json.appendString(out, s, false);
    }
}
