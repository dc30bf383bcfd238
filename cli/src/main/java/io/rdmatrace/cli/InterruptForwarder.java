package io.rdmatrace.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * While a recorded program runs, Ctrl-C (SIGINT) does not stop rdmatrace: it is passed to the
 * program, and rdmatrace keeps draining its ring until it exits, so the trace is closed properly.
 * A Ctrl-C typed in a terminal goes to the whole foreground process group, the program included:
 * when the program is in the terminal's foreground group it already has the signal and gets no
 * second one from us.
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
        if (!process.isAlive() || inTerminalForeground(process.pid())) {
            return;
        }
        try {
            new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).inheritIO().start();
        } catch (IOException e) {
            process.destroy(); // no kill(1): SIGTERM is the next best thing
        }
    }

    /** True when the process's group is its terminal's foreground group (/proc/PID/stat: pgrp, tpgid). */
    static boolean inTerminalForeground(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // after "pid (comm) ": state ppid pgrp session tty_nr tpgid ...
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long pgrp = Long.parseLong(f[2]);
            long tpgid = Long.parseLong(f[5]);
            return tpgid > 0 && pgrp == tpgid;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    @Override
    public void close() {
        Signal.handle(INT, previous);
    }
}
