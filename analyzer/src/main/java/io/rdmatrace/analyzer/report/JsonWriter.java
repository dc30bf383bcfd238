package io.rdmatrace.analyzer.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * The analyzer's one streaming JSON writer (RFC 8259): it puts the commas in, escapes strings with
 * {@link Json}, and writes one of two styles. {@link #JsonWriter() DOCUMENT} (the bundle's metadata, the
 * diff report) indents by two spaces, writes doubles as Java prints them and NaN/infinity as null;
 * {@link #script SCRIPT} (the timeline's data inside an HTML page, Perfetto's trace) writes no
 * whitespace, escapes &lt; &gt; &amp; too so the text can sit in a {@code <script>} element, writes
 * doubles with 3 decimals and refuses NaN. The project has no JSON library; these documents are simple trees.
 */
public final class JsonWriter {
    private final Appendable out;
    private final boolean document;
    /** One entry per open container: true while nothing was written into it yet. */
    private final Deque<Boolean> empty = new ArrayDeque<>();
    private boolean afterName;

    /** A DOCUMENT-style writer into its own buffer; {@link #toJson()} returns the text. */
    public JsonWriter() {
        this(new StringBuilder(), true);
    }

    private JsonWriter(Appendable out, boolean document) {
        this.out = out;
        this.document = document;
    }

    /** A SCRIPT-style writer appending to {@code out}. */
    public static JsonWriter script(Appendable out) {
        return new JsonWriter(out, false);
    }

    public JsonWriter beginObject() {
        return open('{');
    }

    public JsonWriter endObject() {
        return close('}');
    }

    public JsonWriter beginArray() {
        return open('[');
    }

    public JsonWriter endArray() {
        return close(']');
    }

    /** The next member's name (inside an object). */
    public JsonWriter name(String name) {
        separate();
        string(name);
        raw(document ? ": " : ":");
        afterName = true;
        return this;
    }

    public JsonWriter value(String text) {
        separate();
        if (text == null) {
            raw("null");
        } else {
            string(text);
        }
        return this;
    }

    public JsonWriter value(long number) {
        separate();
        raw(Long.toString(number));
        return this;
    }

    /** A 64-bit value that C treats as unsigned (addresses, u64 counters). */
    public JsonWriter unsignedValue(long number) {
        separate();
        raw(Long.toUnsignedString(number));
        return this;
    }

    public JsonWriter value(double number) {
        if (Double.isNaN(number) || Double.isInfinite(number)) {
            if (!document) {
                throw new IllegalArgumentException("JSON has no " + number);
            }
            separate();
            raw("null"); // JSON has no NaN/Infinity
            return this;
        }
        separate();
        raw(document ? Double.toString(number) : String.format(Locale.ROOT, "%.3f", number));
        return this;
    }

    public JsonWriter value(boolean flag) {
        separate();
        raw(Boolean.toString(flag));
        return this;
    }

    /** A boxed number, or null. */
    public JsonWriter value(Number number) {
        if (number == null) {
            separate();
            raw("null");
            return this;
        }
        return number instanceof Double || number instanceof Float ? value(number.doubleValue())
                : value(number.longValue());
    }

    /** name + value. */
    public JsonWriter member(String name, String text) {
        return name(name).value(text);
    }

    public JsonWriter member(String name, long number) {
        return name(name).value(number);
    }

    public JsonWriter member(String name, double number) {
        return name(name).value(number);
    }

    public JsonWriter member(String name, boolean flag) {
        return name(name).value(flag);
    }

    public JsonWriter member(String name, Number number) {
        return name(name).value(number);
    }

    /** A DOCUMENT writer's text so far, with a final newline once every container is closed. */
    public String toJson() {
        return empty.isEmpty() ? out + "\n" : out.toString();
    }

    @Override
    public String toString() {
        return toJson();
    }

    private JsonWriter open(char bracket) {
        separate();
        raw(String.valueOf(bracket));
        empty.push(true);
        return this;
    }

    private JsonWriter close(char bracket) {
        if (empty.isEmpty()) {
            throw new IllegalStateException("no open container to close with " + bracket);
        }
        boolean wasEmpty = empty.pop();
        if (!wasEmpty) {
            newline();
        }
        raw(String.valueOf(bracket));
        return this;
    }

    private void separate() {
        if (afterName) {
            afterName = false;
            return;
        }
        if (!empty.isEmpty()) {
            if (!empty.peek()) {
                raw(",");
            }
            empty.pop();
            empty.push(false);
            newline();
        }
    }

    private void newline() {
        if (document) {
            raw("\n" + "  ".repeat(empty.size()));
        }
    }

    private void string(String s) {
        raw(document ? Json.string(s) : Json.scriptSafeString(s));
    }

    private void raw(String s) {
        try {
            out.append(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
