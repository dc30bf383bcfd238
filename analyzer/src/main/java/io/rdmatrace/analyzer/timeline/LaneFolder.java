package io.rdmatrace.analyzer.timeline;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.rdmatrace.analyzer.timeline.Timeline.CallSpan;
import io.rdmatrace.analyzer.timeline.Timeline.FindingMark;
import io.rdmatrace.analyzer.timeline.Timeline.Lane;
import io.rdmatrace.analyzer.timeline.Timeline.LaneKind;
import io.rdmatrace.analyzer.timeline.Timeline.Point;
import io.rdmatrace.analyzer.timeline.Timeline.StateBand;

/**
 * Keeps a timeline of many QPs readable and small: connections (a QP and its peer's lane) whose
 * histories are the same — the same calls with the same outcomes, states, completions and
 * finding evidence in the same order, whatever their QP numbers and times — are drawn once, as
 * one row that says how many it stands for and which QPs; findings of one rule that differ only
 * in numbers fold the same way; past {@link #MAX_ROWS} connection rows, the routine ones (no
 * failure, no evidence) fold into one row per host that is not drawn. Runs of the same call or
 * message on a host lane then fold too ({@link HostRunFolder}). A timeline of up to
 * {@link #FOLD_FROM} QP lanes is returned as it is.
 */
public final class LaneFolder {
    static final int FOLD_FROM = 16;
    static final int MAX_ROWS = 40;
    private static final int MEMBERS_LISTED = 12;

    private LaneFolder() {
    }

    public static Timeline fold(Timeline t) {
        long qpLanes = t.lanes().stream().filter(l -> l.kind() == LaneKind.QP).count();
        if (qpLanes <= FOLD_FROM) {
            return t;
        }
        Map<String, String> rulesOfEvent = new HashMap<>();
        for (FindingMark f : t.findings()) {
            for (String ev : f.evidence()) {
                rulesOfEvent.merge(ev, f.ruleId(), (a, b) -> a.contains(b) ? a : a + "," + b);
            }
        }
        Map<String, List<String>> tokensOfLane = laneTokens(t, rulesOfEvent);
        // connections: a QP lane and, right after it, its peer
        Map<String, List<List<Lane>>> groups = new LinkedHashMap<>();
        List<Lane> lanes = t.lanes();
        for (int i = 0; i < lanes.size(); i++) {
            Lane l = lanes.get(i);
            if (l.kind() != LaneKind.QP) {
                continue;
            }
            List<Lane> unit = new ArrayList<>(List.of(l));
            if (l.peer() != null && i + 1 < lanes.size() && lanes.get(i + 1).id().equals(l.peer())) {
                unit.add(lanes.get(++i));
            }
            StringBuilder key = new StringBuilder();
            for (Lane u : unit) {
                key.append(u.hostIndex()).append('|').append(String.join(";", tokensOfLane.getOrDefault(u.id(), List.of())))
                        .append("||");
            }
            groups.computeIfAbsent(key.toString(), k -> new ArrayList<>()).add(unit);
        }
        Map<String, Lane> keptLanes = new LinkedHashMap<>();
        Map<Integer, List<Lane>> unshown = new TreeMap<>();
        int rows = 0;
        for (List<List<Lane>> group : groups.values()) {
            List<Lane> exemplar = group.get(0);
            boolean notable = exemplar.stream().anyMatch(l -> tokensOfLane.getOrDefault(l.id(), List.of()).stream()
                    .anyMatch(tok -> tok.contains("!") || tok.contains("+E")));
            if (rows >= MAX_ROWS && !notable || rows >= 4 * MAX_ROWS) {
                for (List<Lane> unit : group) {
                    for (Lane l : unit) {
                        unshown.computeIfAbsent(l.hostIndex(), k -> new ArrayList<>()).add(l);
                    }
                }
                continue;
            }
            rows++;
            for (int pos = 0; pos < exemplar.size(); pos++) {
                Lane l = exemplar.get(pos);
                if (group.size() == 1) {
                    keptLanes.put(l.id(), l);
                    continue;
                }
                List<Integer> qpns = new ArrayList<>();
                for (List<Lane> unit : group) {
                    if (unit.size() > pos && unit.get(pos).qpNum() != null) {
                        qpns.add(unit.get(pos).qpNum());
                    }
                }
                keptLanes.put(l.id(), l.folded(group.size(), members(qpns)));
            }
        }
        List<Lane> out = new ArrayList<>();
        for (Lane l : lanes) {
            if (l.kind() == LaneKind.HOST) {
                out.add(l);
            } else if (keptLanes.containsKey(l.id())) {
                out.add(keptLanes.get(l.id()));
            }
        }
        for (Map.Entry<Integer, List<Lane>> e : unshown.entrySet()) {
            List<Integer> qpns = e.getValue().stream().map(Lane::qpNum).filter(q -> q != null).toList();
            String host = t.hosts().get(e.getKey()).id();
            out.add(new Lane("h" + e.getKey() + "-routine", e.getKey(), LaneKind.QP,
                    host + " · " + e.getValue().size() + " more QPs, routine (not drawn)", null, null,
                    e.getValue().size(), members(qpns)));
        }
        Set<String> drawnLanes = new HashSet<>();
        out.forEach(l -> drawnLanes.add(l.id()));
        List<CallSpan> calls = t.calls().stream().filter(c -> drawnLanes.contains(c.lane())).toList();
        List<Point> points = t.points().stream().filter(p -> drawnLanes.contains(p.lane())).toList();
        List<StateBand> states = t.states().stream().filter(s -> drawnLanes.contains(s.lane())).toList();
        Set<String> drawn = new HashSet<>();
        calls.forEach(c -> drawn.add(c.event()));
        points.forEach(p -> drawn.add(p.event()));
        List<FindingMark> findings = FindingFolder.fold(t.findings(), drawn);
        Timeline folded = new Timeline(t.title(), t.t0WallNs(), t.spanNs(), t.hosts(), out, calls, states, points,
                t.links(), findings);
        return HostRunFolder.fold(folded);
    }

