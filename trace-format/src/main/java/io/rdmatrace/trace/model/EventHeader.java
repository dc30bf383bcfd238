package io.rdmatrace.trace.model;

import java.util.Objects;

/**
 * The fields every event carries. The host id is not repeated here: one queue is one host, and
 * the host id lives in the {@link SessionEvent}.
 *
 * @param seq        per-host sequence number, 0 for the SESSION, +1 per event, assigned by the writer
 * @param monoNanos  {@link System#nanoTime()} when the event was written (only differences mean anything)
 * @param wallNanos  wall-clock time in nanoseconds since the Unix epoch
 * @param pid        operating-system process id of the writer
 * @param threadId   Java thread id of the writing thread
 * @param threadName name of the writing thread (never null, may be empty)
 */
public record EventHeader(long seq, long monoNanos, long wallNanos, long pid, long threadId, String threadName) {
    public EventHeader {
        Objects.requireNonNull(threadName, "threadName");
    }
}
