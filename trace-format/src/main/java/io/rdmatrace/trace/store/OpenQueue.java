package io.rdmatrace.trace.store;

import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;

/**
 * A host folder's queue opened for writing, with its appender and the current cycle's file already
 * made: what {@link TraceOpening} prepares (on a background thread) before the SESSION is written.
 */
record OpenQueue(SingleChronicleQueue queue, ExcerptAppender appender) implements AutoCloseable {

    /** Makes the appender and this cycle's file of {@code q} (closes {@code q} if that fails). */
    static OpenQueue prepare(SingleChronicleQueue q) {
        try {
            // make and map this cycle's file now; the first write (the SESSION, on the capture thread)
            // would otherwise do it: ~2-3 ms of CPU, against ~0.2 ms left for that write
            q.closeStore(q.storeForCycle(q.cycle(), q.epoch(), true, null));
            ExcerptAppender a = q.createAppender();
            // guarded by the writer's lock instead of Chronicle's owner-thread check (made on another thread)
            a.singleThreadedCheckDisabled(true);
            return new OpenQueue(q, a);
        } catch (RuntimeException | Error e) {
            q.close();
            throw e;
        }
    }

    @Override
    public void close() {
        try {
            appender.close();
        } finally {
            queue.close();
        }
    }
}
