package io.rdmatrace.capture.program;

import io.rdmatrace.capture.record.CallMapper;
import io.rdmatrace.capture.record.CmAttrs;
import io.rdmatrace.tracer.RingRecord;
import io.rdmatrace.verbs.RdmaCmCall;
import io.rdmatrace.verbs.RdmaCmEvent;

/**
 * The tracing librdmacm's records as trace events: an RDMA_CALL becomes a CALL of its {@code rdma_*}
 * verb, an RDMA_CM_EVENT a {@link ProgramEvent.Cm}. The ring holds the same blocks the capture agent's
 * JNI layer fills ({@link io.rdmatrace.verbs.CmSlots}); {@link CmAttrs} maps both.
 */
final class CmMapper {
    private static final int PAYLOAD_BYTES = RingRecord.PAYLOAD * 8;

    private CmMapper() {
    }

    /** The CALL of an RDMA_CALL record, or null for a function this build does not know. */
    static CallMapper.Mapped call(RingRecord r) {
        return CmAttrs.call(RdmaCmCall.decode(r.slots(), PAYLOAD_BYTES, r.ret(), r.errno(), r.durationNanos()), r.handle());
    }

    /** The CM event of an RDMA_CM_EVENT record. */
    static ProgramEvent.Cm event(RingRecord r, long tid) {
        RdmaCmEvent e = RdmaCmEvent.decode(r.slots(), PAYLOAD_BYTES, r.monoNanos(), r.durationNanos(), 0);
        return new ProgramEvent.Cm(r.monoNanos(), tid, e.event(), e.status(), e.id(), CmAttrs.event(e));
    }
}
