package io.rdmatrace.analyzer.timeline;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.rdmatrace.analyzer.Evidence;
import io.rdmatrace.analyzer.Finding;
import io.rdmatrace.analyzer.timeline.Timeline.CallSpan;
import io.rdmatrace.analyzer.timeline.Timeline.FindingMark;
import io.rdmatrace.analyzer.timeline.Timeline.Lane;
import io.rdmatrace.analyzer.timeline.Timeline.LaneKind;
import io.rdmatrace.analyzer.timeline.Timeline.OobLink;
import io.rdmatrace.analyzer.timeline.Timeline.Point;
import io.rdmatrace.analyzer.timeline.Timeline.PointKind;
import io.rdmatrace.analyzer.timeline.Timeline.StateBand;
import io.rdmatrace.analyzer.timeline.TimelineInput.ClockOffset;
import io.rdmatrace.analyzer.timeline.TimelineInput.FinalState;
import io.rdmatrace.analyzer.timeline.TimelineInput.HostTrace;
import io.rdmatrace.analyzer.timeline.TimelineInput.OobPair;
import io.rdmatrace.analyzer.timeline.TimelineInput.Packet;
import io.rdmatrace.trace.model.AsyncEvent;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.CompletionEvent;
import io.rdmatrace.trace.model.CountersEvent;
import io.rdmatrace.trace.model.EndEvent;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.model.SessionEvent;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.model.Verb;

/**
 * Lays the hosts' events out as a {@link Timeline}: a lane per host for its device-level calls,
 * messages and steps, a lane per QP (from ibv_create_qp to ibv_destroy_qp) for the calls on it,
 * its completions, async events and its state over time; times on the reference clock.
 */
public final class TimelineBuilder {

    private TimelineBuilder() {
    }

    public static Timeline build(TimelineInput input) {
        long t0 = earliest(input);
        List<Timeline.Host> hosts = new ArrayList<>();
        List<Lane> lanes = new ArrayList<>();
        List<CallSpan> calls = new ArrayList<>();
        List<StateBand> states = new ArrayList<>();
        List<Point> points = new ArrayList<>();
        Map<String, Integer> hostIndex = new HashMap<>();
        Map<String, Point> pointsById = new HashMap<>();
        List<Lane> qpLanes = new ArrayList<>();
        Map<String, Integer> destOf = new HashMap<>();
        long span = 0;
        for (int h = 0; h < input.hosts().size(); h++) {
            HostTrace trace = input.hosts().get(h);
            hostIndex.put(trace.host(), h);
            ClockOffset offset = input.offsets().get(trace.host());
            hosts.add(hostOf(h, trace, offset));
            long shift = t0 + (offset == null ? 0 : offset.offsetNs());
            HostLayout layout = new HostLayout(h, trace.host(), shift, finalStatesOf(input, trace.host()));
            lanes.add(layout.hostLane);
            for (TraceEvent event : trace.events()) {
                layout.add(event);
            }
            layout.finish();
            qpLanes.addAll(layout.qpLanes);
            destOf.putAll(layout.destQpnByLane);
            calls.addAll(layout.calls);
            states.addAll(layout.states);
            points.addAll(layout.points);
            for (Point p : layout.points) {
                pointsById.put(p.event(), p);
            }
            span = Math.max(span, layout.last);
        }
        List<OobLink> links = new ArrayList<>();
        for (OobPair pair : input.oobPairs()) {
            Integer from = hostIndex.get(pair.sender());
            Integer to = hostIndex.get(pair.receiver());
            if (from == null || to == null) {
                continue;
            }
            Point sent = pointsById.get(Timeline.eventId(from, pair.sentSeq()));
            Point received = pointsById.get(Timeline.eventId(to, pair.receivedSeq()));
            if (sent != null && received != null) {
                links.add(link(sent, received, pair.kind(), uncertainty(input, pair.sender())
                        + uncertainty(input, pair.receiver())));
            }
        }
        points.addAll(packets(input.packets(), qpLanes, hostIndex, t0));
        lanes.addAll(LaneOrder.byConnection(qpLanes, destOf));
        return new Timeline(input.title(), t0, span, hosts, lanes, calls, states, points, links,
                findings(input.findings(), hostIndex));
    }

