package io.rdmatrace.capture.program;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Takes what the program's threads have written since the last drain: every sub-ring up to its
 * published head, records of one call (a long chain flagged MORE) grouped together, all calls
 * ordered by their start time. Advances each sub-ring's tail once its records are copied out.
 */
final class RingReader {
    /** One call: its first record and any continuation records. */
    record Call(List<RingRecord> records) {
        RingRecord first() {
            return records.get(0);
        }
    }

    private final RingFile ring;
    private final List<List<RingRecord>> partial = new ArrayList<>();
    private long corruptRecords;

    RingReader(RingFile ring) {
        this.ring = ring;
        for (int i = 0; i < ring.subrings(); i++) {
            partial.add(new ArrayList<>());
        }
    }

    RingFile ring() {
        return ring;
    }

    /** Records that could not be decoded (an unknown kind or a bad length): the rest of that sub-ring is skipped. */
    long corruptRecords() {
        return corruptRecords;
    }

    List<Call> drain() throws IOException {
        List<Call> calls = new ArrayList<>();
        long mask = ring.slotMask();
        for (int i = 0; i < ring.subrings(); i++) {
            ByteBuffer sub = ring.sub(i);
            if (sub == null) {
                continue;
            }
            long head = RingFile.head(sub);
            long tail = RingFile.tail(sub);
            List<RingRecord> open = partial.get(i);
            while (tail < head) {
                long pos = tail & mask;
                long word = RingFile.slotWord(sub, pos);
                int code = (int) (word & 0xffff);
                int flags = (int) ((word >>> 16) & 0xffff);
                long len = word >>> 32;
                if (len == 0 || len > head - tail || pos + len > mask + 1) {
                    corruptRecords++;
                    tail = head;   // cannot find the next record: give up on what is there
                    break;
                }
                RingLayout.Kind kind = RingLayout.Kind.of(code);
                if (kind == null) {
                    corruptRecords++;
                } else if (kind != RingLayout.Kind.PAD) {
                    RingRecord r = RingRecord.copyOf(sub, RingFile.slotByteOffset(pos), (int) len, kind, flags);
                    open.add(r);
                    if (!r.more()) {
                        calls.add(new Call(List.copyOf(open)));
                        open.clear();
                    }
                }
                tail += len;
            }
            RingFile.setTail(sub, tail);
        }
        calls.sort(Comparator.comparingLong(c -> c.first().monoNanos()));
        return calls;
    }

    /** Continuation records still waiting for the rest of their call (a program killed mid-post). */
    List<Call> leftovers() {
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
