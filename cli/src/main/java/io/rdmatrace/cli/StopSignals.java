package io.rdmatrace.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * While held, SIGINT, SIGTERM and SIGHUP ask a long-running verb to stop at its next pause instead
 * of ending the JVM where it stands, so it can say what it saw last and exit with its own code.
 * The previous handlers come back on close.
 */
final class StopSignals implements AutoCloseable {
    static final List<String> SIGNALS = List.of("INT", "TERM", "HUP");
    private final Map<Signal, SignalHandler> previous = new LinkedHashMap<>();
    private final CountDownLatch stop = new CountDownLatch(1);
    private volatile String received;

    private StopSignals() {
    }

    static StopSignals take() {
        StopSignals s = new StopSignals();
        for (String name : SIGNALS) {
            Signal signal = new Signal(name);
            s.previous.put(signal, Signal.handle(signal, s::handle));
        }
        return s;
    }

    private void handle(Signal signal) {
        if (received == null) {
            received = "SIG" + signal.getName();
        }
        stop.countDown();
    }

    /** Sleeps up to {@code millis}; true when a stop was asked for (before or meanwhile). */
    boolean awaitStop(long millis) throws InterruptedException {
        return stop.await(millis, TimeUnit.MILLISECONDS);
    }

    boolean requested() {
        return stop.getCount() == 0;
    }

    /** The first signal received ("SIGTERM"), if any. */
    Optional<String> signal() {
        return Optional.ofNullable(received);
    }

    @Override
    public void close() {
        previous.forEach(Signal::handle);
    }
}
