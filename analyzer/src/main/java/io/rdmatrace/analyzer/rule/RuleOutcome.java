package io.rdmatrace.analyzer.rule;

import java.util.List;
import java.util.Objects;

import io.rdmatrace.analyzer.Finding;

/**
 * What running one rule gave: its findings (possibly none), or the problem that stopped it.
 *
 * @param rule        the rule
 * @param findings    its rows, ordered by host, qp, message
 * @param problem     null when the rule ran
 * @param elapsedNanos wall time of the query
 */
public record RuleOutcome(Rule rule, List<Finding> findings, RuleProblem problem, long elapsedNanos) {
    public RuleOutcome {
        Objects.requireNonNull(rule, "rule");
        findings = List.copyOf(findings);
    }

    public boolean failed() {
        return problem != null;
    }
}
