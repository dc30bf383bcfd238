package io.rdmatrace.capture.run;

import io.rdmatrace.verbs.AsyncWakeup;
import io.rdmatrace.verbs.Context;
import java.time.Duration;

/**
 * Waits for async events on its own thread for the whole capture (CQ overrun, QP errors, port
 * changes); the recorder hears each as the context's listener. Stopping wakes the wait, so a
 * capture's end does not wait for it (a 50 ms poll used to add 0-50 ms to every capture).
 */
final class AsyncEventPump implements AutoCloseable {
    /** Only bounds a wait that a wake-up ends: long, so an idle capture is not woken for nothing. */
    private static final Duration WAIT = Duration.ofSeconds(1);
    private static final long JOIN_MS = 2000;

    private final Context context;
    private final Duration wait;
    private final AsyncWakeup wakeup = AsyncWakeup.open();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile RuntimeException failure;

    AsyncEventPump(Context context) {
        this(context, WAIT);
    }

    /** {@code wait}: how long one wait may last when nothing wakes it (tests make it long). */
    AsyncEventPump(Context context, Duration wait) {
        this.context = context;
        this.wait = wait;
        this.thread = new Thread(this::loop, "rdmatrace-async-events");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void loop() {
        while (running) {
            try {
                context.tryGetAsyncEvent(wait, wakeup);
            } catch (RuntimeException e) {
                failure = e; // e.g. the context closed under us: stop quietly, report on close
                return;
            }
        }
    }

    /** Whether the pump's thread still runs (after close: it outlived the join). */
    boolean running() {
        return thread.isAlive();
    }

    /** A failure of the pump thread, or null. */
    RuntimeException failure() {
        return failure;
    }

    @Override
    public void close() {
        running = false;
        wakeup.wake();
        try {
            thread.join(JOIN_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!thread.isAlive()) {
            wakeup.close();   // a thread still inside the wait keeps its fd (never closed under it)
        }
    }
}
