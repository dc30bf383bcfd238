package io.rdmatrace.analyzer.rule;

import java.util.Objects;

/**
 * A rule that could not be used: a bad header, a body that does not bind, or an error while
 * running. The others still run; reports list these next to the findings.
 *
 * @param file    the rule file (path for user rules, {@code rules/<id>.sql} for built-in ones)
 * @param message what is wrong, in one line
 */
public record RuleProblem(String file, String message) {
    public RuleProblem {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(message, "message");
    }

    @Override
    public String toString() {
        return file + ": " + message;
    }
}
