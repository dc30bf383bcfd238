package io.rdmatrace.analyzer.report;

import java.io.PrintWriter;

/** JSON pieces: escaped strings (the one escaper the analyzer and the CLI use) and literals. */
public final class Json {
    private Json() {
    }

    /**
     * A JSON string literal, or {@code null}: the one escaper of the analyzer and the CLI. Quote,
     * backslash and the C escapes (\n \r \t \b \f) short; other controls, DEL and U+2028/2029 as \\uXXXX.
     */
    public static String string(String text) {
        return text == null ? "null" : appendString(new StringBuilder(text.length() + 2), text, false).toString();
    }

    /** {@link #string} that may also sit inside an HTML script element: &lt; &gt; &amp; as \\uXXXX too. */
    public static String scriptSafeString(String text) {
        return text == null ? "null" : appendString(new StringBuilder(text.length() + 2), text, true).toString();
    }

    /** Appends {@code text} as a JSON string literal. */
    public static StringBuilder appendString(StringBuilder out, String text, boolean scriptSafe) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || c == 0x7f || c == 0x2028 || c == 0x2029
                            || scriptSafe && (c == '<' || c == '>' || c == '&')) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"');
    }

    public static String number(Long value) {
        return value == null ? "null" : value.toString();
    }

    /** Writes "key": value (the value already rendered), with a leading comma unless first. */
    static void field(PrintWriter out, boolean first, String key, String renderedValue) {
        out.print((first ? "" : ",") + string(key) + ":" + renderedValue);
    }
}
