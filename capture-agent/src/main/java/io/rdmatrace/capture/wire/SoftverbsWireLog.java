package io.rdmatrace.capture.wire;

import io.rdmatrace.trace.model.EventHeader;
import io.rdmatrace.trace.model.PacketEvent;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * One softverbs packet log ({@code softverbs-IP-PID.wire}, written by softverbs' sv_pktlog.c when
 * asked with {@code softverbs_wire} or SOFTVERBS_WIRE): its device, its packets as
 * {@link PacketEvent}s ordered by time (headers carry only the time: the writer stamps the rest),
 * and how many packets it could not keep.
 */
public record SoftverbsWireLog(String device, long pid, List<PacketEvent> packets, long notKept) {
    private static final byte[] MAGIC = "SVWIRE1\0".getBytes(StandardCharsets.US_ASCII);
    private static final int RECORD_LEN = 32;
    private static final int SYNDROME_NONE = -1;

    public SoftverbsWireLog {
        packets = List.copyOf(packets);
    }

    /** Every {@code *.wire} log in {@code dir}, by file name. */
    public static List<SoftverbsWireLog> readAll(Path dir) throws IOException {
        List<SoftverbsWireLog> logs = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".wire")).sorted().toList()) {
                logs.add(read(f));
            }
        }
        return logs;
    }

    /** Reads one log; IOException when it is not one (wrong magic, record size, or cut short). */
    public static SoftverbsWireLog read(Path file) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        if (b.remaining() < 64 || !b.slice(0, 8).equals(ByteBuffer.wrap(MAGIC))) {
            throw new IOException(file + " is not a softverbs packet log (no SVWIRE1 header)");
        }
        int headerLen = b.getInt(8);
        int recordLen = b.getInt(12);
        long capacity = Integer.toUnsignedLong(b.getInt(16));
        String device = ipv4(b.getInt(20));
        long next = b.getLong(24);
        int reasonCount = b.getInt(32);
        int nameLen = b.getInt(36);
        if (recordLen != RECORD_LEN || headerLen < 64 + (long) reasonCount * nameLen
                || b.capacity() < headerLen + capacity * RECORD_LEN) {
            throw new IOException(file + ": unexpected packet log layout (record " + recordLen + " bytes, header "
                    + headerLen + ", capacity " + capacity + ")");
        }
        List<String> reasons = new ArrayList<>(reasonCount);
        for (int i = 0; i < reasonCount; i++) {
            reasons.add(cString(b, 64 + i * nameLen, nameLen));
        }
        long kept = Math.min(next, capacity);
        List<PacketEvent> packets = new ArrayList<>((int) kept);
        for (long i = 0; i < kept; i++) {
            int at = (int) (headerLen + i * RECORD_LEN);
            PacketEvent.Direction dir = PacketEvent.Direction.byCode(b.get(at + 24) & 0xff);
            if (dir == null) {
                continue; // reserved but not yet written when the process stopped
            }
            int flags = b.get(at + 26) & 0xff;
            int reason = b.get(at + 28) & 0xff;
            EventHeader h = new EventHeader(0, b.getLong(at), 0, 0, 0, "");
            packets.add(new PacketEvent(h, device, dir, reason < reasons.size() ? reasons.get(reason) : "",
                    b.get(at + 25) & 0xff, b.getInt(at + 8), b.getInt(at + 12), (flags & 1) != 0,
                    (flags & 2) != 0 ? b.get(at + 27) & 0xff : SYNDROME_NONE, b.getShort(at + 20) & 0xffff,
                    b.getShort(at + 22) & 0xffff, ipv4(b.getInt(at + 16))));
        }
        packets.sort(Comparator.comparingLong(p -> p.header().monoNanos()));
        return new SoftverbsWireLog(device, pidOf(file), packets, next - kept);
    }

    /** The writer's pid from the name softverbs gives the file (softverbs-IP-PID.wire), or -1. */
    private static long pidOf(Path file) {
        String name = file.getFileName().toString();
        int dash = name.lastIndexOf('-');
        int dot = name.lastIndexOf('.');
        try {
            return dash >= 0 && dot > dash ? Long.parseLong(name.substring(dash + 1, dot)) : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** An IPv4 address stored in network order, read as a little-endian int. */
    private static String ipv4(int le) {
        return (le & 0xff) + "." + ((le >>> 8) & 0xff) + "." + ((le >>> 16) & 0xff) + "." + ((le >>> 24) & 0xff);
    }

    private static String cString(ByteBuffer b, int at, int max) {
        int n = 0;
        while (n < max && b.get(at + n) != 0) {
            n++;
        }
        byte[] bytes = new byte[n];
        b.get(at, bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}
