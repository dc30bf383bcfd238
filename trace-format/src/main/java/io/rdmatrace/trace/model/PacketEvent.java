package io.rdmatrace.trace.model;

import java.util.Objects;

/**
 * One RoCEv2 packet softverbs sent, received, dropped or counted on the capturing host's device
 * (format 1.3; {@code capture --wire}, {@code record --soft --wire}). The header's time is when
 * softverbs handled the packet (CLOCK_MONOTONIC, the scale of {@link System#nanoTime()}); packet
 * events are written after the capture, so their sequence numbers do not follow time: order
 * them by time.
 *
 * @param device     the device's IPv4 address
 * @param direction  what happened to the packet
 * @param reason     the softverbs counter that counted a DROPPED or NOTED packet
 *                   ({@code out_of_seq_request}, {@code rcvd_link_mtu_drop}, …), else empty
 * @param opcode     the BTH opcode (0 when the datagram was cut before its BTH)
 * @param destQp     the BTH destination QP
 * @param psn        the BTH PSN
 * @param ackReq     the BTH AckReq bit
 * @param syndrome   the AETH syndrome, or -1 for a packet without an AETH
 * @param ipLength   the IPv4 datagram's length (what a link MTU limits)
 * @param payloadLength bytes of payload after the headers
 * @param peer       the other end's IPv4 address: where a sent packet went, where a received one came from
 */
public record PacketEvent(EventHeader header, String device, Direction direction, String reason, int opcode, int destQp,
                          int psn, boolean ackReq, int syndrome, int ipLength, int payloadLength, String peer)
        implements TraceEvent {
    public PacketEvent {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(direction, "direction");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(peer, "peer");
    }

    @Override
    public EventKind kind() {
        return EventKind.PACKET;
    }

    /** Codes are on-disk (and softverbs' sv_pktlog.h): never renumber. */
    public enum Direction {
        SENT(1), RECEIVED(2), DROPPED(3), NOTED(4);

        private final int code;

        Direction(int code) {
            this.code = code;
        }

        public int code() {
            return code;
        }

        /** The direction with this code, or null. */
        public static Direction byCode(int code) {
            for (Direction d : values()) {
                if (d.code == code) {
                    return d;
                }
            }
            return null;
        }
    }
}
