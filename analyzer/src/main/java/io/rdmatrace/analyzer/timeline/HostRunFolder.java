package io.rdmatrace.analyzer.timeline;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.rdmatrace.analyzer.timeline.Timeline.CallSpan;
import io.rdmatrace.analyzer.timeline.Timeline.FindingMark;
import io.rdmatrace.analyzer.timeline.Timeline.Lane;
import io.rdmatrace.analyzer.timeline.Timeline.LaneKind;
import io.rdmatrace.analyzer.timeline.Timeline.OobLink;
import io.rdmatrace.analyzer.timeline.Timeline.Point;
import io.rdmatrace.analyzer.timeline.Timeline.PointKind;

/**
 * Folds what many QPs leave on their host's lane (a CQ created per QP, a PARAMS message per
 * connection each way): between two boundaries of a host lane (a scenario step, a failure, a
 * piece of finding evidence), calls of one verb and outcome, and messages of one kind and
 * direction, become one drawn item labelled {@code ×n}, and the message arrows between folded
 * messages become one arrow per pair of folded ends, labelled with their count.
 */
final class HostRunFolder {
    static final int MIN_RUN = 3;

    private HostRunFolder() {
    }

    static Timeline fold(Timeline t) {
        Set<String> evidence = new HashSet<>();
        for (FindingMark f : t.findings()) {
            evidence.addAll(f.evidence());
        }
        Set<String> hostLanes = new HashSet<>();
        for (Lane l : t.lanes()) {
            if (l.kind() == LaneKind.HOST) {
                hostLanes.add(l.id());
            }
        }
        Map<String, List<Object>> items = new LinkedHashMap<>();
        for (CallSpan c : t.calls()) {
            if (hostLanes.contains(c.lane())) {
                items.computeIfAbsent(c.lane(), k -> new ArrayList<>()).add(c);
            }
        }
        for (Point p : t.points()) {
            if (hostLanes.contains(p.lane())) {
                items.computeIfAbsent(p.lane(), k -> new ArrayList<>()).add(p);
            }
        }
        Map<Object, Object> replaced = new HashMap<>();   // folded item -> its run's drawn item (null: dropped)
        Map<String, String> representative = new HashMap<>(); // event id -> drawn event id
        for (List<Object> lane : items.values()) {
            lane.sort(Comparator.comparingLong(HostRunFolder::time));
            Map<String, List<Object>> runs = new LinkedHashMap<>();
            for (Object item : lane) {
                if (boundary(item, evidence)) {
                    foldRuns(runs, replaced, representative);
                    runs.clear();
                } else {
                    runs.computeIfAbsent(token(item), k -> new ArrayList<>()).add(item);
                }
            }
            foldRuns(runs, replaced, representative);
        }
        if (replaced.isEmpty()) {
            return t;
        }
        List<CallSpan> calls = new ArrayList<>();
        for (CallSpan c : t.calls()) {
            Object r = replaced.containsKey(c) ? replaced.get(c) : c;
            if (r != null) {
                calls.add((CallSpan) r);
            }
        }
        List<Point> points = new ArrayList<>();
        Map<String, Point> pointById = new HashMap<>();
        for (Point p : t.points()) {
            Object r = replaced.containsKey(p) ? replaced.get(p) : p;
            if (r != null) {
                points.add((Point) r);
                pointById.put(((Point) r).event(), (Point) r);
            }
        }
        return new Timeline(t.title(), t.t0WallNs(), t.spanNs(), t.hosts(), t.lanes(), calls, t.states(), points,
                bundle(t.links(), representative, pointById), t.findings());
    }

    private static void foldRuns(Map<String, List<Object>> runs, Map<Object, Object> replaced,
                                 Map<String, String> representative) {
        for (List<Object> run : runs.values()) {
            if (run.size() < MIN_RUN) {
                continue;
            }
            Object first = run.get(0);
            Object last = run.get(run.size() - 1);
            String range = String.format("%n×%d like this from +%s to +%s (folded: --format perfetto shows each)",
                    run.size(), EventText.duration(start(first)), EventText.duration(time(last)));
            Object drawn;
            if (first instanceof CallSpan c) {
                drawn = new CallSpan(c.event(), c.lane(), c.startNs(), Math.max(c.endNs(), time(last)), c.verb(), c.ok(),
                        c.label() + " ×" + run.size(), c.detail() + range);
            } else {
                Point p = (Point) first;
                drawn = new Point(p.event(), p.lane(), p.tNs(), p.kind(), p.bad(), p.label() + " ×" + run.size(),
                        p.detail() + range);
            }
            replaced.put(first, drawn);
            for (Object item : run) {
                representative.put(id(item), id(first));
                if (item != first) {
                    replaced.put(item, null);
                }
            }
        }
    }

    /** One arrow per pair of drawn ends, counting the messages it stands for. */
    private static List<OobLink> bundle(List<OobLink> links, Map<String, String> representative,
                                        Map<String, Point> pointById) {
        Map<String, OobLink> out = new LinkedHashMap<>();
        for (OobLink l : links) {
            String from = representative.getOrDefault(l.fromEvent(), l.fromEvent());
            String to = representative.getOrDefault(l.toEvent(), l.toEvent());
            Point sent = pointById.get(from);
            Point received = pointById.get(to);
            if (sent == null || received == null) {
                continue;
            }
            out.merge(from + ">" + to, new OobLink(from, to, l.fromLane(), l.toLane(), sent.tNs(),
                    Math.max(sent.tNs(), received.tNs()), l.kind(), Math.max(0, sent.tNs() - received.tNs()),
                    l.uncertaintyNs(), 1), (a, b) -> new OobLink(a.fromEvent(), a.toEvent(), a.fromLane(), a.toLane(),
                    a.sentNs(), a.receivedNs(), a.kind(), a.clampedNs(), a.uncertaintyNs(), a.count() + 1));
        }
        return new ArrayList<>(out.values());
    }

    private static boolean boundary(Object item, Set<String> evidence) {
        if (evidence.contains(id(item))) {
            return true;
        }
        if (item instanceof CallSpan c) {
            return !c.ok();
        }
        Point p = (Point) item;
        return p.bad() || p.kind() == PointKind.MARK || p.kind() == PointKind.SESSION || p.kind() == PointKind.END;
    }

    private static String token(Object item) {
        if (item instanceof CallSpan c) {
            return "C" + c.verb() + ":" + LaneFolder.normal(c.label());
        }
        Point p = (Point) item;
        return "P" + p.kind() + ":" + LaneFolder.normal(p.label());
    }

    private static String id(Object item) {
        return item instanceof CallSpan c ? c.event() : ((Point) item).event();
    }

    private static long time(Object item) {
        return item instanceof CallSpan c ? c.endNs() : ((Point) item).tNs();
    }

    private static long start(Object item) {
        return item instanceof CallSpan c ? c.startNs() : ((Point) item).tNs();
    }
}
