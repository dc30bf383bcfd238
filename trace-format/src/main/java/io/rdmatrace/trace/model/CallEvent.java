package io.rdmatrace.trace.model;

import io.rdmatrace.trace.names.ErrnoNames;

import java.util.List;
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
 * @param in            the arguments; for a post, the first work request and its first SGE, the
 *                      QP number and {@link Attr#WR_COUNT}
 * @param out           what the call returned through pointers (created caps, queried attributes, …)
 * @param wrs           the whole posted chain, every request with all its SGEs — present (non-empty)
 *                      only for a post that {@code in} cannot describe alone: more than one request,
 *                      or a request with more than one SGE (format 1.1). Use {@link #workRequests()}.
 */
public record CallEvent(EventHeader header, Verb verb, long handle, int ret, int errno, long durationNanos,
                        Attrs in, Attrs out, List<WorkRequest> wrs) implements TraceEvent {
    public CallEvent {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(verb, "verb");
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(out, "out");
        wrs = wrs == null || wrs.isEmpty() ? List.of() : List.copyOf(wrs);
    }

    /** A call without a work-request chain. */
    public CallEvent(EventHeader header, Verb verb, long handle, int ret, int errno, long durationNanos,
                     Attrs in, Attrs out) {
        this(header, verb, handle, ret, errno, durationNanos, in, out, List.of());
    }

    @Override
    public EventKind kind() {
        return EventKind.CALL;
    }

    /** errno as a symbol, e.g. {@code EINVAL}. */
    public String errnoName() {
        return ErrnoNames.name(errno);
    }

    /**
     * Every work request this post passed, as far as the trace knows: the chain when recorded, else
     * the one request {@code in} describes (a format-1.0 trace of a longer list knows only its first
     * request; {@link Attr#WR_COUNT} says how many there were). Empty for non-post calls and for a
     * post of an empty list.
     */
    public List<WorkRequest> workRequests() {
        if (!wrs.isEmpty()) {
            return wrs;
        }
        if (!WorkRequest.isPost(verb) || in.get(Attr.WR_COUNT, 1) == 0) {
            return List.of();
        }
        return List.of(WorkRequest.fromPostInputs(in));
    }
}
