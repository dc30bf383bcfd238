package io.rdmatrace.verbs;

/** Everything the verbs binding throws on purpose. */
public abstract sealed class VerbsException extends RuntimeException
        permits VerbsCallException, VerbsUnavailableException, ResourceClosedException {
    private static final long serialVersionUID = 1L;

    VerbsException(String message) {
        super(message);
    }
}
