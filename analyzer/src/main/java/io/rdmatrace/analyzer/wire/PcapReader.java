package io.rdmatrace.analyzer.wire;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the frames of a packet capture: classic pcap (microsecond or nanosecond, either byte
 * order) or pcapng (section header, interface description and enhanced/simple packet blocks,
 * any number of sections and interfaces), as tcpdump, dumpcap and tshark write them.
 */
public final class PcapReader {
    private static final int PCAP_MAGIC_US = 0xa1b2c3d4;
    private static final int PCAP_MAGIC_NS = 0xa1b23c4d;
    private static final int PCAPNG_SHB = 0x0a0d0d0a;
    private static final int PCAPNG_BYTE_ORDER = 0x1a2b3c4d;

    /**
     * One captured frame.
     *
     * @param number   1-based frame number, as Wireshark counts
     * @param tsNs     capture time, ns since the epoch
     * @param linkType the interface's link type (1 Ethernet, 113 Linux SLL, 276 SLL2, 0 BSD loopback, 101 raw IP)
     * @param data     the captured bytes
     */
    public record Frame(int number, long tsNs, int linkType, byte[] data) {
    }

    private PcapReader() {
    }

    public static List<Frame> read(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        if (bytes.length < 24) {
            throw new IOException(file + ": too short for a pcap or pcapng file (" + bytes.length + " bytes)");
        }
        ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int magic = buf.getInt(0);
        if (magic == PCAPNG_SHB) {
            return pcapng(file, buf);
        }
        for (ByteOrder order : List.of(ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN)) {
            buf.order(order);
            int m = buf.getInt(0);
            if (m == PCAP_MAGIC_US || m == PCAP_MAGIC_NS) {
                return pcap(file, buf, m == PCAP_MAGIC_NS);
            }
        }
        throw new IOException(file + ": not a pcap or pcapng file (magic 0x" + Integer.toHexString(magic) + ")");
    }

    private static List<Frame> pcap(Path file, ByteBuffer buf, boolean nanos) throws IOException {
        int linkType = buf.getInt(20) & 0x0fffffff;
        List<Frame> frames = new ArrayList<>();
        int pos = 24;
        while (pos + 16 <= buf.limit()) {
            long sec = Integer.toUnsignedLong(buf.getInt(pos));
            long frac = Integer.toUnsignedLong(buf.getInt(pos + 4));
            int captured = buf.getInt(pos + 8);
            if (captured < 0 || pos + 16 + captured > buf.limit()) {
                break; // a capture cut while writing: keep what is whole
            }
            byte[] data = new byte[captured];
            buf.get(pos + 16, data);
            frames.add(new Frame(frames.size() + 1, sec * 1_000_000_000L + (nanos ? frac : frac * 1000), linkType, data));
            pos += 16 + captured;
        }
        return frames;
    }

    private static List<Frame> pcapng(Path file, ByteBuffer buf) throws IOException {
        List<Frame> frames = new ArrayList<>();
        List<int[]> interfaces = new ArrayList<>(); // {linkType, tsresol exponent (base 10; negative: base 2)}
        int pos = 0;
        while (pos + 12 <= buf.limit()) {
            // the section header's type reads the same in both byte orders; its byte-order magic sets the order
            int type = buf.getInt(pos);
            if (type == PCAPNG_SHB) {
                int bom = buf.order(ByteOrder.LITTLE_ENDIAN).getInt(pos + 8);
                buf.order(bom == PCAPNG_BYTE_ORDER ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
                interfaces.clear();
            }
            int length = buf.getInt(pos + 4);
            if (length < 12 || pos + length > buf.limit()) {
                break;
            }
            if (type == 1) { // interface description block
                int linkType = buf.getShort(pos + 8) & 0xffff;
                interfaces.add(new int[] {linkType, tsresol(buf, pos + 16, pos + length - 4)});
            } else if (type == 6) { // enhanced packet block
                int iface = buf.getInt(pos + 8);
                long ts = (Integer.toUnsignedLong(buf.getInt(pos + 12)) << 32) | Integer.toUnsignedLong(buf.getInt(pos + 16));
                int captured = buf.getInt(pos + 20);
                if (iface >= 0 && iface < interfaces.size() && captured >= 0 && pos + 28 + captured <= pos + length) {
                    byte[] data = new byte[captured];
                    buf.get(pos + 28, data);
                    int[] desc = interfaces.get(iface);
                    frames.add(new Frame(frames.size() + 1, toNanos(ts, desc[1]), desc[0], data));
                }
            } else if (type == 3 && !interfaces.isEmpty()) { // simple packet block: no timestamp
                int original = buf.getInt(pos + 8);
                int captured = Math.min(original, length - 16);
                byte[] data = new byte[Math.max(0, captured)];
                buf.get(pos + 12, data);
                frames.add(new Frame(frames.size() + 1, 0, interfaces.get(0)[0], data));
            }
            pos += length;
        }
        return frames;
    }

    /** The if_tsresol option (code 9): 10^-n seconds, or 2^-n when the top bit is set; default 10^-6. */
    private static int tsresol(ByteBuffer buf, int from, int to) {
        int pos = from;
        while (pos + 4 <= to) {
            int code = buf.getShort(pos) & 0xffff;
            int len = buf.getShort(pos + 2) & 0xffff;
            if (code == 0) {
                break;
            }
            if (code == 9 && len >= 1) {
                int v = buf.get(pos + 4) & 0xff;
                return (v & 0x80) != 0 ? -(v & 0x7f) : v;
            }
            pos += 4 + ((len + 3) & ~3);
        }
        return 6;
    }

    private static long toNanos(long ts, int resolution) {
        if (resolution >= 0) {
            if (resolution <= 9) {
                long scale = 1;
                for (int i = resolution; i < 9; i++) {
                    scale *= 10;
                }
                return ts * scale;
            }
            long div = 1;
            for (int i = 9; i < resolution; i++) {
                div *= 10;
            }
            return ts / div;
        }
        int bits = -resolution;
        return (long) (ts / Math.pow(2, bits) * 1e9);
    }
}
