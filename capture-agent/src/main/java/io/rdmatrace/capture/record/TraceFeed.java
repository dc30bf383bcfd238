package io.rdmatrace.capture.record;

import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.trace.store.TraceWriter;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The recorder's events on their way to the trace: the capture's threads add one task per event
 * (mapping, encoding and the Chronicle append all happen in the task), and one writer thread runs
 * them in the order they were added. The capture thread pays for a queue node and the values it
 * captures, not for the write; the bring-up's critical path is the capture threads, which wait on
 * each other thousands of times, and the writer runs in those waits.
 *
 * <p>Durability: the writer looks at the queue every {@link #IDLE_PARK_NANOS} when it is idle and
 * writes each pass's events as batch documents before it waits again, so an event is in the
 * mapped queue file (which outlives a kill -9 of the process) within a millisecond or so of the
 * call; {@link #close} writes whatever is queued. More than
 * {@link #MAX_QUEUED} events waiting makes the adding thread wait: the queue never grows without
 * bound and never drops.
 *
 * <p>Tasks queued before {@link #start} wait for it (the calls made before the SESSION can be
 * written); a feed never started discards them at {@link #close}. The writer thread opens the
 * trace itself ({@link Opener}): waiting for Chronicle to finish opening the queue (10-20 ms) is
 * not on the capture's path. The first failure of a task is
 * kept ({@link #failure}) and every later task is skipped, as the recorder stops writing on its
 * first failure.
 */
final class TraceFeed {
    /** How long the idle writer sleeps before it looks at the queue again. */
    static final long IDLE_PARK_NANOS = 200_000;
    /** Events waiting beyond which the adding thread waits for the writer. */
    static final int MAX_QUEUED = 1 << 16;

    /** Gives the writer thread the trace, its SESSION written. */
    interface Opener {
        TraceWriter open() throws TraceException;
    }

    /** A failure and how many events the trace held when it happened. */
    record Failure(Throwable cause, long eventsKept) {
    }

    private final ConcurrentLinkedQueue<Consumer<TraceWriter>> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicReference<Failure> failure = new AtomicReference<>();
    private volatile boolean stopping;
    private volatile Thread thread;
    /** Set by the writer thread once the trace is open; the caller's again after {@link #close}. */
    private volatile TraceWriter writer;

    /** Queues one event's task. Waits while the writer is {@link #MAX_QUEUED} events behind. */
    void add(Consumer<TraceWriter> task) {
        queue.add(task);
        if (queued.incrementAndGet() > MAX_QUEUED) {
            Thread t = thread;
            while (t != null && t.isAlive() && queued.get() > MAX_QUEUED / 2) {
                LockSupport.unpark(t);
                LockSupport.parkNanos(IDLE_PARK_NANOS);
            }
        }
    }

    /** Starts the writer thread: it opens the trace with {@code opener}, then runs the tasks. */
    void start(Opener opener) {
        if (thread != null) {
            throw new IllegalStateException("trace feed already started");
        }
        Thread t = new Thread(() -> run(opener), "rdmatrace-trace-writer");
        t.setDaemon(true); // never keeps a finished capture alive; close() and the shutdown hook drain it
        thread = t;
        t.start();
    }

    /**
     * Keeps {@code cause} as the feed's failure unless one is kept already (a fault that surfaced
     * outside a task, e.g. a SIGBUS of the mapped file noticed by another thread).
     */
    void failed(Throwable cause) {
        TraceWriter w = writer;
        failure.compareAndSet(null, new Failure(cause, w == null ? 0 : w.eventsWritten()));
    }

    /** The trace once the writer thread opened it, else null. */
    TraceWriter writer() {
        return writer;
    }

    /** The first failure, or null. */
    Failure failure() {
        return failure.get();
    }

    /**
     * Runs every task added so far and stops the writer thread; returns once it has. The writer
     * is the caller's again afterwards (to write the END). Idempotent.
     */
    void close() {
        stopping = true;
        Thread t = thread;
        if (t == null) {
            queue.clear(); // never started: nothing to write them to
            return;
        }
        if (t == Thread.currentThread()) {
            return;
        }
        boolean interrupted = false;
        LockSupport.unpark(t);
        while (t.isAlive()) {
            try {
                t.join();
            } catch (InterruptedException e) {
                interrupted = true; // the events come first; the interrupt is passed on after
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void run(Opener opener) {
        try {
            writer = opener.open();
        } catch (TraceException | RuntimeException | InternalError e) {
            failed(e); // every task is skipped; the recorder reports why
        }
        while (true) {
            boolean last = stopping; // read before draining: a task added before close() is drained below
            try {
                drain();
            } catch (InternalError e) {
                failed(e); // a SIGBUS of the mapped file raised between two tasks
            }
            if (last) {
                return;
            }
            LockSupport.parkNanos(IDLE_PARK_NANOS);
        }
    }

    /**
     * Runs the queued tasks with the writer gathering their events into batch documents, and
     * writes the last batch before returning: the writer waits for more only with everything in
     * the queue file.
     */
    private void drain() {
        TraceWriter w = writer;
        if (w != null && failure.get() == null) {
            w.beginBatch();
        }
        try {
            Consumer<TraceWriter> task;
            while ((task = queue.poll()) != null) {
                queued.decrementAndGet();
                if (failure.get() != null) {
                    continue; // the trace stays readable up to the first failure
                }
                try {
                    task.accept(w);
                } catch (RuntimeException | InternalError | AssertionError e) {
                    failed(e);
                }
            }
        } finally {
            if (w != null) {
                endBatch(w);
            }
        }
    }

    private void endBatch(TraceWriter w) {
        try {
            w.endBatch();
        } catch (RuntimeException | InternalError e) {
            failed(e);
        }
    }
}
