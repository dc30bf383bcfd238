package io.rdmatrace.verbs;

/**
 * How one libibverbs call ended: its raw return value, the errno it reported, and its
 * duration, measured in C with CLOCK_MONOTONIC around the libibverbs call alone.
 *
 * <p>{@code errno} follows the verb's own convention (rdma-facts §2.14): for verbs that return
 * 0 or a positive errno (modify_qp, destroy_*, post_send…) it is that value; for verbs that
 * return NULL (create_*, reg_mr, alloc_pd…) or a negative count (poll_cq) it is C's errno.
 * It is 0 on success.
 *
 * @param ret           the return value as C saw it (0 or -1 for pointer-returning verbs)
 * @param errno         the error number, 0 on success
 * @param errnoName     the symbolic name ("EINVAL"), empty on success
 * @param durationNanos time spent inside libibverbs, in nanoseconds
 */
public record CallStatus(long ret, int errno, String errnoName, long durationNanos) {

    public CallStatus {
        if (errnoName == null) {
            throw new IllegalArgumentException("errnoName must not be null (use \"\")");
        }
    }

    static CallStatus of(long ret, int errno, long durationNanos) {
        return new CallStatus(ret, errno, Errno.name(errno), durationNanos);
    }

    public boolean ok() {
        return errno == 0 && ret >= 0;
    }

    /** "ok" or "EINVAL (22, Invalid argument)". */
    public String describe() {
        return ok() ? "ok" : errnoName + " (" + errno + ", " + Errno.description(errno) + ")";
    }

    /** Throws {@link VerbsCallException} naming {@code verb} unless the call succeeded. */
    public CallStatus orThrow(String verb) {
        if (!ok()) {
            throw new VerbsCallException(verb, this);
        }
        return this;
    }
}
