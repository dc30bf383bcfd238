package io.rdmatrace.capture.replay;

/** The replay could not run (a replaying process failed to start or to report); the message says why. */
public final class ReplayException extends Exception {
    public ReplayException(String message) {
        super(message);
    }

    public ReplayException(String message, Throwable cause) {
        super(message, cause);
    }
}