    /**
     * The arrow of one message. Corrected by the estimated offsets, a receive can still come out
     * before its send (the estimate is good to its uncertainty, and a SENT is recorded after the
     * write): the arrow is then drawn with zero flight time and says how far it was moved.
     */
    private static OobLink link(Point sent, Point received, String kind, long uncertaintyNs) {
        long clamped = Math.max(0, sent.tNs() - received.tNs());
        return new OobLink(sent.event(), received.event(), sent.lane(), received.lane(), sent.tNs(),
                received.tNs() + clamped, kind, clamped, uncertaintyNs, 1);
    }

    /**
     * Captured packets on the lane of the QP they went to (the packet lane of a QP): a NAK is bad.
     * A packet for a QP number that has no lane on its destination host is left out.
     */
    private static List<Point> packets(List<Packet> packets, List<Lane> qpLanes, Map<String, Integer> hostIndex, long t0) {
        Map<String, String> laneOf = new HashMap<>();
        for (Lane l : qpLanes) {
            if (l.qpNum() != null) {
                laneOf.putIfAbsent(l.hostIndex() + "/" + l.qpNum(), l.id());
            }
        }
        List<Point> out = new ArrayList<>();
        for (Packet p : packets) {
            Integer h = hostIndex.get(p.dstHost());
            String lane = h == null ? null : laneOf.get(h + "/" + p.destQp());
            if (lane == null) {
                continue;
            }
            String what = p.opcodeName() + String.format(" PSN 0x%06x", p.psn()) + (p.aeth() != null ? " " + p.aeth() : "");
            Integer logged = p.captureHost() == null ? null : hostIndex.get(p.captureHost());
            // a softverbs packet is a trace event: its point carries the event's id, so evidence finds it
            String id = logged != null ? "e" + logged + "-" + p.seq() : "pkt-" + p.file() + "-" + p.frame();
            String where = logged != null ? "softverbs packet event " + p.captureHost() + "#" + p.seq()
                    : "frame " + p.frame() + " of " + p.file();
            boolean bad = p.nak() || p.dropped() != null;
            String label = p.dropped() != null ? "dropped (" + p.dropped() + ") " + String.format("0x%06x", p.psn())
                    : p.nak() ? (p.aeth() != null ? p.aeth() : "NAK") + String.format(" 0x%06x", p.psn()) : p.opcodeName();
            out.add(new Point(id, lane, p.tsNs() - t0, PointKind.PACKET, bad, label,
                    "packet " + (p.srcHost() != null ? p.srcHost() : "?") + " → " + p.dstHost()
                            + String.format(" QP 0x%06x: ", p.destQp()) + what
                            + (p.dropped() != null ? ", dropped: " + p.dropped() : "") + System.lineSeparator() + where));
        }
        return out;
    }

    private static long uncertainty(TimelineInput input, String host) {
        ClockOffset offset = input.offsets().get(host);
        return offset == null ? 0 : offset.uncertaintyNs();
    }

    private static Map<Long, FinalState> finalStatesOf(TimelineInput input, String host) {
        Map<Long, FinalState> bySeq = new HashMap<>();
        for (FinalState f : input.finalStates()) {
            if (f.host().equals(host)) {
                bySeq.put(f.seq(), f);
            }
        }
        return bySeq;
    }

    /** The earliest instant anything starts, on the reference clock. */
    private static long earliest(TimelineInput input) {
        long t0 = Long.MAX_VALUE;
        for (HostTrace trace : input.hosts()) {
            ClockOffset offset = input.offsets().get(trace.host());
            long shift = offset == null ? 0 : offset.offsetNs();
            for (TraceEvent e : trace.events()) {
                long start = e.header().wallNanos() - shift;
                if (e instanceof CallEvent c) {
                    start -= Math.max(0, c.durationNanos());
                }
                t0 = Math.min(t0, start);
            }
        }
        return t0 == Long.MAX_VALUE ? 0 : t0;
    }

    private static Timeline.Host hostOf(int index, HostTrace trace, ClockOffset offset) {
        SessionEvent s = trace.session();
        String name = s.device().text(Attr.DEV_NAME);
        String fw = s.device().text(Attr.FW_VER);
        String device = (name == null ? "" : name) + (fw == null || fw.isEmpty() ? "" : " fw " + fw);
        if (offset == null) {
            return new Timeline.Host(index, trace.host(), trace.role(), trace.host(), 0, 0, 0, "none", device.strip(),
                    trace.integrity());
        }
        return new Timeline.Host(index, trace.host(), trace.role(), offset.referenceHost(), offset.offsetNs(),
                offset.uncertaintyNs(), offset.samples(), offset.method(), device.strip(), trace.integrity());
    }

