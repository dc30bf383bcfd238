package io.rdmatrace.analyzer.timeline;

import java.util.List;
import java.util.Objects;

/**
 * What a timeline shows, independent of how it is drawn (HTML page, Perfetto JSON): lanes (one
 * per host, one per QP), call spans, QP state bands, point events, out-of-band links between the
 * hosts and the findings with their evidence. Every time is in nanoseconds since {@link #t0WallNs}
 * on the reference host's clock (each host's wall clock corrected by its estimated offset).
 *
 * <p>Every trace event that is drawn has an id {@code e<hostIndex>-<seq>} ({@link #eventId}), which
 * is how findings point at their evidence and how the page names its elements.
 *
 * @param title    page title (the trace folder)
 * @param t0WallNs wall-clock instant (reference clock, ns since the epoch) of time 0
 * @param spanNs   time of the last thing drawn
 */
public record Timeline(String title, long t0WallNs, long spanNs, List<Host> hosts, List<Lane> lanes,
                       List<CallSpan> calls, List<StateBand> states, List<Point> points, List<OobLink> links,
                       List<FindingMark> findings) {

    public Timeline {
        Objects.requireNonNull(title, "title");
        hosts = List.copyOf(hosts);
        lanes = List.copyOf(lanes);
        calls = List.copyOf(calls);
        states = List.copyOf(states);
        points = List.copyOf(points);
        links = List.copyOf(links);
        findings = List.copyOf(findings);
    }

    /** The id of event {@code seq} of host number {@code hostIndex}. */
    public static String eventId(int hostIndex, long seq) {
        return "e" + hostIndex + "-" + seq;
    }

    /**
     * One host and how its clock was aligned.
     *
     * @param offsetNs      how far its wall clock is ahead of the reference host's (subtracted)
     * @param uncertaintyNs the bound on that estimate's error
     * @param method        {@code oob-ntp}, {@code reference} or {@code none}, as host_clock_offset says
     * @param device        device name and firmware, for the lane label
     * @param integrity     the trace's integrity when not complete ("still recording", "truncated"), else null
     */
    public record Host(int index, String id, String role, String referenceHost, long offsetNs, long uncertaintyNs,
                       long samples, String method, String device, String integrity) {
        /** A host whose trace is complete. */
        public Host(int index, String id, String role, String referenceHost, long offsetNs, long uncertaintyNs,
                    long samples, String method, String device) {
            this(index, id, role, referenceHost, offsetNs, uncertaintyNs, samples, method, device, null);
        }
    }

    /** What a lane holds: the host's own calls and messages, or one QP's life. */
    public enum LaneKind { HOST, QP }

    /**
     * One horizontal lane.
     *
     * @param qpNum   the QP number for a QP lane, else null
     * @param peer    the lane of the QP at the other end of this QP's connection, else null
     * @param count   how many QPs the lane stands for (more than 1 when lanes with the same history were folded)
     * @param members the QPs a folded lane stands for ({@code 0x000011, 0x000012 …}), else null
     */
    public record Lane(String id, int hostIndex, LaneKind kind, String label, Integer qpNum, String peer, int count,
                       String members) {
        public Lane(String id, int hostIndex, LaneKind kind, String label, Integer qpNum) {
            this(id, hostIndex, kind, label, qpNum, null, 1, null);
        }

        public Lane withPeer(String peerLane) {
            return new Lane(id, hostIndex, kind, label, qpNum, peerLane, count, members);
        }

        public Lane folded(int n, String memberList) {
            return new Lane(id, hostIndex, kind, label, qpNum, peer, n, memberList);
        }
    }

    /**
     * One verbs call, from its start to its return.
     *
     * @param label  a short text for the bar (e.g. {@code INIT→RTR}), may be empty
     * @param detail every recorded argument and result, for the tooltip
     */
    public record CallSpan(String event, String lane, long startNs, long endNs, String verb, boolean ok, String label,
                           String detail) {
    }

    /**
     * A QP in one state from start to end: as set by ibv_modify_qp and seen by ibv_query_qp, or
     * (ERR, SQE) as the analyzer inferred it from an error after the last modify.
     *
     * @param why for an inferred state, what put the QP there (qp_final_state's {@code what}), else null
     */
    public record StateBand(String lane, long startNs, long endNs, String state, String why) {
        public StateBand(String lane, long startNs, long endNs, String state) {
            this(lane, startNs, endNs, state, null);
        }
    }

    /** What a point event is. */
    public enum PointKind { COMPLETION, ASYNC, OOB, MARK, SESSION, COUNTERS, END, PACKET }

    /**
     * Something that happens at one instant.
     *
     * @param bad true for an error completion, a FAIL verdict, an error message…
     */
    public record Point(String event, String lane, long tNs, PointKind kind, boolean bad, String label,
                        String detail) {
    }

    /**
     * One out-of-band message from its sending to its receiving event. A message never arrives
     * before it was sent: when the clock-corrected receive time is earlier (the offset estimate is
     * only good to its uncertainty), {@code receivedNs} is the send time and {@code clampedNs} says
     * by how much it was moved.
     *
     * @param clampedNs     how far the receive end was moved forward to the send time (0: not moved)
     * @param uncertaintyNs the clock offset's uncertainty between the two hosts
     * @param count         messages this arrow stands for (runs of the same kind are bundled when lanes are folded)
     */
    public record OobLink(String fromEvent, String toEvent, String fromLane, String toLane, long sentNs,
                          long receivedNs, String kind, long clampedNs, long uncertaintyNs, int count) {
        public OobLink(String fromEvent, String toEvent, String fromLane, String toLane, long sentNs, long receivedNs,
                       String kind) {
            this(fromEvent, toEvent, fromLane, toLane, sentNs, receivedNs, kind, 0, 0, 1);
        }
    }

    /**
     * One analyzer finding and the drawn events that are its evidence.
     *
     * @param count  how many findings this one stands for (findings of one rule on folded lanes are folded too)
     * @param others the QPs (or hosts) of the findings folded into this one, else null
     * @param hidden evidence events not drawn (they are on folded lanes)
     */
    public record FindingMark(String id, String ruleId, String severity, String host, Long qp, String message,
                              List<String> evidence, int count, String others, int hidden) {
        public FindingMark {
            evidence = List.copyOf(evidence);
        }

        public FindingMark(String id, String ruleId, String severity, String host, Long qp, String message,
                           List<String> evidence) {
            this(id, ruleId, severity, host, qp, message, evidence, 1, null, 0);
        }
    }
}
