package io.rdmatrace.softverbs;

import java.util.zip.CRC32;

/**
 * The RoCEv2 ICRC computed from a captured datagram, written from rdma-facts §5.6 and
 * independent of softverbs' C code: CRC-32 over 8 bytes of 0xFF, the IPv4 header with TOS, TTL
 * and checksum set to 0xFF, the UDP header with its checksum set to 0xFF, the BTH with byte 4
 * set to 0xFF, and the rest up to the ICRC; stored little-endian. tshark 4.0 does not verify
 * the ICRC, so this is the check.
 */
final class RoceIcrc {
    private RoceIcrc() {
    }

    /** The ICRC the datagram should carry. */
    static long expected(PcapFile.Datagram d) {
        byte[] ip = d.ipv4Header().clone();
        byte[] udp = d.udpHeader().clone();
        byte[] roce = d.payload().clone();
        ip[1] = (byte) 0xFF;
        ip[8] = (byte) 0xFF;
        ip[10] = (byte) 0xFF;
        ip[11] = (byte) 0xFF;
        udp[6] = (byte) 0xFF;
        udp[7] = (byte) 0xFF;
        roce[4] = (byte) 0xFF;
        CRC32 crc = new CRC32();
        crc.update(new byte[] {-1, -1, -1, -1, -1, -1, -1, -1});
        crc.update(ip);
        crc.update(udp);
        crc.update(roce, 0, roce.length - 4);
        return crc.getValue();
    }

    /** The ICRC the datagram carries (its last four bytes, little-endian). */
    static long carried(PcapFile.Datagram d) {
        byte[] p = d.payload();
        int n = p.length;
        return (p[n - 4] & 0xFFL) | (p[n - 3] & 0xFFL) << 8 | (p[n - 2] & 0xFFL) << 16 | (p[n - 1] & 0xFFL) << 24;
    }
}
