package io.rdmatrace.analyzer.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rdmatrace.analyzer.Evidence;
import io.rdmatrace.analyzer.Finding;
import io.rdmatrace.analyzer.Severity;
import io.rdmatrace.analyzer.timeline.Timeline.CallSpan;
import io.rdmatrace.analyzer.timeline.Timeline.LaneKind;
import io.rdmatrace.analyzer.timeline.Timeline.OobLink;
import io.rdmatrace.analyzer.timeline.Timeline.Point;
import io.rdmatrace.analyzer.timeline.Timeline.PointKind;
import io.rdmatrace.analyzer.timeline.Timeline.StateBand;
import io.rdmatrace.analyzer.timeline.TimelineInput.ClockOffset;
import io.rdmatrace.analyzer.timeline.TimelineInput.HostTrace;
import io.rdmatrace.analyzer.timeline.TimelineInput.OobPair;
import io.rdmatrace.trace.model.AsyncEvent;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.CompletionEvent;
import io.rdmatrace.trace.model.EndEvent;
import io.rdmatrace.trace.model.EventHeader;
import io.rdmatrace.trace.model.FormatVersion;
import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.model.SessionEvent;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.model.Wc;

class TimelineBuilderTest {
    private static final long T = 1_700_000_000_000_000_000L; // host a's wall clock at its SESSION
    private static final long SKEW = 5_000_000;                // host b's clock runs 5 ms ahead
    private static final long QP = 0x5600_0020_0000L;

    /** Host a: one QP taken INIT → RTR, a refused RTR→RTS, a completion and a fatal async event. */
    private static HostTrace hostA() {
        Events e = new Events(T);
        e.session("alpha");
        e.call(10_000, Verb.IBV_CREATE_QP, QP, 0, 0, 5_000, Attrs.builder().put(Attr.QP_TYPE, 2).build(),
                Attrs.builder().put(Attr.QP_NUM, 0x11).build());
        e.call(20_000, Verb.IBV_MODIFY_QP, QP, 0, 0, 6_000, Attrs.builder().put(Attr.ATTR_MASK, 0x39)
                .put(Attr.QP_STATE, 1).build(), Attrs.EMPTY);
        e.call(25_000, Verb.IBV_QUERY_QP, QP, 0, 0, 3_000, Attrs.EMPTY, Attrs.builder().put(Attr.QP_STATE, 1).build());
        e.oob(100_000, OobEvent.Direction.SENT, OobEvent.Kind.PARAMS);         // seq 4
        e.oob(400_000, OobEvent.Direction.RECEIVED, OobEvent.Kind.PARAMS);     // seq 5
        e.call(450_000, Verb.IBV_MODIFY_QP, QP, 0, 0, 6_000, Attrs.builder().put(Attr.ATTR_MASK, 0x129181)
                .put(Attr.QP_STATE, 2).build(), Attrs.EMPTY);
        e.call(500_000, Verb.IBV_MODIFY_QP, QP, 22, 22, 2_000, Attrs.builder().put(Attr.ATTR_MASK, 0x1)
                .put(Attr.QP_STATE, 3).build(), Attrs.EMPTY);                    // seq 7: refused
        e.add(new CompletionEvent(e.header(600_000), 0x77, new Wc(1, 12, 0, 0x81, 0, 0, 0x11, 0, 0, 0, 0, 0, 0)));
        e.add(new AsyncEvent(e.header(650_000), 1, QP, 0x11));
        e.add(new EndEvent(e.header(700_000), e.size()));
        return new HostTrace("alpha", "listen", e.session, e.events);
    }

    /** Host b: receives a's PARAMS 100 µs after it was sent and answers; its clock is SKEW ahead. */
    private static HostTrace hostB() {
        Events e = new Events(T + SKEW);
        e.session("beta");
        e.oob(200_000, OobEvent.Direction.RECEIVED, OobEvent.Kind.PARAMS);     // seq 1
        e.oob(300_000, OobEvent.Direction.SENT, OobEvent.Kind.PARAMS);         // seq 2
        e.add(new EndEvent(e.header(350_000), e.size()));
        return new HostTrace("beta", "connect", e.session, e.events);
    }

    private static TimelineInput input(Map<String, ClockOffset> offsets, List<Finding> findings) {
        return new TimelineInput("trace/", List.of(hostA(), hostB()), offsets,
                List.of(new OobPair("alpha", 4, "beta", 1, "PARAMS"), new OobPair("beta", 2, "alpha", 5, "PARAMS")),
                findings);
    }

