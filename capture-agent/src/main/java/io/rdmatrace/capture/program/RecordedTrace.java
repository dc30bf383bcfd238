package io.rdmatrace.capture.program;

import io.rdmatrace.trace.model.TraceEnding;
import java.nio.file.Path;

/**
 * How one recorded process's trace ended.
 *
 * @param folder    the trace folder, null when the process never opened a device (no trace)
 * @param pid       the process
 * @param events    events written after the SESSION
 * @param dropped   records the tracer could not put in its ring (full): they are missing from the trace
 * @param ending    what its END says, or null when the trace has no END (TRUNCATED)
 * @param writeFailure one sentence when the trace could not be written to its end (a full disk):
 *                  the program ran on unrecorded and the trace ends TRUNCATED; else null
 */
public record RecordedTrace(Path folder, long pid, long events, long dropped, TraceEnding ending, String writeFailure) {
    /** The trace has no END. */
    public boolean truncated() {
        return ending == null;
    }
}
