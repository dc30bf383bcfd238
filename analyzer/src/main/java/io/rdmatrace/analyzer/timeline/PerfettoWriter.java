package io.rdmatrace.analyzer.timeline;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.rdmatrace.analyzer.report.JsonWriter;
import io.rdmatrace.analyzer.timeline.Timeline.CallSpan;
import io.rdmatrace.analyzer.timeline.Timeline.FindingMark;
import io.rdmatrace.analyzer.timeline.Timeline.Host;
import io.rdmatrace.analyzer.timeline.Timeline.Lane;
import io.rdmatrace.analyzer.timeline.Timeline.OobLink;
import io.rdmatrace.analyzer.timeline.Timeline.Point;
import io.rdmatrace.analyzer.timeline.Timeline.PointKind;
import io.rdmatrace.analyzer.timeline.Timeline.StateBand;

/**
 * Writes a timeline in the Chrome trace-event JSON format (the "JSON Object Format" that
 * ui.perfetto.dev and chrome://tracing open): one process per host, one thread (track) per lane,
 * a "state" track per QP, an "out-of-band" track per host whose message slices are joined across
 * the hosts by flow arrows, and a global "findings" track. Times are microseconds since time 0.
 *
 * <p>Track ids: host h is pid h+1; within it, lane i (in timeline order) is tid 10*i+1 and its QP
 * state track tid 10*i+2; the out-of-band track is tid 1 and findings live on pid 0.
 */
public final class PerfettoWriter {
    /** Drawn width of an out-of-band message slice: flows must start and end inside a slice. */
    private static final double MESSAGE_US = 1.0;

    private PerfettoWriter() {
    }

    public static String render(Timeline t) {
        StringBuilder text = new StringBuilder(16384);
        JsonWriter j = JsonWriter.script(text);
        Map<String, int[]> track = tracks(t);
        Map<String, List<String>> findingsOf = findingsByEvent(t);
        j.beginObject().member("displayTimeUnit", "ns");
        j.name("otherData").beginObject().member("tool", "rdmatrace timeline").member("trace", t.title())
                .member("t0_wall_ns", t.t0WallNs()).endObject();
        j.name("traceEvents").beginArray();
        metadata(j, t);
        for (CallSpan c : t.calls()) {
            int[] pt = track.get(c.lane());
            j.beginObject().member("ph", "X").member("name", c.verb()).member("cat", c.ok() ? "call" : "call,failed")
                    .member("pid", pt[0]).member("tid", pt[1]).member("ts", us(c.startNs()))
                    .member("dur", us(c.endNs() - c.startNs()));
            args(j, c.event(), c.label(), c.detail(), findingsOf);
            j.endObject();
        }
        for (StateBand s : t.states()) {
            int[] pt = track.get(s.lane());
            j.beginObject().member("ph", "X").member("name", s.state()).member("cat", "qp_state").member("pid", pt[0])
                    .member("tid", pt[1] + 1).member("ts", us(s.startNs())).member("dur", us(s.endNs() - s.startNs()));
            if (s.why() != null) {
                j.name("args").beginObject().member("why", s.why()).endObject();
            }
            j.endObject();
        }
        Map<String, Point> pointById = new HashMap<>();
        for (Point p : t.points()) {
            pointById.put(p.event(), p);
            int[] pt = track.get(p.lane());
            if (p.kind() == PointKind.OOB) {
                j.beginObject().member("ph", "X").member("name", p.label()).member("cat", p.bad() ? "oob,failed" : "oob")
                        .member("pid", pt[0]).member("tid", 1).member("ts", us(p.tNs())).member("dur", MESSAGE_US);
            } else {
                j.beginObject().member("ph", "i").member("s", "t").member("name", p.label())
                        .member("cat", p.kind().name().toLowerCase(Locale.ROOT) + (p.bad() ? ",failed" : ""))
                        .member("pid", pt[0]).member("tid", pt[1]).member("ts", us(p.tNs()));
            }
            args(j, p.event(), p.label(), p.detail(), findingsOf);
            j.endObject();
        }
        int flow = 0;
        for (OobLink l : t.links()) {
            flow++;
            int[] from = track.get(l.fromLane());
            int[] to = track.get(l.toLane());
            j.beginObject().member("ph", "s").member("id", flow).member("name", "OOB " + l.kind()).member("cat", "oob")
                    .member("pid", from[0]).member("tid", 1).member("ts", us(l.sentNs()) + MESSAGE_US / 2);
            if (l.clampedNs() > 0) {
                j.name("args").beginObject().member("clamped_ns", l.clampedNs())
                        .member("clock_uncertainty_ns", l.uncertaintyNs()).endObject();
            }
            j.endObject();
            j.beginObject().member("ph", "f").member("bp", "e").member("id", flow).member("name", "OOB " + l.kind())
                    .member("cat", "oob").member("pid", to[0]).member("tid", 1).member("ts", us(l.receivedNs()) + MESSAGE_US / 2)
                    .endObject();
        }
        for (FindingMark f : t.findings()) {
            long at = f.evidence().stream().map(ev -> timeOf(ev, t, pointById)).filter(x -> x != null)
                    .min(Long::compare).orElse(0L);
            j.beginObject().member("ph", "i").member("s", "g").member("name", "[" + f.severity() + "] " + f.ruleId())
                    .member("cat", "finding").member("pid", 0).member("tid", 0).member("ts", us(at));
            j.name("args").beginObject().member("message", f.message()).member("host", f.host()).member("qp", f.qp())
                    .member("evidence", String.join(" ", f.evidence())).endObject();
            j.endObject();
        }
        j.endArray().endObject();
        return text.toString();
    }

