package io.rdmatrace.verbs;

/**
 * A verb was asked of an object that is already destroyed (e.g. a second {@code dereg}); the
 * binding refuses instead of passing a freed pointer to libibverbs.
 */
public final class ResourceClosedException extends VerbsException {
    private static final long serialVersionUID = 1L;

    public ResourceClosedException(String what, String verb) {
        super(verb + " on " + what + " that is already destroyed");
    }
}
