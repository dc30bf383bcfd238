package io.rdmatrace.cli;

/** The input (a trace, a scenario file, a peer's data) is bad or the job failed: exit 1, message only. */
public class UserDataException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UserDataException(String message) {
        super(message);
    }

    public UserDataException(String message, Throwable cause) {
        super(message, cause);
    }
}
