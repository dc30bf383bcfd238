package io.rdmatrace.analyzer.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.ClockEstimate;
import io.rdmatrace.analyzer.ConnectionSummary;
import io.rdmatrace.analyzer.Diagnosis;
import io.rdmatrace.analyzer.Finding;
import io.rdmatrace.analyzer.Severity;
import io.rdmatrace.analyzer.load.HostLoad;

/**
 * The hosts and connections of a job ({@link #JOB_HOSTS} hosts or more) told by group instead of one
 * line each: hosts that read alike ("998 hosts: ok"), then each set of hosts with the same findings,
 * the findings' messages without their host names and QP numbers ("node007.4001, node012.4099:
 * path-mtu-mismatch (uses path MTU 4096 but its peer uses 1024 ...)"); connections by type, matching
 * and the states both ends went through, the uncommon groups with their connections named.
 */
final class JobSummary {
    /** From this many host folders on, a report groups hosts and connections. */
    static final int JOB_HOSTS = 8;
    /** Hosts or connections a group names before "and N more". */
    static final int NAMED = 8;
    private static final Pattern QPN = Pattern.compile("0x[0-9a-f]+");

    private JobSummary() {
    }

    static boolean applies(AnalysisResult result) {
        return result.load().hosts().size() >= JOB_HOSTS;
    }

