package io.rdmatrace.analyzer.timeline;

import java.util.Locale;

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
        JsonOut j = new JsonOut(to);
        j.beginObject();
        j.field("title", t.title()).field("t0WallNs", t.t0WallNs()).field("span", t.spanNs());
        j.name("hosts").beginArray();
        for (Host h : t.hosts()) {
            j.beginObject().field("index", h.index()).field("id", h.id()).field("role", h.role())
                    .field("reference", h.referenceHost()).field("offsetNs", h.offsetNs())
                    .field("uncertaintyNs", h.uncertaintyNs()).field("samples", h.samples())
                    .field("method", h.method()).field("device", h.device()).endObject();
        }
        j.endArray();
        j.name("lanes").beginArray();
        for (Lane l : t.lanes()) {
            j.beginObject().field("id", l.id()).field("host", l.hostIndex()).field("kind", l.kind().name().toLowerCase(Locale.ROOT))
                    .field("label", l.label()).field("qpNum", l.qpNum()).field("peer", l.peer()).field("count", l.count())
                    .field("members", l.members()).endObject();
        }
        j.endArray();
        j.name("calls").beginArray();
        for (CallSpan c : t.calls()) {
            j.beginObject().field("ev", c.event()).field("lane", c.lane()).field("s", c.startNs()).field("e", c.endNs())
                    .field("verb", c.verb()).field("ok", c.ok()).field("label", c.label()).field("detail", c.detail())
                    .endObject();
        }
        j.endArray();
        j.name("states").beginArray();
        for (StateBand s : t.states()) {
            j.beginObject().field("lane", s.lane()).field("s", s.startNs()).field("e", s.endNs())
                    .field("state", s.state()).field("why", s.why()).endObject();
        }
        j.endArray();
        j.name("points").beginArray();
        for (Point p : t.points()) {
            j.beginObject().field("ev", p.event()).field("lane", p.lane()).field("t", p.tNs())
                    .field("kind", p.kind().name().toLowerCase(Locale.ROOT)).field("bad", p.bad()).field("label", p.label())
                    .field("detail", p.detail()).endObject();
        }
        j.endArray();
        j.name("links").beginArray();
        for (OobLink l : t.links()) {
            j.beginObject().field("from", l.fromEvent()).field("to", l.toEvent()).field("fromLane", l.fromLane())
                    .field("toLane", l.toLane()).field("s", l.sentNs()).field("e", l.receivedNs())
                    .field("kind", l.kind()).field("clamped", l.clampedNs()).field("uncertainty", l.uncertaintyNs())
                    .field("count", l.count()).endObject();
        }
        j.endArray();
        j.name("findings").beginArray();
        for (FindingMark f : t.findings()) {
            j.beginObject().field("id", f.id()).field("rule", f.ruleId()).field("severity", f.severity())
                    .field("host", f.host()).field("qp", f.qp()).field("message", f.message()).field("count", f.count())
                    .field("others", f.others()).field("hidden", f.hidden());
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