    /** Each QP lane's history as tokens, in time order: what happened, not when or to which QP number. */
    private static Map<String, List<String>> laneTokens(Timeline t, Map<String, String> rulesOfEvent) {
        Map<String, TreeMap<Long, List<String>>> byLane = new HashMap<>();
        for (CallSpan c : t.calls()) {
            add(byLane, c.lane(), c.endNs(), "C" + c.verb() + (c.ok() ? "" : "!") + ":" + normal(c.label())
                    + evidence(rulesOfEvent, c.event()));
        }
        for (Point p : t.points()) {
            add(byLane, p.lane(), p.tNs(), "P" + p.kind() + (p.bad() ? "!" : "") + ":" + normal(p.label())
                    + evidence(rulesOfEvent, p.event()));
        }
        for (StateBand s : t.states()) {
            add(byLane, s.lane(), s.startNs(), "S" + s.state());
        }
        Map<String, List<String>> out = new HashMap<>();
        byLane.forEach((lane, timed) -> {
            List<String> tokens = new ArrayList<>();
            timed.values().forEach(tokens::addAll);
            out.put(lane, tokens);
        });
        return out;
    }

    private static void add(Map<String, TreeMap<Long, List<String>>> byLane, String lane, long t, String token) {
        byLane.computeIfAbsent(lane, k -> new TreeMap<>()).computeIfAbsent(t, k -> new ArrayList<>()).add(token);
    }

    private static String evidence(Map<String, String> rulesOfEvent, String event) {
        String rules = rulesOfEvent.get(event);
        return rules == null ? "" : "+E" + rules;
    }

    /** A label with its hex numbers taken out ({@code QPN 0x000011} and {@code QPN 0x000012} read the same). */
    static String normal(String text) {
        return text == null ? "" : text.replaceAll("0x[0-9a-fA-F]+", "#");
    }

    /** {@code 0x000011, 0x000012, … (250 QPs)}. */
    static String members(List<Integer> qpns) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < qpns.size() && i < MEMBERS_LISTED; i++) {
            s.append(i == 0 ? "" : ", ").append(String.format("0x%06x", qpns.get(i)));
        }
        if (qpns.size() > MEMBERS_LISTED) {
            s.append(", … ").append(String.format("0x%06x", qpns.get(qpns.size() - 1)));
        }
        return s.append(" (").append(qpns.size()).append(" QPs)").toString();
    }
}
