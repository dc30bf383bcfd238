package io.rdmatrace.trace.model;

import java.util.List;
import java.util.Objects;

/**
 * A snapshot of a device's counters (hw_counters / softverbs counters) at the start or end of
 * a capture.
 */
public record CountersEvent(EventHeader header, String device, Phase phase, List<Counter> counters)
        implements TraceEvent {
    public CountersEvent {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(phase, "phase");
        counters = List.copyOf(counters);
    }

    @Override
    public EventKind kind() {
        return EventKind.COUNTERS;
    }

    /** One named counter value. */
    public record Counter(String name, long value) {
        public Counter {
            Objects.requireNonNull(name, "name");
        }
    }

    /** Codes are on-disk: never renumber. */
    public enum Phase {
        START(1), END(2);

        private final int code;

        Phase(int code) {
            this.code = code;
        }

        public int code() {
            return code;
        }

        public static Phase byCode(int code) {
            for (Phase p : values()) {
                if (p.code == code) {
                    return p;
                }
            }
            return null;
        }
    }
}
