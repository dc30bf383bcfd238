package io.rdmatrace.capture.run;

import io.rdmatrace.verbs.Context;
import java.time.Duration;

/**
 * Waits for async events on its own thread for the whole capture (CQ overrun, QP errors, port
 * changes); the recorder hears each as the context's listener. Each wait is short, so stopping is prompt.
 */
final class AsyncEventPump implements AutoCloseable {
    private static final Duration WAIT = Duration.ofMillis(50);
    private static final long JOIN_MS = 2000;

    private final Context context;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile RuntimeException failure;

    AsyncEventPump(Context context) {
        this.context = context;
        this.thread = new Thread(this::loop, "rdmatrace-async-events");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void loop() {
        while (running) {
            try {
                context.tryGetAsyncEvent(WAIT);
            } catch (RuntimeException e) {
                failure = e; // e.g. the context closed under us: stop quietly, report on close
                return;
            }
        }
    }

    /** A failure of the pump thread, or null. */
    RuntimeException failure() {
        return failure;
    }

    @Override
    public void close() {
        running = false;
        try {
            thread.join(JOIN_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
