package io.rdmatrace.verbs;

/** A libibverbs call failed; the exception keeps its ret, errno and duration. */
public final class VerbsCallException extends VerbsException {
    private static final long serialVersionUID = 1L;

    private final String verb;
    private final transient CallStatus status;

    public VerbsCallException(String verb, CallStatus status) {
        super(verb + " failed: " + status.describe() + ", ret " + status.ret() + ", after "
                + status.durationNanos() + " ns");
        this.verb = verb;
        this.status = status;
    }

    /** The libibverbs function, e.g. {@code ibv_modify_qp}. */
    public String verb() {
        return verb;
    }

    public CallStatus status() {
        return status;
    }

    public int errno() {
        return status.errno();
    }
}