    private static final Map<String, ClockOffset> ALIGNED = Map.of(
            "alpha", new ClockOffset("alpha", "alpha", 0, 0, 0, "reference"),
            "beta", new ClockOffset("beta", "alpha", SKEW, 50_000, 2, "oob-ntp"));

    @Test
    void build_twoHostsOneQp_laneForEachHostAndQp() {
        Timeline t = TimelineBuilder.build(input(ALIGNED, List.of()));
        // host lanes first (the messages between them stay short), then the QPs by connection
        assertThat(t.lanes()).extracting(Timeline.Lane::id).containsExactly("h0", "h1", "h0-qp0");
        assertThat(t.lanes()).extracting(Timeline.Lane::kind).containsExactly(LaneKind.HOST, LaneKind.HOST, LaneKind.QP);
        assertThat(t.lanes().get(2).label()).isEqualTo("alpha · QP 0x000011 RC");
        assertThat(t.lanes().get(2).qpNum()).isEqualTo(0x11);
        assertThat(t.lanes().get(2).peer()).isNull();
        assertThat(t.hosts()).extracting(Timeline.Host::role).containsExactly("listen", "connect");
    }

    @Test
    void build_modifiesAndQueries_stateBandsFollowTheQp() {
        Timeline t = TimelineBuilder.build(input(ALIGNED, List.of()));
        List<StateBand> bands = t.states();
        assertThat(bands).extracting(StateBand::state).containsExactly("RESET", "INIT", "RTR");
        assertThat(bands).allMatch(b -> b.lane().equals("h0-qp0"));
        // the refused RTR→RTS leaves the QP in RTR until the trace ends
        assertThat(bands.get(2).endNs()).isEqualTo(700_000);
        assertThat(bands.get(1).startNs()).isEqualTo(20_000);
    }

    @Test
    void build_failedModify_labelledWithTransitionAndErrno() {
        Timeline t = TimelineBuilder.build(input(ALIGNED, List.of()));
        CallSpan refused = t.calls().stream().filter(c -> c.event().equals("e0-7")).findFirst().orElseThrow();
        assertThat(refused.ok()).isFalse();
        assertThat(refused.label()).isEqualTo("RTR→RTS ✗ EINVAL");
        assertThat(refused.lane()).isEqualTo("h0-qp0");
        assertThat(refused.endNs() - refused.startNs()).isEqualTo(2_000);
        assertThat(refused.detail()).contains("ibv_modify_qp", "errno=EINVAL", "qp_state=IBV_QPS_RTS");
    }

    @Test
    void build_completionAndAsyncEvent_onTheirQpLane() {
        Timeline t = TimelineBuilder.build(input(ALIGNED, List.of()));
        Point wc = point(t, "e0-8");
        assertThat(wc.kind()).isEqualTo(PointKind.COMPLETION);
        assertThat(wc.lane()).isEqualTo("h0-qp0");
        assertThat(wc.bad()).isTrue();
        assertThat(wc.label()).isEqualTo("SEND RETRY_EXC_ERR");
        Point async = point(t, "e0-9");
        assertThat(async.lane()).isEqualTo("h0-qp0");
        assertThat(async.bad()).isTrue();
        assertThat(async.label()).isEqualTo("QP_FATAL");
    }

    @Test
    void build_skewedPeerClock_messagesCorrectedByTheOffset() {
        Timeline aligned = TimelineBuilder.build(input(ALIGNED, List.of()));
        assertThat(aligned.links()).hasSize(2);
        OobLink aToB = aligned.links().get(0);
        assertThat(aToB.fromEvent()).isEqualTo("e0-4");
        assertThat(aToB.toEvent()).isEqualTo("e1-1");
        assertThat(aToB.fromLane()).isEqualTo("h0");
        assertThat(aToB.toLane()).isEqualTo("h1");
        assertThat(aToB.receivedNs() - aToB.sentNs()).isEqualTo(100_000);
        OobLink bToA = aligned.links().get(1);
        assertThat(bToA.receivedNs() - bToA.sentNs()).isEqualTo(100_000);

        // without the offset, b's clock makes the message look 5.1 ms long one way and -4.9 ms the other
        Timeline raw = TimelineBuilder.build(input(Map.of(), List.of()));
        assertThat(raw.links().get(0).receivedNs() - raw.links().get(0).sentNs()).isEqualTo(SKEW + 100_000);
        // ... and the other way it would arrive before it was sent: drawn with zero flight time, saying by how much
        assertThat(raw.links().get(1).receivedNs()).isEqualTo(raw.links().get(1).sentNs());
        assertThat(raw.links().get(1).clampedNs()).isEqualTo(SKEW - 100_000);
    }

