package io.rdmatrace.verbs;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The per-thread block of int64 slots a control-path call exchanges with C: the status
 * ({@link Slots.Status}) then the verb's payload. One per thread, reused by every call, so a
 * control-path call allocates only its result records.
 */
final class CallBuffer implements SlotSource {
    static final int SLOTS = 512;

    private static final ThreadLocal<CallBuffer> LOCAL = ThreadLocal.withInitial(CallBuffer::new);

    private static final int RET = Slots.Status.RET.ordinal();
    private static final int ERRNO = Slots.Status.ERRNO.ordinal();
    private static final int DURATION = Slots.Status.DURATION_NS.ordinal();
    private static final int EXTRA = Slots.Status.EXTRA.ordinal();

    private final ByteBuffer buffer;
    private final long address;

    private CallBuffer() {
        JniLibrary.ensureLoaded();
        buffer = ByteBuffer.allocateDirect(SLOTS * 8).order(ByteOrder.nativeOrder());
        address = NativeMemory.addressOf(buffer);
    }

    /** This thread's buffer, with the status and the first {@code payloadSlots} payload slots zeroed. */
    static CallBuffer acquire(int payloadSlots) {
        CallBuffer b = LOCAL.get();
        b.clear(Slots.PAYLOAD + payloadSlots);
        return b;
    }

    long address() {
        return address;
    }

    /** The whole block (status first) for decoders that read it by byte offset. */
    java.nio.ByteBuffer slots() {
        return buffer;
    }

    private void clear(int slots) {
        for (int i = 0; i < slots; i++) {
            buffer.putLong(i * 8, 0L);
        }
    }

    CallStatus status() {
        return CallStatus.of(buffer.getLong(RET * 8), (int) buffer.getLong(ERRNO * 8), buffer.getLong(DURATION * 8));
    }

    long ret() {
        return buffer.getLong(RET * 8);
    }

    long extra() {
        return buffer.getLong(EXTRA * 8);
    }

    @Override
    public long get(int payloadSlot) {
        return buffer.getLong((Slots.PAYLOAD + payloadSlot) * 8);
    }

    @Override
    public int getInt(int payloadSlot) {
        return (int) get(payloadSlot);
    }

    void set(int payloadSlot, long value) {
        buffer.putLong((Slots.PAYLOAD + payloadSlot) * 8, value);
    }

    /** 16 raw bytes starting at a payload slot (GIDs). */
    @Override
    public byte[] getBytes16(int payloadSlot) {
        byte[] raw = new byte[16];
        buffer.get((Slots.PAYLOAD + payloadSlot) * 8, raw);
        return raw;
    }

    /** {@code slots} payload slots from {@code payloadSlot} on, copied in one go. */
    byte[] copyBytes(int payloadSlot, int slots) {
        byte[] raw = new byte[slots * 8];
        buffer.get((Slots.PAYLOAD + payloadSlot) * 8, raw);
        return raw;
    }

    void setBytes16(int payloadSlot, byte[] raw) {
        buffer.put((Slots.PAYLOAD + payloadSlot) * 8, raw);
    }
}