    /**
     * One line per group of hosts, the largest group first: "N hosts: ok", "a, b: FAILED: rule (what),
     * rule (what)", "c: trace TRUNCATED, not analysed".
     */
    static List<String> hostLines(AnalysisResult result) {
        List<HostLoad> hosts = result.load().hosts();
        Set<String> names = new HashSet<>();
        hosts.forEach(h -> names.add(h.host()));
        Map<String, List<Finding>> byHost = new HashMap<>();
        for (Finding f : result.findings()) {
            if (f.host() != null && !f.expected() && f.severity().atLeast(Severity.WARNING)) {
                byHost.computeIfAbsent(f.host(), h -> new ArrayList<>()).add(f);
            }
        }
        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (HostLoad host : hosts) {
            groups.computeIfAbsent(profile(host, byHost.getOrDefault(host.host(), List.of()), names), p -> new ArrayList<>())
                    .add(host.host());
        }
        List<Map.Entry<String, List<String>>> ordered = new ArrayList<>(groups.entrySet());
        // the largest group first (what most hosts did); ties in the order the hosts were found
        ordered.sort(Comparator.comparingInt((Map.Entry<String, List<String>> e) -> -e.getValue().size()));
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < ordered.size(); i++) {
            Map.Entry<String, List<String>> group = ordered.get(i);
            List<String> members = group.getValue();
            String who = i == 0 && members.size() > NAMED ? members.size() + " hosts" : named(members, "hosts");
            lines.add(who + ": " + group.getKey());
        }
        return lines;
    }

    /** What a host's line says: its trace and verdict, and each distinct finding without names and numbers. */
    private static String profile(HostLoad host, List<Finding> findings, Set<String> hosts) {
        String trace = host.status().equals("CLEAN") ? "" : "trace " + Lookup.integrity(host) + ", ";
        if (!host.readable()) {
            return trace + "not analysed";
        }
        if (findings.isEmpty()) {
            return trace + "ok";
        }
        boolean failed = findings.stream().anyMatch(f -> f.severity() == Severity.ERROR);
        Set<String> what = new TreeSet<>();
        for (Finding f : findings) {
            what.add(f.ruleId() + " (" + anonymous(Summary.firstClause(f.message()), hosts) + ")");
        }
        return trace + (failed ? "FAILED: " : "WARNINGS: ") + String.join(", ", what);
    }

    /**
     * The message without the hosts' names and the QP numbers after "QP": what hosts with the same problem
     * share ("uses path MTU 4096 but its peer uses 1024").
     */
    static String anonymous(String message, Set<String> hosts) {
        String[] words = message.split(" ");
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < words.length; i++) {
            String word = words[i];
            if (word.equals("QP") && i + 1 < words.length && QPN.matcher(strip(words[i + 1])).matches()) {
                i++;
                continue;
            }
            if (hosts.contains(strip(word))) {
                continue;
            }
            kept.add(word);
        }
        return String.join(" ", kept);
    }

    /** A word without the punctuation or possessive that may follow a name ("hostB's", "0x000011,"). */
    private static String strip(String word) {
        String w = word.endsWith("'s") ? word.substring(0, word.length() - 2) : word;
        int end = w.length();
        while (end > 0 && ",;:)".indexOf(w.charAt(end - 1)) >= 0) {
            end--;
        }
        return w.substring(0, end);
    }

    /**
     * One line per group of connections alike (QP type, how they were matched, both ends' states), the
     * largest first; the groups after the first name their connections.
     */
    static List<String> connectionLines(AnalysisResult result) {
        Map<String, List<ConnectionSummary>> groups = new LinkedHashMap<>();
        for (ConnectionSummary c : result.connections()) {
            String a = Lookup.states(c.pathA());
            String b = Lookup.states(c.pathB());
            String states = a.equals(b) ? a + " on both ends" : a + " on one end, " + b + " on the other";
            groups.computeIfAbsent(c.qpType() + ", matched by " + c.matchedBy() + ": " + states, k -> new ArrayList<>()).add(c);
        }
        List<Map.Entry<String, List<ConnectionSummary>>> ordered = new ArrayList<>(groups.entrySet());
        ordered.sort(Comparator.comparingInt((Map.Entry<String, List<ConnectionSummary>> e) -> -e.getValue().size()));
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < ordered.size(); i++) {
            List<ConnectionSummary> members = ordered.get(i).getValue();
            String count = members.size() + " connection" + (members.size() == 1 ? "" : "s");
            if (i == 0) {
                lines.add(count + " " + ordered.get(i).getKey());
            } else {
                lines.add(count + " " + ordered.get(i).getKey() + ": "
                        + named(members.stream().map(Lookup::connection).toList(), "connections"));
            }
        }
        return lines;
    }

    /** "999 hosts' offsets from their references: -5.000 ms to +5.000 ms, uncertainty up to 0.021 ms (causality)". */
    static String clockLine(List<ClockEstimate> clocks) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        long doubt = 0;
        Set<String> methods = new TreeSet<>();
        for (ClockEstimate c : clocks) {
            min = Math.min(min, c.offsetNs());
            max = Math.max(max, c.offsetNs());
            doubt = Math.max(doubt, c.uncertaintyNs());
            methods.add(c.method());
        }
        return String.format(Locale.ROOT, "%d hosts' offsets from their references: %+.3f ms to %+.3f ms, uncertainty up to "
                + "%.3f ms (%s)", clocks.size(), min / 1e6, max / 1e6, doubt / 1e6, String.join(", ", methods));
    }

    /**
     * The causes of a job that are alike (same rule, the same message but for host names and QP numbers,
     * no consequence): each such cause → its whole group, in the diagnosis' order (groups of one left out).
     */
    static Map<Finding, List<Finding>> alike(Diagnosis diagnosis, Set<String> hosts) {
        Map<String, List<Finding>> groups = new LinkedHashMap<>();
        for (Finding f : diagnosis.causes()) {
            if (diagnosis.consequencesOf(f).isEmpty()) {
                groups.computeIfAbsent(f.ruleId() + "\n" + anonymous(Summary.firstClause(f.message()), hosts),
                        k -> new ArrayList<>()).add(f);
            }
        }
        Map<Finding, List<Finding>> byFinding = new java.util.IdentityHashMap<>();
        for (List<Finding> group : groups.values()) {
            if (group.size() > 1) {
                group.forEach(f -> byFinding.put(f, group));
            }
        }
        return byFinding;
    }

    /** "node001.4001 (2), node002.4002 ... (and 12 more hosts)": the hosts of some findings, with their counts. */
    static String places(List<Finding> findings) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Finding f : findings) {
            counts.merge(f.host() == null ? "(capture)" : f.host(), 1, Integer::sum);
        }
        List<String> names = new ArrayList<>();
        counts.forEach((host, n) -> names.add(n == 1 ? host : host + " (" + n + ")"));
        return counts.size() + " host(s): " + named(names, "hosts");
    }

    /** "a, b, c" or "a, b, ... (and 12 more hosts)". */
    private static String named(List<String> names, String noun) {
        if (names.size() <= NAMED) {
            return String.join(", ", names);
        }
        return String.join(", ", names.subList(0, NAMED)) + " (and " + (names.size() - NAMED) + " more " + noun + ")";
    }
}
