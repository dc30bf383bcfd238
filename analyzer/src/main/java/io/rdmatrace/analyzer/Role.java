package io.rdmatrace.analyzer;

import java.util.Locale;

/**
 * What a rule's findings are in a diagnosis: a cause (something set up wrong, the place a fix
 * goes) or a consequence (a failure that follows from a cause: an error completion, a refused
 * call). Declared in each rule file's header as {@code -- role: cause|consequence}.
 */
public enum Role {
    CAUSE,
    CONSEQUENCE;

    /** The lowercase spelling used in rule headers and the JSON report. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses "cause" or "consequence" (case-insensitive). */
    public static Role parse(String text) {
        for (Role role : values()) {
            if (role.label().equalsIgnoreCase(text.strip())) {
                return role;
            }
        }
        throw new IllegalArgumentException("unknown role '" + text + "' (expected cause or consequence)");
    }
}