    @Test
    void build_inferredFinalState_errBandFromTheErrorOn() {
        TimelineInput in = new TimelineInput("trace/", List.of(hostA(), hostB()), ALIGNED, List.of(), List.of(),
                List.of(new TimelineInput.FinalState("alpha", QP, "ERR", 8, "inferred",
                        "completion IBV_WC_RETRY_EXC_ERR")));
        List<StateBand> bands = TimelineBuilder.build(in).states();
        assertThat(bands).extracting(StateBand::state).containsExactly("RESET", "INIT", "RTR", "ERR");
        StateBand err = bands.get(3);
        assertThat(err.startNs()).isEqualTo(600_000);     // the error completion (seq 8)
        assertThat(err.endNs()).isEqualTo(700_000);
        assertThat(err.why()).isEqualTo("ERR (inferred: completion IBV_WC_RETRY_EXC_ERR, #8)");
        assertThat(bands.get(2).why()).isNull();
        assertThat(bands.get(2).endNs()).isEqualTo(600_000);
    }

    @Test
    void build_receiveBeforeSendAfterCorrection_arrowClampedWithinTheUncertainty() {
        // the estimate puts beta 150 µs further ahead than it is: a→b arrives "50 µs before" it was sent
        Map<String, ClockOffset> off = Map.of(
                "alpha", new ClockOffset("alpha", "alpha", 0, 0, 0, "reference"),
                "beta", new ClockOffset("beta", "alpha", SKEW + 150_000, 80_000, 2, "oob-ntp"));
        Timeline t = TimelineBuilder.build(input(off, List.of()));
        OobLink aToB = t.links().get(0);
        assertThat(aToB.receivedNs()).isEqualTo(aToB.sentNs());
        assertThat(aToB.clampedNs()).isEqualTo(50_000);
        assertThat(aToB.uncertaintyNs()).isEqualTo(80_000);
        // the other way it simply looks slower; nothing is moved
        OobLink bToA = t.links().get(1);
        assertThat(bToA.clampedNs()).isZero();
        assertThat(bToA.receivedNs() - bToA.sentNs()).isEqualTo(250_000);
        assertThat(t.links()).allMatch(l -> l.receivedNs() >= l.sentNs());
    }

    @Test
    void build_capturedPackets_onTheLaneOfTheQpTheyWentTo() {
        TimelineInput in = new TimelineInput("trace/", List.of(hostA(), hostB()), ALIGNED, List.of(), List.of(),
                List.of(), List.of(
                        new TimelineInput.Packet(T + 550_000, "beta", "alpha", 0x11, "RC_SEND_ONLY", 0xbed0c3, false, null,
                                "a.pcap", 7),
                        new TimelineInput.Packet(T + 560_000, "beta", "alpha", 0x11, "RC_ACKNOWLEDGE", 0xbed0c2, true,
                                "NAK PSN sequence error", "a.pcap", 8),
                        new TimelineInput.Packet(T + 570_000, "alpha", "beta", 0x99, "RC_ACKNOWLEDGE", 1, false, null,
                                "a.pcap", 9)));
        List<Point> packets = TimelineBuilder.build(in).points().stream().filter(p -> p.kind() == PointKind.PACKET).toList();
        // the third went to a QP beta has no lane for: not drawn
        assertThat(packets).extracting(Point::event).containsExactly("pkt-a.pcap-7", "pkt-a.pcap-8");
        assertThat(packets).allMatch(p -> p.lane().equals("h0-qp0"));
        assertThat(packets.get(0).tNs()).isEqualTo(550_000);
        assertThat(packets.get(0).bad()).isFalse();
        assertThat(packets.get(1).bad()).isTrue();
        assertThat(packets.get(1).label()).isEqualTo("NAK PSN sequence error 0xbed0c2");
        assertThat(packets.get(1).detail()).contains("beta → alpha QP 0x000011", "frame 8 of a.pcap");
    }

