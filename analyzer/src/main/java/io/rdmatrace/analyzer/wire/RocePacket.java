package io.rdmatrace.analyzer.wire;

/**
 * One RoCEv2 packet of a capture: where it went and its BTH (and AETH) fields.
 *
 * @param frame   frame number in the capture (1-based, as Wireshark counts)
 * @param tsNs    capture time, ns since the epoch
 * @param srcIp   source address (dotted IPv4, or IPv6 text)
 * @param dstIp   destination address
 * @param opcode  BTH opcode (0x04 RC SEND_ONLY, 0x11 RC ACKNOWLEDGE …)
 * @param destQp  BTH destination QP (24 bits)
 * @param psn     BTH PSN (24 bits)
 * @param ackReq  BTH A bit: the requester asks for an ACK
 * @param syndrome AETH syndrome (8 bits), or -1 when the opcode carries no AETH
 */
public record RocePacket(int frame, long tsNs, String srcIp, String dstIp, int opcode, int destQp, int psn,
        boolean ackReq, int syndrome) {

    /** "ACK", "RNR NAK", "NAK PSN sequence error", "NAK invalid request" … or null without an AETH. */
    public String aeth() {
        return syndrome < 0 ? null : aethText(syndrome);
    }

    /** IBA 9.7.5.2.2: bits 7..5 say ACK (000), RNR NAK (001) or NAK (011); the low 5 bits the NAK code. */
    public static String aethText(int syndrome) {
        int kind = (syndrome >> 5) & 0x3;
        int code = syndrome & 0x1f;
        return switch (kind) {
            case 0 -> "ACK";
            case 1 -> "RNR NAK";
            case 3 -> switch (code) {
                case 0 -> "NAK PSN sequence error";
                case 1 -> "NAK invalid request";
                case 2 -> "NAK remote access error";
                case 3 -> "NAK remote operational error";
                case 4 -> "NAK invalid RD request";
                default -> "NAK code " + code;
            };
            default -> "reserved AETH syndrome 0x" + Integer.toHexString(syndrome);
        };
    }

    /** The RC/UC/UD opcode's name, e.g. RC_SEND_ONLY, RC_ACKNOWLEDGE; else the number. */
    public static String opcodeName(int opcode) {
        String transport = switch (opcode >> 5) {
            case 0 -> "RC_";
            case 1 -> "UC_";
            case 3 -> "UD_";
            default -> null;
        };
        String op = switch (opcode & 0x1f) {
            case 0x00 -> "SEND_FIRST";
            case 0x01 -> "SEND_MIDDLE";
            case 0x02 -> "SEND_LAST";
            case 0x03 -> "SEND_LAST_WITH_IMMEDIATE";
            case 0x04 -> "SEND_ONLY";
            case 0x05 -> "SEND_ONLY_WITH_IMMEDIATE";
            case 0x06 -> "RDMA_WRITE_FIRST";
            case 0x07 -> "RDMA_WRITE_MIDDLE";
            case 0x08 -> "RDMA_WRITE_LAST";
            case 0x09 -> "RDMA_WRITE_LAST_WITH_IMMEDIATE";
            case 0x0a -> "RDMA_WRITE_ONLY";
            case 0x0b -> "RDMA_WRITE_ONLY_WITH_IMMEDIATE";
            case 0x0c -> "RDMA_READ_REQUEST";
            case 0x0d -> "RDMA_READ_RESPONSE_FIRST";
            case 0x0e -> "RDMA_READ_RESPONSE_MIDDLE";
            case 0x0f -> "RDMA_READ_RESPONSE_LAST";
            case 0x10 -> "RDMA_READ_RESPONSE_ONLY";
            case 0x11 -> "ACKNOWLEDGE";
            case 0x12 -> "ATOMIC_ACKNOWLEDGE";
            case 0x13 -> "COMPARE_SWAP";
            case 0x14 -> "FETCH_ADD";
            default -> null;
        };
        return transport == null || op == null ? "opcode 0x" + Integer.toHexString(opcode) : transport + op;
    }

    /** Opcodes followed by an AETH (IBA table 38): RC ACK, atomic ACK, READ response first/last/only. */
    static boolean hasAeth(int opcode) {
        if ((opcode >> 5) != 0) {
            return false;
        }
        int op = opcode & 0x1f;
        return op == 0x11 || op == 0x12 || op == 0x0d || op == 0x0f || op == 0x10;
    }
}
