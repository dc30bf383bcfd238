package io.rdmatrace.tracer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Takes what the program's threads have written since the last drain, in two steps. {@link #copy}
 * runs while the program does: it copies each sub-ring's published records out in one or two
 * array copies and advances the tail; nothing per record (a pass beside a busy program must cost
 * it next to nothing, and runs interpreted at first: a walk over a fresh JVM's first passes took
 * most of a core). {@link #parse} runs when the drain decodes: it walks a pass's bytes record by
 * record, turns them into calls, records of one call (a long chain flagged MORE, possibly split
 * across passes) grouped together, the pass's calls ordered by start time.
 */
public final class RingReader {
    /** One call: its first record and any continuation records. */
    public record Call(List<RingRecord> records) {
        public RingRecord first() {
            return records.get(0);
        }
    }

    /** What one sub-ring held at one pass, from ring slot {@code startSlot} on, in ring order. */
    record Chunk(int subring, long startSlot, byte[] bytes) {
    }

    /**
     * What one pass copied.
     *
     * @param deviceInfo a DEVICE_INFO record is among them (the program opened a device); only
     *                   looked for when {@link #copy} is asked to
     */
    public record Pass(List<Chunk> chunks, long bytes, boolean deviceInfo) {
        public boolean isEmpty() {
            return chunks.isEmpty();
        }
    }

    private static final Pass EMPTY = new Pass(List.of(), 0, false);

    private final RingFile ring;
    private final long ringSlots;
    private final List<List<RingRecord>> partial = new ArrayList<>();
    private long corruptRecords;

    public RingReader(RingFile ring) {
        this.ring = ring;
        this.ringSlots = ring.slotMask() + 1;
        for (int i = 0; i < ring.subrings(); i++) {
            partial.add(new ArrayList<>());
        }
    }

    public RingFile ring() {
        return ring;
    }

    /** Records that could not be decoded (an unknown kind or a bad length): the rest of that pass's sub-ring is skipped. */
    public long corruptRecords() {
        return corruptRecords;
    }

    /**
     * Copies out what the sub-rings hold and frees their room.
     *
     * @param findDeviceInfo look for a DEVICE_INFO record (a walk over the record headers)
     */
    public Pass copy(boolean findDeviceInfo) throws IOException {
        List<Chunk> chunks = null;
        long total = 0;
        boolean deviceInfo = false;
        long mask = ring.slotMask();
        for (int i = 0; i < ring.subrings(); i++) {
            ByteBuffer sub = ring.sub(i);
            if (sub == null) {
                continue;
            }
            long head = RingFile.head(sub);
            long tail = RingFile.tail(sub);
            if (head <= tail) {
                continue;
            }
            long slots = Math.min(head - tail, ringSlots);   // more than the ring holds: a corrupt head
            byte[] bytes = new byte[Math.toIntExact(slots * 8)];
            long start = tail & mask;
            int first = Math.toIntExact(Math.min(slots, ringSlots - start) * 8);
            sub.get(RingFile.slotByteOffset(start), bytes, 0, first);
            if (first < bytes.length) {   // the run wraps: the rest starts at slot 0
                sub.get(RingFile.slotByteOffset(0), bytes, first, bytes.length - first);
            }
            RingFile.setTail(sub, head);
            Chunk c = new Chunk(i, start, bytes);
            deviceInfo |= findDeviceInfo && holdsDeviceInfo(c);
            if (chunks == null) {
                chunks = new ArrayList<>();
            }
            chunks.add(c);
            total += bytes.length;
        }
        return chunks == null ? EMPTY : new Pass(chunks, total, deviceInfo);
    }

    private boolean holdsDeviceInfo(Chunk c) {
        ByteBuffer b = ByteBuffer.wrap(c.bytes()).order(ByteOrder.nativeOrder());
        for (int at = 0; at < c.bytes().length; ) {
            long word = b.getLong(at);
            int len = recordSlots(c, at, word);
            if (len < 0) {
                return false;
            }
            if ((word & 0xffff) == RingLayout.Kind.DEVICE_INFO.ordinal()) {
                return true;
            }
            at += len * 8;
        }
        return false;
    }

    /** The length in slots of the record at byte {@code at} of a chunk, or -1 if its header cannot be one. */
    private int recordSlots(Chunk c, int at, long word) {
        long len = word >>> 32;
        long pos = (c.startSlot() + at / 8) % ringSlots;
        if (len == 0 || len > (c.bytes().length - at) / 8 || pos + len > ringSlots) {
            return -1;   // the tracer never writes a record across the ring's end
        }
        return (int) len;
    }

    /** The calls of a pass, ordered by start time; continuations wait for the rest of their call. */
    public List<Call> parse(Pass pass) {
        List<Call> calls = new ArrayList<>();
        for (Chunk c : pass.chunks()) {
            List<RingRecord> open = partial.get(c.subring());
            ByteBuffer b = ByteBuffer.wrap(c.bytes()).order(ByteOrder.nativeOrder());
            for (int at = 0; at < c.bytes().length; ) {
                long word = b.getLong(at);
                int len = recordSlots(c, at, word);
                if (len < 0) {
                    corruptRecords++;
                    break;   // cannot find the next record: give up on what is there
                }
                RingLayout.Kind kind = RingLayout.Kind.of((int) (word & 0xffff));
                if (kind == null) {
                    corruptRecords++;
                } else if (kind != RingLayout.Kind.PAD) {
                    RingRecord r = new RingRecord(kind, (int) ((word >>> 16) & 0xffff),
                            b.slice(at, len * 8).order(ByteOrder.nativeOrder()));
                    open.add(r);
                    if (!r.more()) {
                        calls.add(new Call(List.copyOf(open)));
                        open.clear();
                    }
                }
                at += len * 8;
            }
        }
        calls.sort(Comparator.comparingLong(c -> c.first().monoNanos()));
        return calls;
    }

    /** Continuation records still waiting for the rest of their call (a program killed mid-post). */
    public List<Call> leftovers() {
        List<Call> calls = new ArrayList<>();
        for (List<RingRecord> open : partial) {
            if (!open.isEmpty()) {
                calls.add(new Call(List.copyOf(open)));
                open.clear();
            }
        }
        return calls;
    }
}
