package io.rdmatrace.analyzer;

import java.util.Comparator;
import java.util.List;

import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.analyzer.rule.RuleOutcome;
import io.rdmatrace.analyzer.rule.RuleProblem;

/**
 * Everything a report shows: what was loaded, the connections, each rule's outcome, and the
 * rule files that could not be used.
 *
 * @param load          hosts loaded (or refused) and load time
 * @param connections   one per matched QP pair
 * @param outcomes      one per rule that was run, in rule order
 * @param ruleProblems  rule files that did not parse, bind or run
 * @param ruleNanos     wall time of running all rules
 * @param clocks        the hosts whose clock offset was estimated (others are references or unknown)
 * @param wire          the packet-level counters that moved ({@code wire_counters})
 * @param endings       how each host's recording ended (hosts with an END)
 */
public record AnalysisResult(LoadReport load, List<ConnectionSummary> connections, List<RuleOutcome> outcomes,
        List<RuleProblem> ruleProblems, long ruleNanos, List<ClockEstimate> clocks, List<WireCounter> wire,
        List<HostEnding> endings) {
    public AnalysisResult {
        endings = List.copyOf(endings);
        connections = List.copyOf(connections);
        outcomes = List.copyOf(outcomes);
        ruleProblems = List.copyOf(ruleProblems);
        clocks = List.copyOf(clocks);
        wire = List.copyOf(wire);
    }

    /** A result without endings. */
    public AnalysisResult(LoadReport load, List<ConnectionSummary> connections, List<RuleOutcome> outcomes,
            List<RuleProblem> ruleProblems, long ruleNanos, List<ClockEstimate> clocks, List<WireCounter> wire) {
        this(load, connections, outcomes, ruleProblems, ruleNanos, clocks, wire, List.of());
    }

    /** How {@code host}'s recording ended, if its trace has an END. */
    public java.util.Optional<HostEnding> ending(String host) {
        return endings.stream().filter(e -> e.host().equals(host)).findFirst();
    }

    /** A result without clock estimates. */
    public AnalysisResult(LoadReport load, List<ConnectionSummary> connections, List<RuleOutcome> outcomes,
            List<RuleProblem> ruleProblems, long ruleNanos) {
        this(load, connections, outcomes, ruleProblems, ruleNanos, List.of(), List.of(), List.of());
    }

    /** A result without wire counters. */
    public AnalysisResult(LoadReport load, List<ConnectionSummary> connections, List<RuleOutcome> outcomes,
            List<RuleProblem> ruleProblems, long ruleNanos, List<ClockEstimate> clocks) {
        this(load, connections, outcomes, ruleProblems, ruleNanos, clocks, List.of(), List.of());
    }

    /** The findings as causes with their consequences (computed on each call). */
    public Diagnosis diagnosis() {
        return Diagnosis.of(findings(), connections);
    }

    /** All findings, most severe first, then by rule id, host, QP. */
    public List<Finding> findings() {
        return outcomes.stream().flatMap(o -> o.findings().stream())
                .sorted(Comparator.comparing(Finding::severity).thenComparing(Finding::ruleId)
                        .thenComparing(f -> f.host() == null ? "" : f.host())
                        .thenComparing(f -> f.qp() == null ? -1L : f.qp()))
                .toList();
    }

    /** Findings at {@code threshold} or worse. */
    public long countAtLeast(Severity threshold) {
        return findings().stream().filter(f -> f.severity().atLeast(threshold)).count();
    }

    public long count(Severity severity) {
        return findings().stream().filter(f -> f.severity() == severity).count();
    }
}
