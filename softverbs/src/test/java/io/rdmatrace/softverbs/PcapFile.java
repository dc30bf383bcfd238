package io.rdmatrace.softverbs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads the IPv4/UDP datagrams of a classic pcap file (tshark -F pcap) captured on Linux
 * loopback, whose link type is Ethernet with zero MAC addresses.
 */
final class PcapFile {
    private static final int LINKTYPE_ETHERNET = 1;
    private static final int ETHERTYPE_IPV4 = 0x0800;
    private static final int IPPROTO_UDP = 17;

    /** One UDP datagram: its IPv4 header (without options) and UDP header, and the UDP payload. */
    record Datagram(int frame, byte[] ipv4Header, byte[] udpHeader, byte[] payload) {
        String srcIp() {
            return ip(12);
        }

        String dstIp() {
            return ip(16);
        }

        int srcPort() {
            return ((udpHeader[0] & 0xFF) << 8) | (udpHeader[1] & 0xFF);
        }

        int dstPort() {
            return ((udpHeader[2] & 0xFF) << 8) | (udpHeader[3] & 0xFF);
        }

        int ipId() {
            return ((ipv4Header[4] & 0xFF) << 8) | (ipv4Header[5] & 0xFF);
        }

        boolean dontFragment() {
            return (ipv4Header[6] & 0x40) != 0;
        }

        private String ip(int at) {
            return (ipv4Header[at] & 0xFF) + "." + (ipv4Header[at + 1] & 0xFF) + "." + (ipv4Header[at + 2] & 0xFF)
                    + "." + (ipv4Header[at + 3] & 0xFF);
        }
    }

    private PcapFile() {
    }

    static List<Datagram> readUdp(Path file) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file));
        if (b.remaining() < 24) {
            throw new IOException(file + ": too short for a pcap header");
        }
        int magic = b.order(ByteOrder.LITTLE_ENDIAN).getInt(0);
        if (magic == 0xA1B2C3D4 || magic == 0xA1B23C4D) {
            b.order(ByteOrder.LITTLE_ENDIAN);
        } else if (Integer.reverseBytes(magic) == 0xA1B2C3D4 || Integer.reverseBytes(magic) == 0xA1B23C4D) {
            b.order(ByteOrder.BIG_ENDIAN);
        } else {
            throw new IOException(file + ": not a classic pcap file (magic " + Integer.toHexString(magic) + ")");
        }
        int linkType = b.getInt(20);
        if (linkType != LINKTYPE_ETHERNET) {
            throw new IOException(file + ": link type " + linkType + ", expected Ethernet");
        }
        List<Datagram> out = new ArrayList<>();
        int at = 24;
        int frame = 0;
        while (at + 16 <= b.limit()) {
            int captured = b.getInt(at + 8);
            int original = b.getInt(at + 12);
            at += 16;
            frame++;
            if (captured < 0 || at + captured > b.limit()) {
                throw new IOException(file + ": frame " + frame + " runs past the end");
            }
            if (captured != original) {
                throw new IOException(file + ": frame " + frame + " was truncated by the capture");
            }
            byte[] f = Arrays.copyOfRange(b.array(), at, at + captured);
            at += captured;
            Datagram d = udpOf(frame, f);
            if (d != null) {
                out.add(d);
            }
        }
        return out;
    }

    private static Datagram udpOf(int frame, byte[] f) {
        if (f.length < 14 + 20 + 8 || (((f[12] & 0xFF) << 8) | (f[13] & 0xFF)) != ETHERTYPE_IPV4) {
            return null;
        }
        int ihl = (f[14] & 0x0F) * 4;
        if (ihl != 20 || (f[14 + 9] & 0xFF) != IPPROTO_UDP) {
            return null;
        }
        int udpAt = 14 + ihl;
        int udpLen = ((f[udpAt + 4] & 0xFF) << 8) | (f[udpAt + 5] & 0xFF);
        if (udpLen < 8 || udpAt + udpLen > f.length) {
            return null;
        }
        return new Datagram(frame, Arrays.copyOfRange(f, 14, udpAt), Arrays.copyOfRange(f, udpAt, udpAt + 8),
                Arrays.copyOfRange(f, udpAt + 8, udpAt + udpLen));
    }
}
