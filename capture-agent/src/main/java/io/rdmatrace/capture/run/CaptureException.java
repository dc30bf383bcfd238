package io.rdmatrace.capture.run;

/**
 * A capture that could not run at all. {@link #environment()} true: this machine cannot do it as asked
 * (no libibverbs, no device, no such port, the trace folder or the port is taken) — exit 2;
 * false: bad input (an unreadable scenario file) — exit 1.
 */
public final class CaptureException extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean environment;

    public CaptureException(boolean environment, String message, Throwable cause) {
        super(message, cause);
        this.environment = environment;
    }

    public boolean environment() {
        return environment;
    }
}
