package io.rdmatrace.capture.program;

import java.nio.file.Path;

/**
 * How one recorded process's trace ended.
 *
 * @param folder    the trace folder, null when the process never opened a device (no trace)
 * @param pid       the process
 * @param events    events written after the SESSION
 * @param dropped   records the tracer could not put in its ring (full): they are missing from the trace
 * @param truncated the process died before its exit handlers ran: the trace has no END
 */
public record RecordedTrace(Path folder, long pid, long events, long dropped, boolean truncated) {
}
