package io.rdmatrace.trace;

import java.util.Objects;

/**
 * The last event of a cleanly closed trace. A trace without it was cut short (process killed,
 * disk full) and reads as TRUNCATED.
 *
 * @param eventCount number of events written before this one (so {@code seq == eventCount})
 */
public record EndEvent(EventHeader header, long eventCount) implements TraceEvent {
    public EndEvent {
        Objects.requireNonNull(header, "header");
    }

    @Override
    public EventKind kind() {
        return EventKind.END;
    }
}
