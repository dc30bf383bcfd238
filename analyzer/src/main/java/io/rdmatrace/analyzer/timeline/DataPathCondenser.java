package io.rdmatrace.analyzer.timeline;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.rdmatrace.analyzer.timeline.Timeline.CallSpan;
import io.rdmatrace.analyzer.timeline.Timeline.FindingMark;
import io.rdmatrace.analyzer.timeline.Timeline.Point;
import io.rdmatrace.analyzer.timeline.Timeline.PointKind;

/**
 * Keeps a long data path drawable in a browser: when a timeline has more routine data-path events
 * (posts, polls, successful completions) than {@code limit}, each lane keeps the first and last of
 * them and shows the middle as one "condensed" span with the counts (captured packets other than
 * NAKs count as routine too). Control-path calls, failed calls, error completions, NAKs and every
 * finding's evidence are always drawn. (The Perfetto output is
 * never condensed: its viewer is made for millions of events.)
 */
public final class DataPathCondenser {
    /** The verb a condensed span carries. */
    public static final String CONDENSED = "condensed";

    private DataPathCondenser() {
    }

    public static Timeline condense(Timeline t, int limit) {
        Set<String> evidence = new HashSet<>();
        for (FindingMark f : t.findings()) {
            evidence.addAll(f.evidence());
        }
        Map<String, List<Item>> routineByLane = new LinkedHashMap<>();
        int routine = 0;
        for (CallSpan c : t.calls()) {
            if (c.ok() && isDataPath(c.verb()) && !evidence.contains(c.event())) {
                routineByLane.computeIfAbsent(c.lane(), k -> new ArrayList<>()).add(new Item(c.startNs(), c.endNs(), c, null));
                routine++;
            }
        }
        for (Point p : t.points()) {
            if ((p.kind() == PointKind.COMPLETION || p.kind() == PointKind.PACKET) && !p.bad()
                    && !evidence.contains(p.event())) {
                routineByLane.computeIfAbsent(p.lane(), k -> new ArrayList<>()).add(new Item(p.tNs(), p.tNs(), null, p));
                routine++;
            }
        }
        if (routine <= limit) {
            return t;
        }
        int keepPerEnd = Math.max(1, limit / (2 * Math.max(1, routineByLane.size())));
        Set<Object> dropped = new HashSet<>();
        List<CallSpan> summaries = new ArrayList<>();
        for (Map.Entry<String, List<Item>> lane : routineByLane.entrySet()) {
            List<Item> items = lane.getValue();
            if (items.size() <= 2 * keepPerEnd) {
                continue;
            }
            items.sort(Comparator.comparingLong(Item::start));
            List<Item> middle = items.subList(keepPerEnd, items.size() - keepPerEnd);
            int posts = 0;
            int polls = 0;
            int completions = 0;
            int packets = 0;
            for (Item i : middle) {
                dropped.add(i.call != null ? i.call : i.point);
                if (i.point != null && i.point.kind() == PointKind.PACKET) {
                    packets++;
                } else if (i.point != null) {
                    completions++;
                } else if (i.call.verb().equals("ibv_poll_cq")) {
                    polls++;
                } else {
                    posts++;
                }
            }
            long start = middle.get(0).start;
            long end = middle.stream().mapToLong(Item::end).max().orElse(start);
            summaries.add(new CallSpan("condensed-" + lane.getKey(), lane.getKey(), start, end, CONDENSED, true,
                    middle.size() + " data-path events",
                    String.format("%d routine data-path events condensed: %d posts, %d polls, %d successful completions, "
                                    + "%d packets other than NAKs over %s%n(failed calls, error completions, NAKs and "
                                    + "finding evidence are still drawn; --format perfetto shows every event)",
                            middle.size(), posts, polls, completions, packets, EventText.duration(end - start))));
        }
        List<CallSpan> calls = new ArrayList<>();
        for (CallSpan c : t.calls()) {
            if (!dropped.contains(c)) {
                calls.add(c);
            }
        }
        calls.addAll(summaries);
        List<Point> points = new ArrayList<>();
        for (Point p : t.points()) {
            if (!dropped.contains(p)) {
                points.add(p);
            }
        }
        return new Timeline(t.title(), t.t0WallNs(), t.spanNs(), t.hosts(), t.lanes(), calls, t.states(), points,
                t.links(), t.findings());
    }

    private static boolean isDataPath(String verb) {
        return verb.equals("ibv_post_send") || verb.equals("ibv_post_recv") || verb.equals("ibv_poll_cq");
    }

    /** One routine data-path drawable (a call or a completion) and when it happens. */
    private record Item(long start, long end, CallSpan call, Point point) {
    }
}
