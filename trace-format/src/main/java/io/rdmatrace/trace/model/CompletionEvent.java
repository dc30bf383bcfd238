package io.rdmatrace.trace.model;

import java.util.Objects;

/**
 * One work completion returned by {@code ibv_poll_cq}. The poll call itself is a separate
 * {@link CallEvent}; its completions follow it in sequence order.
 *
 * @param cq handle of the CQ it was polled from
 */
public record CompletionEvent(EventHeader header, long cq, Wc wc) implements TraceEvent {
    public CompletionEvent {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(wc, "wc");
    }

    @Override
    public EventKind kind() {
        return EventKind.COMPLETION;
    }
}
