package io.rdmatrace.cli;

import io.rdmatrace.verbs.QuitSignal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * While a recorded program runs, SIGINT, SIGTERM, SIGHUP and SIGQUIT do not stop rdmatrace: the
 * signal is passed to the program (its process group when it has one of its own, else the program
 * and its descendants), rdmatrace waits a bounded grace period for it to end, SIGKILLs what is
 * left, and then closes the trace with an END that names the signal. A SIGINT or SIGQUIT typed in
 * a terminal already reached the program when it is in the terminal's foreground group: it gets
 * no second one. HotSpot keeps SIGQUIT for its thread dumps and refuses it to sun.misc.Signal
 * (only -Xrs frees it, and -Xrs takes SIGINT/SIGTERM/SIGHUP away instead), so SIGQUIT is taken
 * with a native handler ({@link QuitSignal}) while the program runs, and given back on close.
 */
final class SignalForwarder implements AutoCloseable {
    static final List<String> SIGNALS = List.of("INT", "TERM", "HUP", "QUIT");
    private final Map<Signal, SignalHandler> previous;
    private final Process process;
    private final long graceMillis;
    private final IntConsumer onSignal;
    private volatile int received;
    private Thread reaper;
    /** SIGQUIT while held, or null (the JNI library could not be loaded: SIGQUIT stays the JVM's). */
    private QuitSignal quit;

    private SignalForwarder(Process process, long graceMillis, IntConsumer onSignal) {
        this.previous = new LinkedHashMap<>();
        this.process = process;
        this.graceMillis = graceMillis;
        this.onSignal = onSignal;
    }

    /** Forwards the four signals to {@code process} until closed; {@code onSignal} hears the first one's number. */
    static SignalForwarder to(Process process, long graceMillis, IntConsumer onSignal) {
        SignalForwarder f = new SignalForwarder(process, graceMillis, onSignal);
        for (String name : SIGNALS) {
            Signal s = new Signal(name);
            try {
                f.previous.put(s, Signal.handle(s, f::handle));
            } catch (IllegalArgumentException e) {
                f.quit = takeQuit(f, s); // SIGQUIT: refused, the JVM's own
            }
        }
        return f;
    }

    private static QuitSignal takeQuit(SignalForwarder f, Signal quit) {
        try {
            return QuitSignal.take(() -> f.handle(quit));
        } catch (IllegalStateException | UnsatisfiedLinkError e) {
            return null; // left to the JVM (a thread dump); a terminal's SIGQUIT still reaches the program
        }
    }

    /** The first signal received (its number), or 0. */
    int received() {
        return received;
    }

    private synchronized void handle(Signal signal) {
        int number = signal.getNumber();
        if (received == 0) {
            received = number;
            onSignal.accept(number);
        }
        if (!process.isAlive()) {
            return;
        }
        boolean fromTerminal = (number == 2 || number == 3) && inTerminalForeground(process.pid());
        if (!fromTerminal) {
            send(signal.getName(), targets(process));
        }
        if (reaper == null) {
            // the grace period, then SIGKILL: a hung program must not outlive the recording
            reaper = new Thread(this::killAfterGrace, "rdmatrace-grace");
            reaper.setDaemon(true);
            reaper.start();
        }
    }

    private void killAfterGrace() {
        try {
            if (process.waitFor(graceMillis, TimeUnit.MILLISECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            return;
        }
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
        tree.add(process.toHandle());
        tree.forEach(ProcessHandle::destroyForcibly);
    }

    /** The program's own process group ("-PGID"), or the program and its descendants when it shares ours. */
    static List<String> targets(Process process) {
        long group = processGroup(process.pid());
        long ours = processGroup(ProcessHandle.current().pid());
        if (group > 0 && group != ours) {
            return List.of("-" + group);
        }
        List<String> pids = new ArrayList<>();
        pids.add(Long.toString(process.pid()));
        process.descendants().filter(ProcessHandle::isAlive).forEach(p -> pids.add(Long.toString(p.pid())));
        return pids;
    }

    /** kill(1) of live targets; a target that ended meanwhile is no news (its message is discarded). */
    private static void send(String name, List<String> targets) {
        List<String> cmd = new ArrayList<>(List.of("kill", "-s", name, "--"));
        cmd.addAll(targets);
        try {
            new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start().waitFor(5, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new IllegalStateException("rdmatrace record: cannot run kill(1) to pass SIG" + name + " on", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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

    /** The process group of {@code pid} (/proc/PID/stat), or -1. */
    static long processGroup(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[2]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    @Override
    public void close() {
        previous.forEach(Signal::handle);
        if (quit != null) {
            quit.close();
        }
    }
}
