package io.rdmatrace.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.Finding;
import io.rdmatrace.analyzer.Severity;
import io.rdmatrace.analyzer.load.HostLoad;
import io.rdmatrace.analyzer.report.ReportLines;

/**
 * What `watch` has told so far, and what a new analysis of the same traces adds to it: a host seen
 * for the first time or whose trace changed state (still recording, complete, how it ended), each
 * finding once, and an error or warning told before that the traces no longer show (a peer whose
 * trace was missing has appeared). A finding is the same from round to round when its rule,
 * severity, host and QP are (a stall's message counts its seconds up); one without a QP also by
 * its message with its numbers left out (a host's leaked objects are one finding each). One about
 * a host whose trace could not be read is told once it held for two rounds in a row, or in the
 * last round: a trace caught while its first event is being written reads as unreadable for that
 * instant.
 */
final class WatchProgress {
    private static final Pattern NUMBERS = Pattern.compile("(0x)?[0-9a-f]*[0-9][0-9a-f]*");
    private final Map<String, String> hostStates = new HashMap<>();
    private final Map<String, Finding> told = new LinkedHashMap<>();
    private Set<String> seenLastRound = Set.of();

    /** The lines to print for {@code result}; {@code last}: no round follows, tell every finding now. */
    List<String> update(AnalysisResult result, boolean last) {
        List<String> lines = new ArrayList<>();
        for (HostLoad host : result.load().hosts()) {
            if (host.status().equals("IGNORED")) {
                continue;
            }
            String state = hostState(result, host);
            if (!state.equals(hostStates.put(host.host(), state))) {
                lines.add(host.host() + ": " + state);
            }
        }
        Set<String> unreadable = new HashSet<>();
        result.load().hosts().stream().filter(h -> !h.readable()).forEach(h -> unreadable.add(h.host()));
        Set<String> seen = new HashSet<>();
        for (Finding f : result.diagnosis().inReportOrder()) {
            String key = key(f);
            seen.add(key);
            boolean settled = last || !unreadable.contains(f.host()) || seenLastRound.contains(key);
            if (settled && told.putIfAbsent(key, f) == null) {
                lines.add(ReportLines.finding(f));
            }
        }
        for (Iterator<Map.Entry<String, Finding>> it = told.entrySet().iterator(); it.hasNext(); ) {
            Finding gone = it.next().getValue();
            if (!seen.contains(key(gone)) && gone.severity().atLeast(Severity.WARNING)) {
                lines.add("no longer found: " + ReportLines.where(gone));
                it.remove();
            }
        }
        seenLastRound = seen;
        return lines;
    }

    private static String hostState(AnalysisResult result, HostLoad host) {
        String state = "trace " + host.integrity();
        return result.ending(host.host()).filter(e -> !e.ending().equals("UNSTATED") && !e.ending().equals("FINISHED"))
                .map(e -> state + ", " + e.text()).orElse(state);
    }

    private static String key(Finding f) {
        String key = f.ruleId() + '\0' + f.severity() + '\0' + f.host() + '\0' + f.qp();
        return f.qp() != null ? key : key + '\0' + NUMBERS.matcher(f.message()).replaceAll("#");
    }
}
