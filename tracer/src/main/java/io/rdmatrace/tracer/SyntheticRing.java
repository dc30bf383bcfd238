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
import java.util.List;
import java.util.Map;

/**
 * A ring file written from Java as the tracer writes one ({@code tr_ring.h}): a header with this
 * build's layout names and one sub-ring, records appended as one thread's would be (a PAD where a
 * record would cross the ring's end, the head published after each). {@link TraceWarmUp} runs the
 * drain's own read path over one before the program starts; tests use it for the cases a real
 * program does not make on demand (a run that wraps, a call split across passes, a bad header).
 */
public final class SyntheticRing implements AutoCloseable {
    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private final FileChannel channel;
    private final MappedByteBuffer file;
    private final long slots;
    private long head;

    /** Creates {@code path} with one sub-ring of {@code slots} slots (a power of two) for process {@code pid}. */
    public SyntheticRing(Path path, long slots, long pid) throws IOException {
        if (Long.bitCount(slots) != 1) {
            throw new IllegalArgumentException("slots must be a power of two: " + slots);
        }
        this.slots = slots;
        long stride = RingFile.SUB_CONTROL + slots * 8;
        channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
        file = channel.map(FileChannel.MapMode.READ_WRITE, 0, RingFile.HEADER_BYTES + stride);
        file.order(ByteOrder.nativeOrder());
        file.putInt(RingFile.OFF_VERSION, RingFile.VERSION);
        file.putInt(RingFile.OFF_SUBRINGS, 1);
        file.putLong(RingFile.OFF_SUB_SLOTS, slots);
        file.putLong(RingFile.OFF_SUB_OFFSET, RingFile.HEADER_BYTES);
        file.putLong(RingFile.OFF_SUB_STRIDE, stride);
        file.putLong(RingFile.OFF_PID, pid);
        byte[] names = names(RingLayout.javaNames()).getBytes(StandardCharsets.US_ASCII);
        if (names.length >= RingFile.NAMES_BYTES) {
            throw new IllegalStateException("the layout names do not fit a ring header");
        }
        file.put(RingFile.OFF_NAMES, names);
        LONGS.setRelease(file, 0, RingFile.MAGIC);   // last, as the tracer does: the header is complete
    }

    /** The header's "LIST:A,B,;LIST2:...;" text of {@code lists}. */
    public static String names(Map<String, List<String>> lists) {
        StringBuilder b = new StringBuilder();
        lists.forEach((list, names) -> {
            b.append(list).append(':');
            names.forEach(n -> b.append(n).append(','));
            b.append(';');
        });
        return b.toString();
    }

    /**
     * Appends one record (its slots as {@link RingRecord} holds them; the header word is made here)
     * and publishes it; false, and nothing written, when the reader has not yet freed the room.
     */
    public boolean append(RingRecord r) {
        int n = r.slotCount();
        long pos = head & (slots - 1);
        long pad = pos + n > slots ? slots - pos : 0;
        long tail = (long) LONGS.getAcquire(file, RingFile.HEADER_BYTES + 64);
        if (head + pad + n - tail > slots) {
            return false;
        }
        if (pad > 0) {   // the tracer never splits a record at the ring's end
            putWord(pos, RingLayout.Kind.PAD.ordinal() | (slots - pos) << 32);
            head += slots - pos;
            pos = 0;
        }
        long kindLen = r.kind().ordinal() | (long) r.flags() << 16 | (long) n << 32;
        for (int i = 1; i < n; i++) {
            file.putLong(slotOffset(pos + i), r.slot(i));
        }
        putWord(pos, kindLen);
        head += n;
        LONGS.setRelease(file, RingFile.HEADER_BYTES, head);
        return true;
    }

    /** Writes a raw slot word at ring slot {@code pos} (a test's corrupt header). */
    void putWord(long pos, long word) {
        file.putLong(slotOffset(pos), word);
    }

    /** Moves the published head on by {@code n} slots without writing them. */
    void publish(long n) {
        head += n;
        LONGS.setRelease(file, RingFile.HEADER_BYTES, head);
    }

    public long head() {
        return head;
    }

    private static int slotOffset(long pos) {
        return RingFile.HEADER_BYTES + RingFile.slotByteOffset(pos);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
