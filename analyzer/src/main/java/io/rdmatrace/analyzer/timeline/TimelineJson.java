package io.rdmatrace.analyzer.timeline;

import java.util.Locale;

import io.rdmatrace.analyzer.report.JsonWriter;
import io.rdmatrace.analyzer.timeline.Timeline.CallSpan;
import io.rdmatrace.analyzer.timeline.Timeline.FindingMark;
import io.rdmatrace.analyzer.timeline.Timeline.Host;
import io.rdmatrace.analyzer.timeline.Timeline.Lane;
import io.rdmatrace.analyzer.timeline.Timeline.OobLink;
import io.rdmatrace.analyzer.timeline.Timeline.Point;
import io.rdmatrace.analyzer.timeline.Timeline.StateBand;

/**
 * The timeline as the JSON document the HTML page's script draws from. Times are nanoseconds
 * since time 0 (plain JSON numbers: exact up to 2^53 ns, about 104 days).
 */
final class TimelineJson {

    private TimelineJson() {
    }

    static void write(Timeline t, Appendable to) {
        JsonWriter j = JsonWriter.script(to);
        j.beginObject();
        j.member("title", t.title()).member("t0WallNs", t.t0WallNs()).member("span", t.spanNs());
        j.name("hosts").beginArray();
        for (Host h : t.hosts()) {
            j.beginObject().member("index", h.index()).member("id", h.id()).member("role", h.role())
                    .member("reference", h.referenceHost()).member("offsetNs", h.offsetNs())
                    .member("uncertaintyNs", h.uncertaintyNs()).member("samples", h.samples())
                    .member("method", h.method()).member("device", h.device());
            if (h.integrity() != null) { // only when not complete: a complete trace's page keeps its bytes
                j.member("integrity", h.integrity());
            }
            j.endObject();
        }
        j.endArray();
        j.name("lanes").beginArray();
        for (Lane l : t.lanes()) {
            j.beginObject().member("id", l.id()).member("host", l.hostIndex()).member("kind", l.kind().name().toLowerCase(Locale.ROOT))
                    .member("label", l.label()).member("qpNum", l.qpNum()).member("peer", l.peer()).member("count", l.count())
                    .member("members", l.members()).endObject();
        }
        j.endArray();
        j.name("calls").beginArray();
        for (CallSpan c : t.calls()) {
            j.beginObject().member("ev", c.event()).member("lane", c.lane()).member("s", c.startNs()).member("e", c.endNs())
                    .member("verb", c.verb()).member("ok", c.ok()).member("label", c.label()).member("detail", c.detail())
                    .endObject();
        }
        j.endArray();
        j.name("states").beginArray();
        for (StateBand s : t.states()) {
            j.beginObject().member("lane", s.lane()).member("s", s.startNs()).member("e", s.endNs())
                    .member("state", s.state()).member("why", s.why()).endObject();
        }
        j.endArray();
        j.name("points").beginArray();
        for (Point p : t.points()) {
            j.beginObject().member("ev", p.event()).member("lane", p.lane()).member("t", p.tNs())
                    .member("kind", p.kind().name().toLowerCase(Locale.ROOT)).member("bad", p.bad()).member("label", p.label())
                    .member("detail", p.detail()).endObject();
        }
        j.endArray();
        j.name("links").beginArray();
        for (OobLink l : t.links()) {
            j.beginObject().member("from", l.fromEvent()).member("to", l.toEvent()).member("fromLane", l.fromLane())
                    .member("toLane", l.toLane()).member("s", l.sentNs()).member("e", l.receivedNs())
                    .member("kind", l.kind()).member("clamped", l.clampedNs()).member("uncertainty", l.uncertaintyNs())
                    .member("count", l.count()).endObject();
        }
        j.endArray();
        j.name("findings").beginArray();
        for (FindingMark f : t.findings()) {
            j.beginObject().member("id", f.id()).member("rule", f.ruleId()).member("severity", f.severity())
                    .member("host", f.host()).member("qp", f.qp()).member("message", f.message()).member("count", f.count())
                    .member("others", f.others()).member("hidden", f.hidden());
            j.name("evidence").beginArray();
            for (String ev : f.evidence()) {
                j.value(ev);
            }
            j.endArray().endObject();
        }
        j.endArray();
        TimeAxis axis = TimeAxis.of(t);
        j.name("axis").beginObject().name("segments").beginArray();
        for (TimeAxis.Span s : axis.segments()) {
            j.beginArray().value(s.startNs()).value(s.endNs()).endArray();
        }
        j.endArray().name("gaps").beginArray();
        for (TimeAxis.Span g : axis.gaps()) {
            j.beginArray().value(g.startNs()).value(g.endNs()).endArray();
        }
        j.endArray().endObject();
        j.endObject();
    }
}
