package io.rdmatrace.analyzer.report;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.ClockEstimate;
import io.rdmatrace.analyzer.ConnectionSummary;
import io.rdmatrace.analyzer.Finding;
import io.rdmatrace.analyzer.Severity;
import io.rdmatrace.analyzer.load.HostLoad;
import io.rdmatrace.analyzer.rule.Rule;
import io.rdmatrace.analyzer.rule.RuleOutcome;
import io.rdmatrace.analyzer.rule.RuleProblem;

/** The report for people: hosts, connections, then findings by severity with evidence and fix. */
final class TextReport implements ReportWriter {

    @Override
    public void write(AnalysisResult result, ReportOptions options, PrintWriter out) {
        List<HostLoad> hosts = result.load().hosts();
        out.printf("rdmatrace analyze: %d host folder(s), %d events loaded in %s; %d rules in %s%n",
                hosts.size(), result.load().events(), Lookup.millis(result.load().elapsedNanos()),
                result.outcomes().size(), Lookup.millis(result.ruleNanos()));
        out.println();
        out.println("Hosts");
        for (HostLoad host : hosts) {
            out.printf("  %-16s %-10s %8d events  %s%n", host.host(), host.status(), host.events(), host.folder());
            if (!host.status().equals("CLEAN")) {
                out.println("      " + host.detail());
            }
        }
        for (String problem : result.load().rootProblems()) {
            out.println("  " + problem);
        }
        out.println();
        out.println("Connections");
        if (result.connections().isEmpty()) {
            out.println("  none matched (no QP pair found across the loaded hosts)");
        }
        for (ConnectionSummary c : result.connections()) {
            out.printf("  #%d %s  %s  matched by %s%n", c.pairId(), Lookup.connection(c), c.qpType(), c.matchedBy());
            out.printf("       %s: %s%n", c.hostA(), Lookup.states(c.statesA()));
            out.printf("       %s: %s%n", c.hostB(), Lookup.states(c.statesB()));
        }
        if (!result.clocks().isEmpty()) {
            out.println();
            out.println("Clocks");
            for (ClockEstimate clock : result.clocks()) {
                out.println("  clock offset " + clock.describe());
            }
        }
        out.println();
        List<Finding> findings = result.findings();
        out.printf("Findings: %d error(s), %d warning(s), %d info%n", result.count(Severity.ERROR),
                result.count(Severity.WARNING), result.count(Severity.INFO));
        Map<String, Rule> rules = Lookup.rulesById(result);
        for (int i = 0; i < findings.size(); i++) {
            Finding finding = findings.get(i);
            Rule rule = rules.get(finding.ruleId());
            if (i == 0 || !findings.get(i - 1).ruleId().equals(finding.ruleId())) {
                out.println();
                out.printf("%s %s: %s%n", finding.severity().name(), finding.ruleId(), rule.title());
                if (options.verbose()) {
                    out.println(indent(rule.explanation(), "    "));
                }
            }
            out.printf("  - %s: %s%n", Lookup.where(finding), finding.message());
            out.printf("    evidence: %s%n", Lookup.evidence(finding));
            if (i == findings.size() - 1 || !findings.get(i + 1).ruleId().equals(finding.ruleId())) {
                out.println(indent("fix: " + rule.fix(), "    "));
            }
        }
        if (!result.ruleProblems().isEmpty()) {
            out.println();
            out.printf("Rule problems: %d rule file(s) could not be used (the other rules ran)%n", result.ruleProblems().size());
            for (RuleProblem problem : result.ruleProblems()) {
                out.println("  " + problem);
            }
        }
        if (options.verbose()) {
            out.println();
            out.println("Rules");
            for (RuleOutcome outcome : result.outcomes()) {
                out.printf("  %-30s %-7s %3d finding(s) %10s%s%n", outcome.rule().id(), outcome.rule().severity().label(),
                        outcome.findings().size(), Lookup.millis(outcome.elapsedNanos()),
                        outcome.failed() ? "  FAILED" : "");
                out.println(indent(outcome.rule().sql(), "      "));
            }
        }
        out.flush();
    }

    static String indent(String text, String prefix) {
        return prefix + text.strip().replace("\n", "\n" + prefix);
    }
}