    private static List<FindingMark> findings(List<Finding> findings, Map<String, Integer> hostIndex) {
        List<FindingMark> marks = new ArrayList<>();
        int n = 0;
        for (Finding f : findings) {
            List<String> evidence = new ArrayList<>();
            for (Evidence e : f.evidence()) {
                Integer h = hostIndex.get(e.host());
                if (h != null) {
                    evidence.add(Timeline.eventId(h, e.seq()));
                }
            }
            marks.add(new FindingMark("F" + (++n), f.ruleId(), f.severity().name(), f.host(), f.qp(), f.message(),
                    evidence));
        }
        return marks;
    }

    /** The lanes and drawables of one host, built in one pass over its events. */
    private static final class HostLayout {
        final int host;
        final String hostId;
        final long shift;
        final Lane hostLane;
        final List<Lane> qpLanes = new ArrayList<>();
        final List<CallSpan> calls = new ArrayList<>();
        final List<StateBand> states = new ArrayList<>();
        final List<Point> points = new ArrayList<>();
        final Map<Long, QpLife> liveByHandle = new LinkedHashMap<>();
        final Map<Integer, QpLife> byQpNum = new HashMap<>();
        final Map<String, Integer> destQpnByLane = new HashMap<>();
        final Map<Long, FinalState> finalStates;
        long last;

        HostLayout(int host, String hostId, long shift, Map<Long, FinalState> finalStates) {
            this.host = host;
            this.hostId = hostId;
            this.shift = shift;
            this.finalStates = finalStates;
            this.hostLane = new Lane("h" + host, host, LaneKind.HOST, hostId, null);
        }

        void add(TraceEvent event) {
            long t = event.header().wallNanos() - shift;
            last = Math.max(last, t);
            String id = Timeline.eventId(host, event.seq());
            if (event instanceof CallEvent c) {
                call(c, id, t);
            } else if (event instanceof CompletionEvent c) {
                QpLife qp = byQpNum.get(c.wc().qpNum());
                points.add(new Point(id, qp != null ? qp.lane.id() : hostLane.id(), t, PointKind.COMPLETION,
                        c.wc().status() != 0, EventText.completionLabel(c.wc()),
                        EventText.completionDetail(c.wc(), c.cq(), c.seq())));
            } else if (event instanceof AsyncEvent a) {
                QpLife qp = a.qpNum() >= 0 ? byQpNum.get(a.qpNum()) : null;
                points.add(new Point(id, qp != null ? qp.lane.id() : hostLane.id(), t, PointKind.ASYNC,
                        EventText.asyncIsError(a), EventText.asyncLabel(a),
                        "async event " + a.eventTypeName() + "  #" + a.seq()
                                + (a.qpNum() >= 0 ? String.format("  qp_num 0x%06x", a.qpNum()) : "")));
            } else if (event instanceof OobEvent o) {
                boolean bad = o.oobKind() == OobEvent.Kind.ERROR || o.oobKind() == OobEvent.Kind.INVALID;
                points.add(new Point(id, hostLane.id(), t, PointKind.OOB, bad, EventText.oobLabel(o),
                        EventText.oobDetail(o)));
            } else if (event instanceof MarkEvent m) {
                points.add(new Point(id, hostLane.id(), t, PointKind.MARK, m.verdict() == MarkEvent.Verdict.FAIL,
                        EventText.markLabel(m), m.step() + " " + m.verdict() + "  #" + m.seq()
                        + (m.text().isEmpty() ? "" : System.lineSeparator() + m.text())));
            } else if (event instanceof SessionEvent s) {
                points.add(new Point(id, hostLane.id(), t, PointKind.SESSION, false, "session",
                        "SESSION " + s.hostId() + System.lineSeparator() + s.commandLine()
                                + System.lineSeparator() + "verbs library " + s.verbsLib()));
            } else if (event instanceof CountersEvent c) {
                points.add(new Point(id, hostLane.id(), t, PointKind.COUNTERS, false, "counters " + c.phase(),
                        "counters " + c.phase() + " of " + c.device() + ": " + c.counters().size() + " values"));
            } else if (event instanceof EndEvent e) {
                points.add(new Point(id, hostLane.id(), t, PointKind.END, false, "end",
                        "END after " + e.eventCount() + " events"));
            }
            FinalState inferred = finalStates.get(event.seq());
            if (inferred != null) {
                QpLife qp = liveByHandle.get(inferred.handle());
                if (qp != null) {
                    qp.moveTo(inferred.state(), t, inferred.state() + " (inferred: " + inferred.what() + ", #"
                            + inferred.seq() + ")");
                }
            }
        }