    @Test
    void build_softverbsPackets_areEventsOnTheQpLane_dropsAndNaksBad() {
        TimelineInput in = new TimelineInput("trace/", List.of(hostA(), hostB()), ALIGNED, List.of(), List.of(),
                List.of(), List.of(
                        new TimelineInput.Packet(T + 550_000, "beta", "alpha", 0x11, "RC_SEND_ONLY", 0xbed0c3, false, null,
                                null, 0, "alpha", 61, null),
                        new TimelineInput.Packet(T + 551_000, "beta", "alpha", 0x11, "RC_SEND_ONLY", 0xbed0c3, false, null,
                                null, 0, "alpha", 62, "out_of_seq_request"),
                        new TimelineInput.Packet(T + 560_000, "beta", "alpha", 0x11, "RC_ACKNOWLEDGE", 0xbed0c2, true,
                                "NAK PSN sequence error", null, 0, "alpha", 70, null),
                        new TimelineInput.Packet(T + 570_000, "alpha", "beta", 0x22, "RC_ACKNOWLEDGE", 1, false, null,
                                null, 0, "beta", 3, null)));
        Timeline t = TimelineBuilder.build(in);
        List<Point> packets = t.points().stream().filter(p -> p.kind() == PointKind.PACKET).toList();
        // the point is the PACKET event itself (e<host>-<seq>), so findings' evidence lands on it
        // the last went to a QP beta has no lane for: not drawn
        assertThat(packets).extracting(Point::event).containsExactly("e0-61", "e0-62", "e0-70");
        assertThat(packets).extracting(Point::bad).containsExactly(false, true, true);
        assertThat(packets.get(1).label()).isEqualTo("dropped (out_of_seq_request) 0xbed0c3");
        assertThat(packets.get(1).detail()).contains("beta → alpha QP 0x000011", "dropped: out_of_seq_request",
                "softverbs packet event alpha#62");
        assertThat(packets.get(2).label()).isEqualTo("NAK PSN sequence error 0xbed0c2");
        assertThat(packets).allMatch(p -> p.lane().equals("h0-qp0"));
    }

    @Test
    void build_timeZero_isTheEarliestCallStart() {
        Timeline t = TimelineBuilder.build(input(ALIGNED, List.of()));
        assertThat(t.t0WallNs()).isEqualTo(T);
        assertThat(t.spanNs()).isEqualTo(700_000);
        CallSpan create = t.calls().get(0);
        assertThat(create.startNs()).isEqualTo(5_000);
        assertThat(create.endNs()).isEqualTo(10_000);
    }

    @Test
    void build_findings_evidenceNamedByEventId() {
        Finding f = new Finding("psn_mismatch", Severity.ERROR, "alpha", 0x11L,
                List.of(new Evidence("alpha", 7), new Evidence("beta", 2), new Evidence("gamma", 3)), "PSNs disagree");
        Timeline t = TimelineBuilder.build(input(ALIGNED, List.of(f)));
        assertThat(t.findings()).hasSize(1);
        Timeline.FindingMark m = t.findings().get(0);
        assertThat(m.id()).isEqualTo("F1");
        assertThat(m.evidence()).containsExactly("e0-7", "e1-2"); // gamma is not a loaded host
        assertThat(m.severity()).isEqualTo("ERROR");
    }

    private static Point point(Timeline t, String id) {
        return t.points().stream().filter(p -> p.event().equals(id)).findFirst().orElseThrow();
    }

    /** Builds one host's events with wall times relative to its own clock's origin. */
    private static final class Events {
        final long origin;
        final List<TraceEvent> events = new ArrayList<>();
        SessionEvent session;

        Events(long origin) {
            this.origin = origin;
        }

        EventHeader header(long at) {
            return new EventHeader(events.size(), at, origin + at, 1, 1, "main");
        }

        int size() {
            return events.size();
        }

        void add(TraceEvent e) {
            events.add(e);
        }

        void session(String host) {
            SessionInfo info = new SessionInfo("test", host, "rdmatrace capture", "softverbs", "", Map.of(),
                    Attrs.builder().put(Attr.DEV_NAME, "soft0").put(Attr.FW_VER, "1.0").build(), List.of(), List.of());
            session = new SessionEvent(header(0), FormatVersion.CURRENT, info);
            add(session);
        }

        void call(long at, Verb verb, long handle, int ret, int errno, long duration, Attrs in, Attrs out) {
            add(new CallEvent(header(at), verb, handle, ret, errno, duration, in, out));
        }

        void oob(long at, OobEvent.Direction direction, OobEvent.Kind kind) {
            add(new OobEvent(header(at), direction, "127.0.0.1:18515", kind,
                    Attrs.builder().put(Attr.QP_NUM, 0x11).put(Attr.PSN, 0x1234).build()));
        }
    }
}
