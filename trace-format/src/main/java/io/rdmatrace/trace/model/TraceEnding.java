package io.rdmatrace.trace.model;

import java.util.Objects;

/**
 * How a recording ended, as its END event says (format 1.4; older traces read as
 * {@link How#UNSTATED}).
 *
 * @param how            what ended the recording
 * @param exitStatus     the recorded program's exit status (0-255), or -1 when it did not exit
 *                       (killed by a signal, still running, or not a recorded program)
 * @param signal         the signal that ended the recorded program, or 0
 * @param recorderSignal the signal the recorder itself received and forwarded to the program, or 0
 * @param detail         one sentence for people (may be empty)
 */
public record TraceEnding(How how, int exitStatus, int signal, int recorderSignal, String detail) {

    /** What an END of format 1.3 or older says: nothing. */
    public static final TraceEnding UNSTATED = new TraceEnding(How.UNSTATED, -1, 0, 0, "");

    /** A writer that closed its trace at the end of its own work (a capture's scenario). */
    public static final TraceEnding FINISHED = new TraceEnding(How.FINISHED, -1, 0, 0, "");

    public TraceEnding {
        Objects.requireNonNull(how, "how");
        Objects.requireNonNull(detail, "detail");
        if (exitStatus < -1 || exitStatus > 255) {
            throw new IllegalArgumentException("exit status out of range: " + exitStatus);
        }
        if (signal < 0 || signal > 127 || recorderSignal < 0 || recorderSignal > 127) {
            throw new IllegalArgumentException("signal out of range: " + signal + ", " + recorderSignal);
        }
    }

    /** The recorded program exited by itself with {@code status}. */
    public static TraceEnding exited(int status, String detail) {
        return new TraceEnding(How.EXITED, status, 0, 0, detail);
    }

    /** The recorded program was ended by {@code signal} that the recorder did not send (a crash, a kill). */
    public static TraceEnding killed(int signal, String detail) {
        return new TraceEnding(How.KILLED, -1, signal, 0, detail);
    }

    /**
     * The recorder received {@code recorderSignal} and ended the recording; the program then
     * exited with {@code exitStatus} (-1: it did not) or died of {@code signal} (0: it did not).
     */
    public static TraceEnding interrupted(int recorderSignal, int exitStatus, int signal, String detail) {
        return new TraceEnding(How.INTERRUPTED, exitStatus, signal, recorderSignal, detail);
    }

    /** Linux's signal names (1-31, the same numbers on x86-64 and arm64), derived when reading, never stored. */
    private static final String[] SIGNALS = {null, "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS",
        "SIGFPE", "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM", "SIGSTKFLT", "SIGCHLD",
        "SIGCONT", "SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGXCPU", "SIGXFSZ", "SIGVTALRM", "SIGPROF",
        "SIGWINCH", "SIGIO", "SIGPWR", "SIGSYS"};

    /** {@code SIGTERM} for 15; {@code signal 40} for a number without a name here. */
    public static String signalName(int signal) {
        return signal > 0 && signal < SIGNALS.length ? SIGNALS[signal] : "signal " + signal;
    }

    /** What ended the recording, in a few words: "the program exited 1", "record got SIGTERM; the program ended by SIGTERM". */
    public String describe() {
        String program = exitStatus >= 0 ? "the program exited " + exitStatus
                : signal > 0 ? "the program ended by " + signalName(signal) : "";
        return switch (how) {
            case UNSTATED -> "the trace was closed (its END does not say how the recording ended)";
            case FINISHED -> "the capture finished";
            case EXITED, KILLED -> program.isEmpty() ? "the program ended" : program;
            case INTERRUPTED -> "record got " + signalName(recorderSignal) + (program.isEmpty() ? "" : "; " + program);
        };
    }

    /** Codes are on-disk: never renumber. */
    public enum How {
        /** the writer did not say (an END of format 1.3 or older) */
        UNSTATED(0),
        /** the writer finished its own work and closed the trace (a capture) */
        FINISHED(1),
        /** the recorded program exited by itself: {@code exitStatus} */
        EXITED(2),
        /** the recorded program was ended by a signal the recorder did not send: {@code signal} */
        KILLED(3),
        /** the recorder got {@code recorderSignal}, forwarded it and closed the trace */
        INTERRUPTED(4);

        private final int code;

        How(int code) {
            this.code = code;
        }

        public int code() {
            return code;
        }

        public static How byCode(int code) {
            for (How h : values()) {
                if (h.code == code) {
                    return h;
                }
            }
            return null;
        }
    }
}
