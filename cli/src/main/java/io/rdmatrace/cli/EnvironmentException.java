package io.rdmatrace.cli;

/** This machine cannot run the job as asked (no RDMA device, no libibverbs, unusable path): exit 2, message only. */
public class EnvironmentException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public EnvironmentException(String message) {
        super(message);
    }

    public EnvironmentException(String message, Throwable cause) {
        super(message, cause);
    }
}
