package io.rdmatrace.cli;

import java.io.IOException;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * While a recorded program runs, Ctrl-C (SIGINT) does not stop rdmatrace: it is passed to the
 * program, and rdmatrace keeps draining its ring until it exits, so the trace is closed properly.
 */
final class InterruptForwarder implements AutoCloseable {
    private static final Signal INT = new Signal("INT");
    private final SignalHandler previous;

    private InterruptForwarder(SignalHandler previous) {
        this.previous = previous;
    }

    static InterruptForwarder to(Process process) {
        SignalHandler previous = Signal.handle(INT, sig -> forward(process));
        return new InterruptForwarder(previous);
    }

    private static void forward(Process process) {
        if (!process.isAlive()) {
            return;
        }
        try {
            new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).inheritIO().start();
        } catch (IOException e) {
            process.destroy(); // no kill(1): SIGTERM is the next best thing
        }
    }

    @Override
    public void close() {
        Signal.handle(INT, previous);
    }
}
