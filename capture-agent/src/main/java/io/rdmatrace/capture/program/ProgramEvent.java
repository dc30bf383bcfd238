package io.rdmatrace.capture.program;

import io.rdmatrace.capture.record.CallMapper;
import io.rdmatrace.trace.model.Wc;

/** One trace event decoded from the ring, with the time and thread it happened at in the program. */
sealed interface ProgramEvent {
    long monoNanos();

    long tid();

    record Call(long monoNanos, long tid, CallMapper.Mapped call) implements ProgramEvent {
    }

    record Completion(long monoNanos, long tid, long cq, Wc wc) implements ProgramEvent {
    }

    /** An event rdma_get_cm_event returned (trace event CM_EVENT). */
    record Cm(long monoNanos, long tid, int eventType, int status, long id, io.rdmatrace.trace.model.Attrs attrs)
            implements ProgramEvent {
    }

    record Async(long monoNanos, long tid, int eventType, long element, int qpNum) implements ProgramEvent {
    }
}
