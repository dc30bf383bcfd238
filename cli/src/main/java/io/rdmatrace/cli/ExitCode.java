package io.rdmatrace.cli;

/** The exit codes every verb uses; scripts and CI gate on them. */
public final class ExitCode {
    /** Success: the job ran and found nothing at or above the failure threshold. */
    public static final int OK = 0;
    /** The job ran and failed, or found findings at or above {@code --fail-on}; or the input data is bad. */
    public static final int FAILURE = 1;
    /** Wrong arguments, or the environment cannot run the job (no device, no libibverbs, unreadable path). */
    public static final int USAGE = 2;
    /** A bug in rdmatrace: the message says "unexpected internal error" and the stack trace follows. */
    public static final int INTERNAL = 3;

    private ExitCode() {
    }
}