        private void call(CallEvent c, String id, long end) {
            long start = end - Math.max(0, c.durationNanos());
            if (c.verb() == Verb.IBV_POLL_CQ && c.out().has(Attr.DURATION)) {
                start = end - Math.max(0, c.out().get(Attr.DURATION, 0)); // a summarised poll loop: its wall span
            }
            boolean ok = EventText.ok(c);
            QpLife qp = liveByHandle.get(c.handle());
            if (c.verb() == Verb.IBV_CREATE_QP && ok && c.handle() != 0) {
                qp = newQp(c, end);
            }
            String from = qp != null ? qp.state : null;
            calls.add(new CallSpan(id, qp != null && actsOnQp(c.verb()) ? qp.lane.id() : hostLane.id(), start, end,
                    c.verb().function(), ok, EventText.callLabel(c, from), EventText.callDetail(c)));
            if (qp == null || !actsOnQp(c.verb())) {
                return;
            }
            if (c.verb() == Verb.IBV_MODIFY_QP && ok && c.in().has(Attr.DEST_QP_NUM)) {
                destQpnByLane.put(qp.lane.id(), (int) c.in().get(Attr.DEST_QP_NUM, 0));
            }
            if (c.verb() == Verb.IBV_MODIFY_QP && ok && c.in().has(Attr.QP_STATE)) {
                qp.moveTo(EventText.state(c.in().get(Attr.QP_STATE, 0)), end, null);
            } else if (c.verb() == Verb.IBV_QUERY_QP && ok && c.out().has(Attr.QP_STATE)) {
                qp.moveTo(EventText.state(c.out().get(Attr.QP_STATE, 0)), end, null);
            } else if (c.verb() == Verb.IBV_DESTROY_QP && ok) {
                qp.close(end);
                liveByHandle.remove(c.handle());
            }
        }

        private QpLife newQp(CallEvent create, long t) {
            Integer qpNum = create.out().has(Attr.QP_NUM) ? (int) create.out().get(Attr.QP_NUM, 0) : null;
            String type = create.in().has(Attr.QP_TYPE)
                    ? EventText.strip(Attr.QP_TYPE.render(create.in().get(Attr.QP_TYPE, 0)), "IBV_QPT_") : "";
            String label = hostId + " · " + (qpNum != null ? String.format("QP 0x%06x", qpNum) : "QP") + " " + type;
            Lane lane = new Lane("h" + host + "-qp" + qpLanes.size(), host, LaneKind.QP, label.strip(), qpNum);
            qpLanes.add(lane);
            QpLife qp = new QpLife(lane, t);
            liveByHandle.put(create.handle(), qp);
            if (qpNum != null) {
                byQpNum.put(qpNum, qp);
            }
            return qp;
        }

        void finish() {
            for (QpLife qp : liveByHandle.values()) {
                qp.close(last);
            }
            liveByHandle.clear();
        }

        private static boolean actsOnQp(Verb verb) {
            return verb == Verb.IBV_CREATE_QP || verb == Verb.IBV_MODIFY_QP || verb == Verb.IBV_QUERY_QP
                    || verb == Verb.IBV_DESTROY_QP || verb == Verb.IBV_POST_SEND || verb == Verb.IBV_POST_RECV;
        }

        /** One QP from creation: its lane and the state band being drawn. */
        private final class QpLife {
            final Lane lane;
            String state = "RESET";
            String why;
            long since;

            QpLife(Lane lane, long created) {
                this.lane = lane;
                this.since = created;
            }

            /** Enters {@code next} at {@code t}; {@code reason} says why when the state was inferred. */
            void moveTo(String next, long t, String reason) {
                if (!next.equals(state)) {
                    states.add(new StateBand(lane.id(), since, t, state, why));
                    state = next;
                    since = t;
                    why = reason;
                }
            }

            void close(long t) {
                states.add(new StateBand(lane.id(), since, Math.max(since, t), state, why));
            }
        }
    }
}
