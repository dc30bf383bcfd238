package io.rdmatrace.analyzer.load.bundle;

/** A bundle that cannot be read or written: the message names the file and what is wrong. */
public class BundleException extends Exception {
    private static final long serialVersionUID = 1L;

    public BundleException(String message) {
        super(message);
    }

    public BundleException(String message, Throwable cause) {
        super(message, cause);
    }
}
