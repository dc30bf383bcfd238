package io.rdmatrace.trace;

import java.util.Objects;

/**
 * One libibverbs call, recorded after it returned.
 *
 * @param verb          the function called
 * @param handle        the object the call is about: the object created (create/alloc/reg/open; 0
 *                      when creation failed) or else the object passed as first argument
 * @param ret           the C return value as the recorder reports it: 0 / positive errno for
 *                      int-returning verbs, the count for ibv_poll_cq, 0 / -1 for pointer-returning
 *                      verbs (NULL → -1)
 * @param errno         errno after the call (0 when not set); its name is {@link ErrnoNames#name(int)}
 * @param durationNanos duration of the call measured in C around the libibverbs call
 * @param in            the arguments
 * @param out           what the call returned through pointers (created caps, queried attributes, …)
 */
public record CallEvent(EventHeader header, Verb verb, long handle, int ret, int errno, long durationNanos,
                        Attrs in, Attrs out) implements TraceEvent {
    public CallEvent {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(verb, "verb");
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(out, "out");
    }

    @Override
    public EventKind kind() {
        return EventKind.CALL;
    }

    /** errno as a symbol, e.g. {@code EINVAL}. */
    public String errnoName() {
        return ErrnoNames.name(errno);
    }
}
