package io.rdmatrace.analyzer.rule;

/** A rule file whose header or body breaks the format described in rules/README.md. */
public final class RuleFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    public RuleFormatException(String message) {
        super(message);
    }
}
