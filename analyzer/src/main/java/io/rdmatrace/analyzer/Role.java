package io.rdmatrace.analyzer;

import java.util.Locale;

/**
 * What a rule's findings are in a diagnosis: a cause (something set up wrong, the place a fix
 * goes), a consequence (a failure that follows from a cause: an error completion, a refused
 * call), or an aftermath (what a program left behind or did once things had gone wrong: objects
 * not destroyed at exit; fixed where it says, but never the cause of another finding). Declared
 * in each rule file's header as {@code -- role: cause|consequence|aftermath}.
 */
public enum Role {
    CAUSE,
    CONSEQUENCE,
    AFTERMATH;

    /** The lowercase spelling used in rule headers and the JSON report. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses "cause", "consequence" or "aftermath" (case-insensitive). */
    public static Role parse(String text) {
        for (Role role : values()) {
            if (role.label().equalsIgnoreCase(text.strip())) {
                return role;
            }
        }
        throw new IllegalArgumentException("unknown role '" + text + "' (expected cause, consequence or aftermath)");
    }
}
