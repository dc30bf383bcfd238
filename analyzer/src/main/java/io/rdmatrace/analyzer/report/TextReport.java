package io.rdmatrace.analyzer.report;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.ClockEstimate;
import io.rdmatrace.analyzer.ConnectionSummary;
import io.rdmatrace.analyzer.Diagnosis;
import io.rdmatrace.analyzer.Evidence;
import io.rdmatrace.analyzer.Finding;
import io.rdmatrace.analyzer.Severity;
import io.rdmatrace.analyzer.load.HostLoad;
import io.rdmatrace.analyzer.rule.Rule;
import io.rdmatrace.analyzer.rule.RuleOutcome;
import io.rdmatrace.analyzer.rule.RuleProblem;

/**
 * The report for people: a summary naming the root cause, hosts (trace integrity and verdict),
 * connections (states up to the one each QP ended in), then each cause with its consequences
 * indented beneath, the failures nothing in the trace explains, and expected findings folded. A
 * job's hosts and connections are told by group ({@link JobSummary}).
 */
final class TextReport implements ReportWriter {

    @Override
    public void write(AnalysisResult result, ReportOptions options, PrintWriter out) {
        Diagnosis diagnosis = result.diagnosis();
        List<Finding> findings = result.findings();
        Summary.lines(result, diagnosis).forEach(out::println);
        out.println();
        List<HostLoad> hosts = result.load().hosts();
        out.printf("rdmatrace analyze: %d host folder(s), %d events loaded in %s; %d rules in %s%n",
                hosts.size(), result.load().events(), Lookup.millis(result.load().elapsedNanos()),
                result.outcomes().size(), Lookup.millis(result.ruleNanos()));
        out.println();
        boolean job = JobSummary.applies(result);
        out.println(job ? "Hosts (" + hosts.size() + ", grouped)" : "Hosts");
        if (job) {
            JobSummary.hostLines(result).forEach(line -> out.println("  " + line));
        }
        for (HostLoad host : job ? List.<HostLoad>of() : hosts) {
            out.printf("  %-10s trace %-10s %6d events  verdict: %-26s %s%n", host.host(), Lookup.integrity(host),
                    host.events(), Lookup.verdict(host, findings), host.folder());
            if (!host.status().equals("CLEAN")) {
                out.println("      " + host.detail());
            }
            result.ending(host.host()).filter(e -> !e.ending().equals("UNSTATED") && !e.ending().equals("FINISHED"))
                    .ifPresent(e -> out.println("      ended: " + e.text() + (e.detail() == null ? "" : " (" + e.detail() + ")")));
        }
        for (String problem : result.load().rootProblems()) {
            out.println("  " + problem);
        }
        out.println();
        out.println(job ? "Connections (" + result.connections().size() + ", grouped)" : "Connections");
        if (result.connections().isEmpty()) {
            out.println("  none matched (no QP pair found across the loaded hosts)");
        } else if (job) {
            JobSummary.connectionLines(result).forEach(line -> out.println("  " + line));
        }
        // lines written per connection and finding are concatenated, not printf'd: a 1,000-QP report has
        // ~30k of them, and a Formatter parsing its pattern for each cost ~0.1 s of a short-lived JVM
        for (ConnectionSummary c : job ? List.<ConnectionSummary>of() : result.connections()) {
            out.println("  #" + c.pairId() + " " + Lookup.connection(c) + "  " + c.qpType() + "  matched by " + c.matchedBy());
            out.println("       " + c.hostA() + ": " + Lookup.path(c.pathA(), c.finalA(), c.hostA()));
            out.println("       " + c.hostB() + ": " + Lookup.path(c.pathB(), c.finalB(), c.hostB()));
        }
        if (!result.clocks().isEmpty()) {
            out.println();
            out.println(job ? "Clocks (" + result.clocks().size() + " estimated, grouped)" : "Clocks");
            if (job) {
                out.println("  " + JobSummary.clockLine(result.clocks()));
            }
            for (ClockEstimate clock : job ? List.<ClockEstimate>of() : result.clocks()) {
                out.println("  clock offset " + clock.describe());
            }
        }
        out.println();
        long expected = diagnosis.expected().size();
        out.printf("Findings: %d error(s), %d warning(s), %d info%s%n", result.count(Severity.ERROR),
                result.count(Severity.WARNING), result.count(Severity.INFO),
                expected > 0 ? " (" + expected + " expected)" : "");
        Map<String, Rule> rules = Lookup.rulesById(result);
        Set<Finding> printed = Collections.newSetFromMap(new IdentityHashMap<>());
        boolean[] hinted = {false};
        // a job's causes alike (same rule, same message but for names and QP numbers, nothing following
        // from them) are told once, with every place they were found
        Map<Finding, List<Finding>> alike = job ? JobSummary.alike(diagnosis, hostNames(hosts)) : Map.of();
        for (Finding cause : diagnosis.causes()) {
            if (printed.contains(cause)) {
                continue;
            }
            out.println();
            List<Finding> same = alike.getOrDefault(cause, List.of());
            if (same.size() > 1) {
                printed.addAll(same);
                grouped(out, same, rules, options, hinted);
                continue;
            }
            finding(out, cause, rules, options, "", hinted, List.of());
            List<Finding> consequences = diagnosis.consequencesOf(cause);
            if (!consequences.isEmpty()) {
                out.println("    which led to:");
            }
            for (Finding consequence : consequences) {
                if (printed.add(consequence)) {
                    finding(out, consequence, rules, options, "      ", hinted, diagnosis.causesOf(consequence));
                } else {
                    out.printf("      %s %s on %s (above)%n", consequence.severity().name(), consequence.ruleId(),
                            Lookup.where(consequence));
                }
            }
        }
        for (Finding failure : diagnosis.unexplained()) {
            out.println();
            finding(out, failure, rules, options, "", hinted, List.of());
            Set<String> hostsOf = new TreeSet<>();
            if (failure.host() != null) {
                hostsOf.add(failure.host());
            }
            failure.evidence().forEach(e -> hostsOf.add(e.host()));
            out.println("    no cause in this trace; "
                    + Summary.wire(result, hostsOf).orElse("no wire counter moved on " + String.join(", ", hostsOf)));
            out.println("    capture next: " + Lookup.captureNext(failure));
        }
        expected(out, diagnosis.expected(), rules, options, hinted);
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
                out.printf("  %-30s %-7s %-11s %3d finding(s) %10s%s%n", outcome.rule().id(), outcome.rule().severity().label(),
                        outcome.rule().role().label(), outcome.findings().size(), Lookup.millis(outcome.elapsedNanos()),
                        outcome.failed() ? "  FAILED" : "");
                out.println(indent(outcome.rule().sql(), "      "));
            }
        }
        out.flush();
    }

    private static void finding(PrintWriter out, Finding f, Map<String, Rule> rules, ReportOptions options, String pad,
            boolean[] hinted, List<Finding> causes) {
        Rule rule = rules.get(f.ruleId());
        out.println(pad + f.severity().name() + " " + f.ruleId() + ": " + rule.title());
        if (options.verbose()) {
            out.println(indent(rule.explanation(), pad + "    "));
        }
        out.println(pad + "  - " + Lookup.where(f) + ": " + f.message());
        out.println(pad + "    evidence: " + Lookup.evidence(f));
        if (!hinted[0] && !f.evidence().isEmpty()) {
            hinted[0] = true;
            List<String> ids = new ArrayList<>();
            f.evidence().stream().limit(4).map(Evidence::toString).forEach(ids::add);
            out.printf("%s    look at them: rdmatrace show %s %s%n", pad, options.traceArgs(), String.join(" ", ids));
        }
        if (causes.isEmpty()) {
            out.println(indent("fix: " + rule.fix(), pad + "    "));
        } else {
            out.println(pad + "    fix: the cause (" + String.join(", ", causes.stream().map(c -> c.ruleId() + " on "
                    + Lookup.where(c)).distinct().toList()) + ")");
        }
    }

    /** A group of findings alike: the rule once, where each was found, the first one's message and evidence. */
    private static void grouped(PrintWriter out, List<Finding> same, Map<String, Rule> rules, ReportOptions options,
            boolean[] hinted) {
        Finding first = same.get(0);
        out.println(first.severity().name() + " " + first.ruleId() + ": " + rules.get(first.ruleId()).title()
                + " (" + same.size() + " alike)");
        out.println("  - on " + JobSummary.places(same) + "; the first: " + Lookup.where(first) + ": " + first.message());
        out.println("    evidence: " + Lookup.evidence(first));
        if (!hinted[0] && !first.evidence().isEmpty()) {
            hinted[0] = true;
            List<String> ids = new ArrayList<>();
            first.evidence().stream().limit(4).map(Evidence::toString).forEach(ids::add);
            out.printf("    look at them: rdmatrace show %s %s%n", options.traceArgs(), String.join(" ", ids));
        }
        out.println(indent("fix: " + rules.get(first.ruleId()).fix(), "    "));
    }

    private static Set<String> hostNames(List<HostLoad> hosts) {
        Set<String> names = new java.util.HashSet<>();
        hosts.forEach(h -> names.add(h.host()));
        return names;
    }

    private static void expected(PrintWriter out, List<Finding> expected, Map<String, Rule> rules, ReportOptions options,
            boolean[] hinted) {
        if (expected.isEmpty()) {
            return;
        }
        out.println();
        if (options.all()) {
            out.println("Expected (a deliberate probe's outcome):");
            for (Finding f : expected) {
                finding(out, f, rules, options, "  ", hinted, List.of());
            }
            return;
        }
        Set<String> ids = new TreeSet<>();
        Set<String> where = new TreeSet<>();
        expected.forEach(f -> {
            ids.add(f.ruleId());
            where.add(Lookup.where(f));
        });
        out.printf("Expected: %d %s finding(s) on %s, as a deliberate probe must produce (--all shows them)%n",
                expected.size(), String.join(", ", ids), String.join(", ", where));
    }

    static String indent(String text, String prefix) {
        return prefix + text.strip().replace("\n", "\n" + prefix);
    }
}
