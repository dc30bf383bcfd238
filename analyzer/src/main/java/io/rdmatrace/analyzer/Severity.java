package io.rdmatrace.analyzer;

import java.util.Locale;

/** How bad a finding is; declared from the most to the least severe. */
public enum Severity {
    ERROR,
    WARNING,
    INFO;

    /** The lowercase spelling used in rule headers, reports and {@code --fail-on}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** True when this severity is {@code threshold} or worse. */
    public boolean atLeast(Severity threshold) {
        return ordinal() <= threshold.ordinal();
    }

    /** Parses "error", "warning" or "info" (case-insensitive). */
    public static Severity parse(String text) {
        for (Severity severity : values()) {
            if (severity.label().equalsIgnoreCase(text.strip())) {
                return severity;
            }
        }
        throw new IllegalArgumentException("unknown severity '" + text + "' (expected error, warning or info)");
    }
}
