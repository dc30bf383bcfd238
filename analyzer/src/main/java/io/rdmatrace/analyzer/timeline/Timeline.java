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
     */
    public record Host(int index, String id, String role, String referenceHost, long offsetNs, long uncertaintyNs,
                       long samples, String method, String device) {
    }

    /** What a lane holds: the host's own calls and messages, or one QP's life. */
    public enum LaneKind { HOST, QP }

    /**
     * One horizontal lane.
     *
     * @param qpNum the QP number for a QP lane, else null
     */
    public record Lane(String id, int hostIndex, LaneKind kind, String label, Integer qpNum) {
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

    /** A QP in one state (as set by ibv_modify_qp and seen by ibv_query_qp) from start to end. */
    public record StateBand(String lane, long startNs, long endNs, String state) {
    }

    /** What a point event is. */
    public enum PointKind { COMPLETION, ASYNC, OOB, MARK, SESSION, COUNTERS, END }

    /**
     * Something that happens at one instant.
     *
     * @param bad true for an error completion, a FAIL verdict, an error message…
     */
    public record Point(String event, String lane, long tNs, PointKind kind, boolean bad, String label,
                        String detail) {
    }

    /** One out-of-band message from its sending to its receiving event. */
    public record OobLink(String fromEvent, String toEvent, String fromLane, String toLane, long sentNs,
                          long receivedNs, String kind) {
    }

    /** One analyzer finding and the drawn events that are its evidence. */
    public record FindingMark(String id, String ruleId, String severity, String host, Long qp, String message,
                              List<String> evidence) {
        public FindingMark {
            evidence = List.copyOf(evidence);
        }
    }
}
