package io.rdmatrace.verbs;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A reusable data-path batch: a struct-of-arrays in native memory that Java fills (or reads)
 * slot by slot, plus C scratch where the libibverbs structs are built, so posting and polling
 * never allocate. The header holds the last call's ret, errno and duration.
 * Not thread-safe: one batch per thread.
 */
public abstract sealed class NativeBatch implements AutoCloseable permits SendBatch, RecvBatch, CompletionBatch {
    static final int HEADER = Slots.Batch.values().length;
    private static final int RET = Slots.Batch.RET.ordinal() * 8;
    private static final int ERRNO = Slots.Batch.ERRNO.ordinal() * 8;
    private static final int DURATION = Slots.Batch.DURATION_NS.ordinal() * 8;
    static final int COUNT = Slots.Batch.COUNT.ordinal() * 8;
    private static final int BAD_INDEX = Slots.Batch.BAD_INDEX.ordinal() * 8;

    private final NativeMemory memory;
    private final long scratch;
    final ByteBuffer slots;
    private final long address;
    private boolean closed;

    NativeBatch(long slotCount, long scratch) {
        this.scratch = scratch;
        this.memory = NativeMemory.allocate(slotCount * 8);
        this.slots = memory.buffer().order(ByteOrder.nativeOrder());
        this.address = memory.address();
    }

    final long address() {
        if (closed) {
            throw new IllegalStateException("batch is closed");
        }
        return address;
    }

    final long scratch() {
        return scratch;
    }

    /** The number of requests (send/recv) or completions (poll) in the batch. */
    public final int count() {
        return (int) slots.getLong(COUNT);
    }

    /** ret of the last post/poll (the errno for post, the count for poll). */
    public final long ret() {
        return slots.getLong(RET);
    }

    public final int errno() {
        return (int) slots.getLong(ERRNO);
    }

    /** Nanoseconds the last post/poll spent in libibverbs. */
    public final long durationNanos() {
        return slots.getLong(DURATION);
    }

    /** Index of the request ibv_post_* rejected ({@code *bad_wr}), or -1. */
    public final int badIndex() {
        return (int) slots.getLong(BAD_INDEX);
    }

    /** The last call's status as a record (allocates). */
    public final CallStatus status() {
        return CallStatus.of(ret(), errno(), durationNanos());
    }

    @Override
    public final void close() {
        if (closed) {
            return;
        }
        closed = true;
        memory.close();
        NativeMemory.freeScratch(scratch);
    }
}
