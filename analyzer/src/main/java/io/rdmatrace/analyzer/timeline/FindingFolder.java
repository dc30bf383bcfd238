package io.rdmatrace.analyzer.timeline;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.rdmatrace.analyzer.timeline.Timeline.FindingMark;

/**
 * Folds findings of a timeline whose lanes were folded: findings of one rule, severity and host
 * whose messages differ only in numbers become one, shown with the message of one whose evidence
 * is drawn, how many it stands for and on which QPs. Evidence that is not drawn (on folded lanes)
 * is counted, not listed.
 */
final class FindingFolder {
    private static final int OTHERS_LISTED = 12;

    private FindingFolder() {
    }

    static List<FindingMark> fold(List<FindingMark> findings, Set<String> drawn) {
        Map<String, List<FindingMark>> groups = new LinkedHashMap<>();
        for (FindingMark f : findings) {
            String key = f.ruleId() + "|" + f.severity() + "|" + f.host() + "|"
                    + f.message().replaceAll("0x[0-9a-fA-F]+", "#").replaceAll("\\d+", "#");
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(f);
        }
        List<FindingMark> out = new ArrayList<>();
        for (List<FindingMark> group : groups.values()) {
            FindingMark best = representative(group, drawn);
            List<String> shown = best.evidence().stream().filter(drawn::contains).toList();
            String others = null;
            if (group.size() > 1) {
                StringBuilder s = new StringBuilder();
                int listed = 0;
                for (FindingMark f : group) {
                    if (f == best || listed >= OTHERS_LISTED) {
                        continue;
                    }
                    s.append(listed++ == 0 ? "" : ", ").append(f.qp() != null ? String.format("QP 0x%06x", f.qp())
                            : f.host() != null ? f.host() : "both hosts");
                }
                if (group.size() - 1 > listed) {
                    s.append(", … ").append(group.size() - 1 - listed).append(" more");
                }
                others = s.toString();
            }
            out.add(new FindingMark("F" + (out.size() + 1), best.ruleId(), best.severity(), best.host(), best.qp(),
                    best.message(), shown, group.size(), others, best.evidence().size() - shown.size()));
        }
        return out;
    }

    /** The first finding all of whose evidence is drawn, else the one with the most drawn evidence. */
    private static FindingMark representative(List<FindingMark> group, Set<String> drawn) {
        FindingMark best = group.get(0);
        long most = -1;
        for (FindingMark f : group) {
            long n = f.evidence().stream().filter(drawn::contains).count();
            if (n == f.evidence().size()) {
                return f;
            }
            if (n > most) {
                best = f;
                most = n;
            }
        }
        return best;
    }
}
