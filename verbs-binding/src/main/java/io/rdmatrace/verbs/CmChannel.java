package io.rdmatrace.verbs;

import java.time.Duration;

/** {@code struct rdma_event_channel}: makes ids and hands out their events. */
public final class CmChannel {
    private final RdmaCm cm;
    private long handle;

    CmChannel(RdmaCm cm, long handle) {
        this.cm = cm;
        this.handle = handle;
    }

    public long handle() {
        return handle;
    }

    /** rdma_create_id with this channel, no context. */
    public Outcome<CmId> tryCreateId(int portSpace) {
        CallBuffer io = CallBuffer.acquire(CmSlots.CALL_BLOCK);
        long id = RdmaCm.createId0(cm.live(), live(), portSpace, io.address());
        CallStatus status = cm.finish(io);
        return Codec.outcome("rdma_create_id", id != 0 ? new CmId(cm, id) : null, status);
    }

    /**
     * The next event, waiting up to {@code timeout}; null when none came. The event must be acked
     * ({@link #ack}); a CONNECT_REQUEST's new id is {@link #idOf}. Throws {@link VerbsCallException}
     * when rdma_get_cm_event fails.
     */
    public RdmaCmEvent next(Duration timeout) {
        CallBuffer io = CallBuffer.acquire(CmSlots.EVENT_BLOCK);
        long ev = RdmaCm.getCmEvent0(cm.live(), live(), Codec.timeoutMillis(timeout), io.address());
        if (ev != 0) {
            return cm.event(io, ev);
        }
        CallStatus status = io.status();
        if (status.ok()) {
            return null; // timed out: nothing was called, nothing to record
        }
        cm.finish(io);
        throw new VerbsCallException("rdma_get_cm_event", status);
    }

    /** rdma_ack_cm_event. */
    public CallStatus ack(RdmaCmEvent event) {
        if (event.handle() == 0) {
            throw new IllegalArgumentException("a decoded event cannot be acknowledged");
        }
        CallBuffer io = CallBuffer.acquire(CmSlots.CALL_BLOCK);
        RdmaCm.ackCmEvent0(cm.live(), event.handle(), io.address());
        return cm.finish(io);
    }

    /** The id an event is about (for CONNECT_REQUEST the new one the request made). */
    public CmId idOf(RdmaCmEvent event) {
        return new CmId(cm, event.id());
    }

    /** rdma_destroy_event_channel (its ids must be destroyed first). */
    public CallStatus destroy() {
        CallBuffer io = CallBuffer.acquire(CmSlots.CALL_BLOCK);
        RdmaCm.destroyEventChannel0(cm.live(), live(), io.address());
        handle = 0;
        return cm.finish(io);
    }

    public boolean isDestroyed() {
        return handle == 0;
    }

    private long live() {
        if (handle == 0) {
            throw new ResourceClosedException("an rdma_cm event channel", "a librdmacm call");
        }
        return handle;
    }
}
