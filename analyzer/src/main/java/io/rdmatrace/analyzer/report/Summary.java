package io.rdmatrace.analyzer.report;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.ConnectionSummary;
import io.rdmatrace.analyzer.Diagnosis;
import io.rdmatrace.analyzer.Finding;
import io.rdmatrace.analyzer.WireCounter;

/**
 * The 1-3 lines a report opens with: the root cause with its numbers, what followed from it, and
 * what the wire counters show (or, without a cause, the failure nothing explains).
 */
final class Summary {
    private Summary() {
    }

    static List<String> lines(AnalysisResult result, Diagnosis diagnosis) {
        List<String> lines = new ArrayList<>();
        Optional<Finding> root = diagnosis.rootCause();
        if (root.isPresent()) {
            Finding cause = root.get();
            lines.add((cause.role() == io.rdmatrace.analyzer.Role.AFTERMATH ? "Nothing failed; " + cause.ruleId() + ": "
                    : "Root cause (" + cause.ruleId() + "): ") + firstClause(cause.message()));
            List<Finding> followed = diagnosis.consequencesOf(cause);
            if (!followed.isEmpty()) {
                lines.add("It led to: " + clauses(followed));
            }
            List<String> more = new ArrayList<>();
            long others = diagnosis.causes().stream().filter(f -> f != cause && f.role() == io.rdmatrace.analyzer.Role.CAUSE
                    && f.severity().atLeast(io.rdmatrace.analyzer.Severity.WARNING)).count();
            if (others > 0) {
                Set<String> ids = new TreeSet<>();
                diagnosis.causes().stream().filter(f -> f != cause && f.role() == io.rdmatrace.analyzer.Role.CAUSE
                        && f.severity().atLeast(io.rdmatrace.analyzer.Severity.WARNING))
                        .forEach(f -> ids.add(f.ruleId()));
                more.add(others + " more cause(s): " + String.join(", ", ids));
            }
            wire(result, hostsOf(cause, followed)).ifPresent(more::add);
            if (!more.isEmpty()) {
                lines.add(capitalize(String.join("; ", more)));
            }
        } else if (!diagnosis.unexplained().isEmpty()) {
            List<Finding> failures = diagnosis.unexplained();
            lines.add("No cause found in this trace for: " + clauses(failures));
            Optional<String> wire = wire(result, hostsOf(null, failures));
            if (failures.stream().allMatch(f -> f.ruleId().equals("program-failed")) && wire.isEmpty()) {
                // the program gave up before any verbs call failed: its own output says why, not the wire
                lines.add("The program's own error output names the check it failed (see the finding below)");
            } else {
                lines.add(wire.map(Summary::capitalize).orElse("No wire counters moved")
                        + "; capture the packets next (see the finding below)");
            }
        } else {
            Set<String> ends = new TreeSet<>();
            for (ConnectionSummary c : result.connections()) {
                ends.add(last(c.pathA()));
                ends.add(last(c.pathB()));
            }
            lines.add("No errors or warnings: " + result.connections().size() + " connection(s)"
                    + (ends.isEmpty() ? "" : ", every QP ended in " + String.join(" or ", ends)) + ".");
        }
        return lines;
    }

    /** The text of a message up to its first "; ": the observation, without the explanations after it. */
    static String firstClause(String message) {
        int cut = message.indexOf("; ");
        return cut < 0 ? message : message.substring(0, cut);
    }

    private static String clauses(List<Finding> findings) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < findings.size() && i < 2; i++) {
            parts.add(firstClause(findings.get(i).message()));
        }
        String text = String.join("; ", parts);
        return findings.size() > 2 ? text + "; and " + (findings.size() - 2) + " more" : text;
    }

    private static Set<String> hostsOf(Finding cause, List<Finding> findings) {
        Set<String> hosts = new LinkedHashSet<>();
        if (cause != null && cause.host() != null) {
            hosts.add(cause.host());
        }
        for (Finding f : findings) {
            if (f.host() != null) {
                hosts.add(f.host());
            }
        }
        if (cause != null) {
            cause.evidence().forEach(e -> hosts.add(e.host()));
        }
        return hosts;
    }

    /** "on the wire: hostA counted a +1, b +2; hostB counted …" for those hosts, if any counter moved. */
    static Optional<String> wire(AnalysisResult result, Set<String> hosts) {
        List<String> parts = new ArrayList<>();
        for (String host : new TreeSet<>(hosts)) {
            List<WireCounter> counters = result.wire().stream().filter(w -> w.host().equals(host)).toList();
            if (!counters.isEmpty()) {
                parts.add(host + " counted " + String.join(", ", counters.stream().map(WireCounter::toString).toList()));
            }
        }
        return parts.isEmpty() ? Optional.empty() : Optional.of("on the wire, " + String.join("; ", parts));
    }

    private static String last(List<String> states) {
        return states.isEmpty() ? "?" : states.get(states.size() - 1);
    }

    private static String capitalize(String text) {
        return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }
}
