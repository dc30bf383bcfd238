package io.rdmatrace.tracer;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * One traced process's ring file ({@code tr_ring.h}): the header, and the sub-rings its threads
 * write, each mapped when first seen in use. The reader owns every sub-ring's tail.
 */
public final class RingFile implements AutoCloseable {
    public static final long MAGIC = 0x31474e4952525452L;
    public static final int VERSION = 1;
    public static final int HEADER_BYTES = 24576;
    static final int SUB_CONTROL = 192;
    static final int OFF_VERSION = 8;
    static final int OFF_SUBRINGS = 12;
    static final int OFF_SUB_SLOTS = 16;
    static final int OFF_SUB_OFFSET = 24;
    static final int OFF_SUB_STRIDE = 32;
    static final int OFF_PID = 40;
    private static final int OFF_DROPPED = 48;
    private static final int OFF_CLOSED = 56;
    private static final int OFF_REFUSED = 64;
    private static final int OFF_SUMMARY = 88;
    private static final int OFF_REAL_LIB = 128;
    private static final int OFF_CMDLINE = 640;
    private static final int OFF_ENV = 4736;
    static final int OFF_NAMES = 12928;
    private static final int CMDLINE_BYTES = 4096;
    private static final int ENV_BYTES = 8192;
    static final int NAMES_BYTES = 8192;
    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private final Path path;
    private final FileChannel channel;
    private final ByteBuffer header;
    private final int subrings;
    private final long subSlots;
    private final long subOffset;
    private final long subStride;
    private final MappedByteBuffer[] subs;
    /** Each unused sub-ring's control block, mapped once: mapping it again every drain pass cost a
     * system call per idle sub-ring per pass (and mappings only the GC gave back). */
    private final MappedByteBuffer[] probes;

    private RingFile(Path path, FileChannel channel, ByteBuffer header) {
        this.path = path;
        this.channel = channel;
        this.header = header;
        this.subrings = header.getInt(OFF_SUBRINGS);
        this.subSlots = header.getLong(OFF_SUB_SLOTS);
        this.subOffset = header.getLong(OFF_SUB_OFFSET);
        this.subStride = header.getLong(OFF_SUB_STRIDE);
        this.subs = new MappedByteBuffer[Math.max(0, subrings)];
        this.probes = new MappedByteBuffer[subs.length];
    }

    /** Opens a ring whose header is complete (its magic is written last); null while it is not. */
    public static RingFile openIfReady(Path path) throws IOException {
        FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try {
            if (ch.size() < HEADER_BYTES) {
                ch.close();
                return null;
            }
            MappedByteBuffer h = ch.map(FileChannel.MapMode.READ_WRITE, 0, HEADER_BYTES);
            h.order(ByteOrder.nativeOrder());
            if ((long) LONGS.getAcquire(h, 0) != MAGIC) {
                ch.close();
                return null;
            }
            if (h.getInt(OFF_VERSION) != VERSION) {
                ch.close();
                throw new IOException("ring " + path + " has format version " + h.getInt(OFF_VERSION)
                        + ", this rdmatrace reads " + VERSION);
            }
            RingFile r = new RingFile(path, ch, h);
            String mismatch = RingLayout.verify(r.names());
            if (!mismatch.isEmpty()) {
                r.close();
                throw new IOException(mismatch);
            }
            return r;
        } catch (IOException | RuntimeException e) {
            if (ch.isOpen()) {
                ch.close();
            }
            throw e;
        }
    }

    public Path path() {
        return path;
    }

    public long pid() {
        return header.getLong(OFF_PID);
    }

    public long dropped() {
        return (long) LONGS.getAcquire(header, OFF_DROPPED);
    }

    public long threadsRefused() {
        return (long) LONGS.getAcquire(header, OFF_REFUSED);
    }

    public boolean closed() {
        return (long) LONGS.getAcquire(header, OFF_CLOSED) != 0;
    }

    public boolean summaryMode() {
        return header.getLong(OFF_SUMMARY) != 0;
    }

    public String realLibrary() {
        return cString(OFF_REAL_LIB, 512);
    }

    /** The program's arguments (from /proc/self/cmdline at load). */
    public List<String> commandLine() {
        return nulSeparated(OFF_CMDLINE, CMDLINE_BYTES);
    }

    /** KEY=VALUE of the RDMA-steering environment variables. */
    public List<String> environment() {
        return nulSeparated(OFF_ENV, ENV_BYTES);
    }

    public String names() {
        return cString(OFF_NAMES, NAMES_BYTES);
    }

    int subrings() {
        return subrings;
    }

    /** Sub-ring {@code i}'s mapping (control block then slots), or null while no thread ever used it. */
    public ByteBuffer sub(int i) throws IOException {
        if (subs[i] != null) {
            return subs[i];
        }
        long base = subOffset + i * subStride;
        MappedByteBuffer probe = probes[i];
        if (probe == null) {
            probe = channel.map(FileChannel.MapMode.READ_WRITE, base, SUB_CONTROL);
            probe.order(ByteOrder.nativeOrder());
            probes[i] = probe;
        }
        if ((long) LONGS.getAcquire(probe, 0) == 0 && (long) LONGS.getAcquire(probe, 128) == 0) {
            return null;   // never written, not owned
        }
        MappedByteBuffer m = channel.map(FileChannel.MapMode.READ_WRITE, base, subStride);
        m.order(ByteOrder.nativeOrder());
        subs[i] = m;
        probes[i] = null;
        return m;
    }

    public static long head(ByteBuffer sub) {
        return (long) LONGS.getAcquire(sub, 0);
    }

    public static long tail(ByteBuffer sub) {
        return (long) LONGS.getAcquire(sub, 64);
    }

    static void setTail(ByteBuffer sub, long tail) {
        LONGS.setRelease(sub, 64, tail);
    }

    static long slotWord(ByteBuffer sub, long slotIndex) {
        return sub.getLong(SUB_CONTROL + (int) slotIndex * 8);
    }

    static int slotByteOffset(long slotIndex) {
        return SUB_CONTROL + (int) slotIndex * 8;
    }

    long slotMask() {
        return subSlots - 1;
    }

    private String cString(int off, int max) {
        int len = 0;
        while (len < max && header.get(off + len) != 0) {
            len++;
        }
        byte[] b = new byte[len];
        header.get(off, b);
        return new String(b, StandardCharsets.UTF_8);
    }

    private List<String> nulSeparated(int off, int max) {
        List<String> out = new ArrayList<>();
        int start = off;
        for (int i = off; i < off + max; i++) {
            if (header.get(i) == 0) {
                if (i == start) {
                    break;
                }
                byte[] b = new byte[i - start];
                header.get(start, b);
                out.add(new String(b, StandardCharsets.UTF_8));
                start = i + 1;
            }
        }
        return out;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
