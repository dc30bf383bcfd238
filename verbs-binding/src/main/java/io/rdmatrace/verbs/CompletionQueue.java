package io.rdmatrace.verbs;

import java.util.concurrent.atomic.AtomicInteger;

/** {@code struct ibv_cq}: poll it into a reusable {@link CompletionBatch}. */
public final class CompletionQueue extends VerbsResource {
    private final int cqe;
    private final CompletionChannel channel;
    private final AtomicInteger unackedEvents = new AtomicInteger();

    CompletionQueue(Context context, long handle, int cqe, CompletionChannel channel, CallStatus status) {
        super(context, handle, status);
        this.cqe = cqe;
        this.channel = channel;
        if (channel != null) {
            channel.attach(this);
        }
    }

    /** The number of entries the provider actually gave (cq->cqe, often more than asked). */
    public int cqe() {
        return cqe;
    }

    /** The completion channel, or null. */
    public CompletionChannel channel() {
        return channel;
    }

    /**
     * {@code ibv_poll_cq} into {@code batch} (up to its capacity); returns the count, negative on
     * failure. Does not allocate: read the batch's indexed getters.
     */
    public int poll(CompletionBatch batch) {
        long cq = live("ibv_poll_cq");
        int n = poll0(cq, batch.address(), batch.scratch(), batch.capacity());
        VerbsListener l = context.listener();
        if (l != null) {
            l.onPollCq(this, batch);
        }
        return n;
    }

    /** Arms the CQ: the next completion (or next solicited one) raises an event on the channel. */
    public CallStatus reqNotify(boolean solicitedOnly) {
        return tryReqNotify(solicitedOnly).orThrow("ibv_req_notify_cq");
    }

    public CallStatus tryReqNotify(boolean solicitedOnly) {
        long cq = live("ibv_req_notify_cq");
        CallBuffer io = CallBuffer.acquire(0);
        reqNotify0(cq, solicitedOnly, io.address());
        CallStatus status = io.status();
        if (context.observed()) {
            context.emit(new VerbCall.ReqNotifyCq(cq, solicitedOnly, status));
        }
        return status;
    }

    void eventReceived() {
        unackedEvents.incrementAndGet();
    }

    /** CQ events received on the channel and not acknowledged yet. */
    public int unackedEvents() {
        return unackedEvents.get();
    }

    /** {@code ibv_ack_cq_events(cq, count)}. */
    public CallStatus ackEvents(int count) {
        long cq = live("ibv_ack_cq_events");
        if (count < 0 || count > unackedEvents.get()) {
            throw new IllegalArgumentException("cannot ack " + count + " events; " + unackedEvents.get()
                    + " are unacknowledged");
        }
        CallBuffer io = CallBuffer.acquire(0);
        ackEvents0(context.lib(), cq, count, io.address());
        CallStatus status = io.status();
        unackedEvents.addAndGet(-count);
        if (context.observed()) {
            context.emit(new VerbCall.AckCqEvents(cq, count, status));
        }
        return status;
    }

    /** ibv_destroy_cq waits for every event to be acked; ack the rest so it cannot hang. */
    @Override
    void beforeDestroy() {
        int pending = unackedEvents.get();
        if (pending > 0) {
            ackEvents(pending);
        }
    }

    @Override
    void afterDestroy() {
        if (channel != null) {
            channel.detach(id());
        }
    }

    @Override
    String describe() {
        return "completion queue 0x" + Long.toHexString(id());
    }

    @Override
    String destroyVerb() {
        return "ibv_destroy_cq";
    }

    @Override
    void destroyNative(long lib, long handle, long io) {
        destroy0(lib, handle, io);
    }

    @Override
    VerbCall destroyRecord(long handle, CallStatus status) {
        return new VerbCall.DestroyCq(handle, status);
    }

    private static native void destroy0(long lib, long cq, long io);

    private static native void reqNotify0(long cq, boolean solicitedOnly, long io);

    private static native void ackEvents0(long lib, long cq, int count, long io);

    private static native int poll0(long cq, long batch, long scratch, int capacity);
}
