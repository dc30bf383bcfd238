package io.rdmatrace.trace.model;

import java.util.Objects;

/**
 * The last event of a cleanly closed trace. A trace without it was cut short (process killed,
 * disk full) and reads as TRUNCATED.
 *
 * @param eventCount number of events written before this one (so {@code seq == eventCount})
 * @param ending     how the recording ended (format 1.4; {@link TraceEnding#UNSTATED} before)
 */
public record EndEvent(EventHeader header, long eventCount, TraceEnding ending) implements TraceEvent {
    public EndEvent {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(ending, "ending");
    }

    /** An END that says nothing of how the recording ended (as format 1.3 wrote it). */
    public EndEvent(EventHeader header, long eventCount) {
        this(header, eventCount, TraceEnding.UNSTATED);
    }

    @Override
    public EventKind kind() {
        return EventKind.END;
    }
}