    private static void metadata(JsonWriter j, Timeline t) {
        meta(j, "process_name", 0, null, "findings");
        for (Host h : t.hosts()) {
            int pid = h.index() + 1;
            meta(j, "process_name", pid, null, h.id() + (h.role() != null ? " (" + h.role() + ")" : "")
                    + (h.integrity() != null ? " [trace " + h.integrity() + "]" : ""));
            meta(j, "process_sort_index", pid, null, pid);
            meta(j, "thread_name", pid, 1, "out-of-band");
        }
        int i = 0;
        for (Lane l : t.lanes()) {
            int pid = l.hostIndex() + 1;
            int tid = 10 * i + 1;
            meta(j, "thread_name", pid, tid, l.kind() == Timeline.LaneKind.HOST ? "verbs calls" : l.label());
            meta(j, "thread_sort_index", pid, tid, tid);
            if (l.kind() == Timeline.LaneKind.QP) {
                meta(j, "thread_name", pid, tid + 1, l.label() + " state");
                meta(j, "thread_sort_index", pid, tid + 1, tid + 1);
            }
            i++;
        }
    }

    private static void meta(JsonWriter j, String name, int pid, Integer tid, Object value) {
        j.beginObject().member("ph", "M").member("name", name).member("pid", pid);
        if (tid != null) {
            j.member("tid", tid);
        }
        j.name("args").beginObject();
        if (value instanceof Integer n) {
            j.member("sort_index", n);
        } else {
            j.member("name", (String) value);
        }
        j.endObject().endObject();
    }

    private static void args(JsonWriter j, String event, String label, String detail, Map<String, List<String>> findingsOf) {
        j.name("args").beginObject().member("event", event).member("label", label).member("detail", detail);
        List<String> findings = findingsOf.get(event);
        if (findings != null) {
            j.member("findings", String.join("; ", findings));
        }
        j.endObject();
    }

    /** Lane id → {pid, tid}. */
    private static Map<String, int[]> tracks(Timeline t) {
        Map<String, int[]> m = new HashMap<>();
        int i = 0;
        for (Lane l : t.lanes()) {
            m.put(l.id(), new int[] {l.hostIndex() + 1, 10 * i + 1});
            i++;
        }
        return m;
    }

    private static Map<String, List<String>> findingsByEvent(Timeline t) {
        Map<String, List<String>> m = new HashMap<>();
        for (FindingMark f : t.findings()) {
            for (String ev : f.evidence()) {
                m.computeIfAbsent(ev, k -> new ArrayList<>()).add(f.id() + " [" + f.severity() + "] " + f.ruleId()
                        + ": " + f.message());
            }
        }
        return m;
    }

    private static Long timeOf(String event, Timeline t, Map<String, Point> points) {
        Point p = points.get(event);
        if (p != null) {
            return p.tNs();
        }
        for (CallSpan c : t.calls()) {
            if (c.event().equals(event)) {
                return c.startNs();
            }
        }
        return null;
    }

    private static double us(long nanos) {
        return nanos / 1000.0;
    }
}
