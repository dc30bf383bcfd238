package io.rdmatrace.analyzer;

import java.util.List;
import java.util.Objects;

/**
 * One row a rule returned, with the rule's identity attached.
 *
 * @param ruleId   the rule's id (its file name without {@code .sql})
 * @param severity the rule's severity
 * @param host     the host the finding is about, or null when it concerns the whole capture
 * @param qp       the QP number (24-bit) the finding is about, or null
 * @param evidence the events that prove it, on one or both hosts, in (host, seq) order
 * @param message  what is wrong, in the rule's words, with the observed values
 * @param role     the rule's role: a cause, or a consequence of one
 * @param expected the row is the expected outcome of a deliberate probe (the rule's optional
 *                 {@code expected} column): reports fold it into one line
 */
public record Finding(String ruleId, Severity severity, String host, Long qp, List<Evidence> evidence, String message,
        Role role, boolean expected) {
    public Finding {
        Objects.requireNonNull(ruleId, "ruleId");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(role, "role");
        evidence = List.copyOf(evidence);
        message = message == null ? "" : message;
    }

    /** A cause that is not expected noise. */
    public Finding(String ruleId, Severity severity, String host, Long qp, List<Evidence> evidence, String message) {
        this(ruleId, severity, host, qp, evidence, message, Role.CAUSE, false);
    }
}
