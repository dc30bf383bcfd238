package io.rdmatrace.capture.program;

import io.rdmatrace.trace.TraceEnding;
import java.nio.file.Path;

/**
 * How one recorded process's trace ended.
 *
 * @param folder    the trace folder, null when the process never opened a device (no trace)
 * @param pid       the process
 * @param events    events written after the SESSION
 * @param dropped   records the tracer could not put in its ring (full): they are missing from the trace
 * @param ending    what its END says, or null when the trace has no END (TRUNCATED)
 */
public record RecordedTrace(Path folder, long pid, long events, long dropped, TraceEnding ending) {
    /** The trace has no END. */
    public boolean truncated() {
        return ending == null;
    }
}
