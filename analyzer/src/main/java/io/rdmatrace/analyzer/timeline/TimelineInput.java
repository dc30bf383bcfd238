package io.rdmatrace.analyzer.timeline;

import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.rdmatrace.analyzer.Finding;
import io.rdmatrace.trace.model.SessionEvent;
import io.rdmatrace.trace.model.TraceEvent;

/**
 * Everything a timeline is built from: each host's events (read through the trace model) and what
 * the analyzer concluded about them (clock offsets, matched out-of-band messages, findings), so the
 * picture and the report never disagree.
 *
 * @param title    what the page is about (the trace folder)
 * @param hosts    the readable hosts, in the analyzer's host order
 * @param offsets  host id → its row of the host_clock_offset view (absent = offset 0)
 * @param oobPairs rows of the oob_messages view
 * @param findings the analysis findings
 * @param finalStates rows of the qp_final_state view whose state was inferred from an error (ERR, SQE)
 * @param packets  rows of the wire_packets view (packet captures given with --pcap), matched to a host
 */
public record TimelineInput(String title, List<HostTrace> hosts, Map<String, ClockOffset> offsets,
                            List<OobPair> oobPairs, List<Finding> findings, List<FinalState> finalStates,
                            List<Packet> packets) {

    public TimelineInput {
        Objects.requireNonNull(title, "title");
        hosts = List.copyOf(hosts);
        offsets = Map.copyOf(offsets);
        oobPairs = List.copyOf(oobPairs);
        findings = List.copyOf(findings);
        finalStates = List.copyOf(finalStates);
        packets = List.copyOf(packets);
    }

    public TimelineInput(String title, List<HostTrace> hosts, Map<String, ClockOffset> offsets, List<OobPair> oobPairs,
                         List<Finding> findings) {
        this(title, hosts, offsets, oobPairs, findings, List.of(), List.of());
    }

    public TimelineInput(String title, List<HostTrace> hosts, Map<String, ClockOffset> offsets, List<OobPair> oobPairs,
                         List<Finding> findings, List<FinalState> finalStates) {
        this(title, hosts, offsets, oobPairs, findings, finalStates, List.of());
    }

    /**
     * One host's trace.
     *
     * @param host   the host id the analyzer uses for it (its SESSION host id, made unique)
     * @param role   listen / connect, or null
     * @param events every event, SESSION first
     * @param integrity the trace's integrity for people ("still recording", "truncated"), null when complete
     */
    public record HostTrace(String host, String role, SessionEvent session, List<TraceEvent> events, String integrity) {
        public HostTrace {
            Objects.requireNonNull(host, "host");
            Objects.requireNonNull(session, "session");
            events = List.copyOf(events);
        }

        /** A complete trace. */
        public HostTrace(String host, String role, SessionEvent session, List<TraceEvent> events) {
            this(host, role, session, events, null);
        }
    }

    /** One row of the analyzer's host_clock_offset view. */
    public record ClockOffset(String host, String referenceHost, long offsetNs, long uncertaintyNs, long samples,
                              String method) {
    }

    /** One row of the analyzer's oob_messages view: a message matched across the two hosts. */
    public record OobPair(String sender, long sentSeq, String receiver, long receivedSeq, String kind) {
    }

    /**
     * One row of the analyzer's qp_final_state view: the QP with this handle on this host is in
     * {@code state} from event {@code seq} on.
     *
     * @param what what put it there (an error completion, an async event…)
     */
    public record FinalState(String host, long handle, String state, long seq, String source, String what) {
    }

    /**
     * One RoCEv2 packet (a wire_packets row) going to QP {@code destQp} of host {@code dstHost}: from a
     * packet capture (file, frame) or softverbs' packet log (the PACKET event captureHost#seq).
     *
     * @param tsNs    capture time on the reference clock (ns since the epoch)
     * @param aeth    the AETH meaning (ACK, NAK PSN sequence error, RNR NAK…), or null
     * @param seq     the PACKET event's seq on captureHost, or -1 for a captured frame
     * @param dropped why the receiving softverbs dropped it (a counter name), or null
     */
    public record Packet(long tsNs, String srcHost, String dstHost, int destQp, String opcodeName, int psn,
                         boolean nak, String aeth, String file, int frame, String captureHost, long seq, String dropped) {

        /** A frame of a packet capture. */
        public Packet(long tsNs, String srcHost, String dstHost, int destQp, String opcodeName, int psn, boolean nak,
                      String aeth, String file, int frame) {
            this(tsNs, srcHost, dstHost, destQp, opcodeName, psn, nak, aeth, file, frame, null, -1, null);
        }
    }
}
