package io.rdmatrace.analyzer.report;

import java.io.PrintWriter;

/** The few JSON pieces the JSON report needs: escaped strings and literals. */
public final class Json {
    private Json() {
    }

    public static String string(String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f || c == 0x2028 || c == 0x2029) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    public static String number(Long value) {
        return value == null ? "null" : value.toString();
    }

    /** Writes "key": value (the value already rendered), with a leading comma unless first. */
    static void field(PrintWriter out, boolean first, String key, String renderedValue) {
        out.print((first ? "" : ",") + string(key) + ":" + renderedValue);
    }
}
