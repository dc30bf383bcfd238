package io.rdmatrace.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Appends a writer's encoded events to its Chronicle queue on a thread of its own, so the thread
 * that records (a capture's, on the bring-up's critical path) only encodes and hands the bytes over:
 * the Chronicle append (~370 ns an event) and the first writes to the mapped file's pages (~20-30 µs
 * each on this project's VM) run here instead. The thread also waits for the queue's open, so the
 * SESSION and the events after it are recorded while the queue is still opening (they wait here, in
 * order, bounded by {@link #CAPACITY}).
 *
 * <p>The trade-off is durability: an event is in the queue file, and survives a SIGKILL of the
 * process, once this thread has appended it, which is at most ~{@link #MAX_WAIT_NANOS} after it was
 * recorded (sooner while events keep coming); a killed process loses what was still in flight.
 * {@link #finish()} appends everything handed over before it returns (a clean close or a signal's
 * close loses nothing). The thread wakes on a timer, not per event: waking it per event would cost
 * the recording thread a futex wake-up, more than the append it saves.
 *
 * <p>One producer at a time (the writer's lock serializes {@link #put}), one consumer (this thread).
 */
final class BackgroundAppends {
    /** Events in flight before the recording thread waits for this one (a 1,000-QP host records ~20k in ~0.2 s). */
    static final int CAPACITY = 16_384;
    /** The wait after a batch: events reach the file within ~1 ms while they keep coming. */
    static final long FIRST_WAIT_NANOS = 1_000_000;
    /** The longest wait when nothing comes (doubling from {@link #FIRST_WAIT_NANOS}): an idle capture wakes this thread ~60 times a second. */
    static final long MAX_WAIT_NANOS = 16_000_000;

    /** Opens the queue (on this thread, or waits for an open under way). */
    interface QueueSource {
        OpenQueue open() throws Exception;
    }

    private final ArrayBlockingQueue<byte[]> pending = new ArrayBlockingQueue<>(CAPACITY);
    private final Thread thread;
    private volatile boolean stopping;
    /** The first failure (the open, or an append): later events are dropped, the trace ends there. */
    private volatile Throwable failure;
    /** Written by the thread, read after {@link #finish()} joined it. */
    private OpenQueue open;

    BackgroundAppends(String name, QueueSource source) {
        thread = new Thread(() -> run(source), name);
        thread.setDaemon(true); // a process that exits without closing its writer loses what is in flight, as a kill does
        // a fault in a mapped page can surface as an InternalError outside the catches below: kept as the failure
        thread.setUncaughtExceptionHandler((t, e) -> fail(e));
        thread.start();
    }

    /** The first failure of the open or of an append, or null. */
    Throwable failure() {
        return failure;
    }

    /** Hands one encoded event over (owned by this from now on); waits while {@link #CAPACITY} are in flight. */
    void put(byte[] event) {
        if (pending.offer(event)) {
            return;
        }
        LockSupport.unpark(thread); // full: drain now rather than at the next tick
        boolean interrupted = false;
        while (true) {
            try {
                // the thread drains (or, after a failure, discards) until finish(); if it died, the
                // failure it kept ends the trace and this event is dropped with the rest
                if (pending.offer(event, 10, TimeUnit.MILLISECONDS) || !thread.isAlive()) {
                    break;
                }
            } catch (InterruptedException e) {
                interrupted = true; // nothing is lost for an interrupt: keep the order, keep the event
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Appends everything handed over, ends the thread and returns the open queue (null if it never
     * opened) for the caller to close. Call once, after the last {@link #put}.
     */
    OpenQueue finish() {
        stopping = true;
        LockSupport.unpark(thread);
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // the queue must not be closed under the thread's appends
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return open;
    }

    private void fail(Throwable e) {
        if (failure == null) {
            failure = e;
        }
    }

    private void run(QueueSource source) {
        try {
            open = source.open();
        } catch (Throwable e) {
            fail(e); // what is handed over is discarded below; the writer reports the failure
        }
        List<byte[]> batch = new ArrayList<>(1024);
        long wait = FIRST_WAIT_NANOS;
        while (true) {
            try {
                boolean last = stopping; // read before the drain: every put before finish() is drained after it
                pending.drainTo(batch);
                if (!batch.isEmpty()) {
                    appendAll(batch);
                    batch.clear();
                    wait = FIRST_WAIT_NANOS;
                } else if (last) {
                    return;
                } else {
                    LockSupport.parkNanos(this, wait);
                    wait = Math.min(wait * 2, MAX_WAIT_NANOS);
                }
            } catch (Throwable e) {
                fail(e); // e.g. a full disk's SIGBUS raised late: stop appending, keep draining
                batch.clear();
            }
        }
    }

    private void appendAll(List<byte[]> batch) {
        if (failure != null || open == null) {
            return; // the trace ends at the failure (TRUNCATED): nothing after it is appended
        }
        ExcerptAppender appender = open.appender();
        for (byte[] event : batch) {
            DocumentContext dc = appender.writingDocument();
            try {
                dc.wire().bytes().write(event, 0, event.length);
            } catch (RuntimeException | Error e) {
                dc.rollbackOnClose(); // never leave half an event in the queue
                try {
                    dc.close();
                } catch (RuntimeException | Error ignored) {
                    // the write already failed; that failure is the one to report
                }
                throw e;
            }
            dc.close();
        }
    }
}
