package io.rdmatrace.tracer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One record copied out of a sub-ring: the ring header, the status block (the JNI layout's
 * RET, ERRNO, DURATION_NS, EXTRA) and the kind's payload, as int64 slots.
 */
public record RingRecord(RingLayout.Kind kind, int flags, ByteBuffer slots) {
    public static final int STATUS = RingLayout.Header.values().length;
    public static final int PAYLOAD = STATUS + io.rdmatrace.verbs.Slots.Status.values().length;

    public long slot(int i) {
        return slots.getLong(i * 8);
    }

    public long monoNanos() {
        return slot(RingLayout.Header.MONO_NS.ordinal());
    }

    public long tid() {
        return slot(RingLayout.Header.TID.ordinal());
    }

    public long handle() {
        return slot(RingLayout.Header.HANDLE.ordinal());
    }

    public long ret() {
        return slot(STATUS + io.rdmatrace.verbs.Slots.Status.RET.ordinal());
    }

    public int errno() {
        return (int) slot(STATUS + io.rdmatrace.verbs.Slots.Status.ERRNO.ordinal());
    }

    public long durationNanos() {
        return slot(STATUS + io.rdmatrace.verbs.Slots.Status.DURATION_NS.ordinal());
    }

    /** A payload slot. */
    public long p(int i) {
        return slot(PAYLOAD + i);
    }

    public int pInt(int i) {
        return (int) p(i);
    }

    /** Index (in slots, from the record's start) of payload slot {@code i}: where a struct block starts. */
    public int at(int i) {
        return PAYLOAD + i;
    }

    public boolean recorderOwn() {
        return (flags & RingLayout.FLAG_RECORDER) != 0;
    }

    public boolean more() {
        return (flags & RingLayout.FLAG_MORE) != 0;
    }

    int slotCount() {
        return slots.capacity() / 8;
    }

    /** A TEXT block (64 bytes, NUL-padded) at payload slot {@code i}. */
    public String text(int i) {
        int start = (PAYLOAD + i) * 8;
        int len = 0;
        int max = RingLayout.Text.values().length * 8;
        while (len < max && slots.get(start + len) != 0) {
            len++;
        }
        byte[] b = new byte[len];
        slots.get(start, b);
        return new String(b, StandardCharsets.UTF_8);
    }
}
