package io.rdmatrace.analyzer.wire;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Optional;

/**
 * Finds the RoCEv2 packet in a captured frame: link header (Ethernet with VLAN tags, Linux
 * cooked v1/v2, BSD loopback, raw IP) → IPv4/IPv6 → UDP destination port 4791 → BTH (12
 * bytes, big-endian) and, for acknowledgements, the AETH after it.
 */
public final class RoceDecoder {
    /** The RoCEv2 UDP destination port (IANA). */
    public static final int ROCEV2_PORT = 4791;
    private static final int BTH_BYTES = 12;

    private RoceDecoder() {
    }

    public static Optional<RocePacket> decode(PcapReader.Frame frame) {
        byte[] d = frame.data();
        int ip;
        int etherType;
        switch (frame.linkType()) {
            case 1 -> { // Ethernet, possibly VLAN-tagged
                ip = 14;
                etherType = u16(d, 12);
                while ((etherType == 0x8100 || etherType == 0x88a8) && d.length >= ip + 4) {
                    etherType = u16(d, ip + 2);
                    ip += 4;
                }
            }
            case 113 -> { // Linux cooked capture v1
                ip = 16;
                etherType = u16(d, 14);
            }
            case 276 -> { // Linux cooked capture v2
                ip = 20;
                etherType = u16(d, 0);
            }
            case 0 -> { // BSD loopback: a 4-byte address family in host order
                ip = 4;
                etherType = d.length > 4 && (d[4] >> 4) == 6 ? 0x86dd : 0x0800;
            }
            case 101, 12, 14 -> { // raw IP
                ip = 0;
                etherType = d.length > 0 && ((d[0] >> 4) & 0xf) == 6 ? 0x86dd : 0x0800;
            }
            default -> {
                return Optional.empty();
            }
        }
        if (d.length < ip + 20) {
            return Optional.empty();
        }
        int udp;
        String src;
        String dst;
        if (etherType == 0x0800 && ((d[ip] >> 4) & 0xf) == 4) {
            int headerLength = (d[ip] & 0xf) * 4;
            if ((d[ip + 9] & 0xff) != 17 || (u16(d, ip + 6) & 0x1fff) != 0) {
                return Optional.empty(); // not UDP, or a later fragment
            }
            src = address(d, ip + 12, 4);
            dst = address(d, ip + 16, 4);
            udp = ip + headerLength;
        } else if (etherType == 0x86dd && d.length >= ip + 40 && (d[ip + 6] & 0xff) == 17) {
            src = address(d, ip + 8, 16);
            dst = address(d, ip + 24, 16);
            udp = ip + 40;
        } else {
            return Optional.empty();
        }
        if (d.length < udp + 8 + BTH_BYTES || u16(d, udp + 2) != ROCEV2_PORT) {
            return Optional.empty();
        }
        int bth = udp + 8;
        int opcode = d[bth] & 0xff;
        int destQp = u24(d, bth + 5);
        boolean ackReq = (d[bth + 8] & 0x80) != 0;
        int psn = u24(d, bth + 9);
        int syndrome = RocePacket.hasAeth(opcode) && d.length >= bth + BTH_BYTES + 4 ? d[bth + BTH_BYTES] & 0xff : -1;
        return Optional.of(new RocePacket(frame.number(), frame.tsNs(), src, dst, opcode, destQp, psn, ackReq, syndrome));
    }

    private static int u16(byte[] d, int at) {
        return at + 2 <= d.length ? ((d[at] & 0xff) << 8) | (d[at + 1] & 0xff) : -1;
    }

    private static int u24(byte[] d, int at) {
        return ((d[at] & 0xff) << 16) | ((d[at + 1] & 0xff) << 8) | (d[at + 2] & 0xff);
    }

    private static String address(byte[] d, int at, int length) {
        try {
            return InetAddress.getByAddress(Arrays.copyOfRange(d, at, at + length)).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalStateException("an address of " + length + " bytes", e);
        }
    }
}
