package io.rdmatrace.capture.replay;

/**
 * The replay could not run; the message says why. {@link #isEnvironment()} tells a problem of this
 * machine or of the command line (the output folder already holds a trace, a process cannot start)
 * from one of the recording (too many hosts).
 */
public final class ReplayException extends Exception {
    private final boolean environment;

    public ReplayException(String message, boolean environment) {
        super(message);
        this.environment = environment;
    }

    public ReplayException(String message, boolean environment, Throwable cause) {
        super(message, cause);
        this.environment = environment;
    }

    public boolean isEnvironment() {
        return environment;
    }
}
