package io.rdmatrace.verbs;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code struct ibv_comp_channel}: where CQs armed with {@link CompletionQueue#reqNotify} signal
 * new completions. {@link #getCqEvent} waits with a timeout; the CQ counts the event until
 * {@link CompletionQueue#ackEvents} (destroying the CQ acks what is left).
 */
public final class CompletionChannel extends VerbsResource {
    private final int fd;
    private final Map<Long, CompletionQueue> queues = new ConcurrentHashMap<>();

    CompletionChannel(Context context, long handle, int fd, CallStatus status) {
        super(context, handle, status);
        this.fd = fd;
    }

    /** The channel's file descriptor (for your own poll/epoll). */
    public int fd() {
        return fd;
    }

    void attach(CompletionQueue cq) {
        queues.put(cq.handle(), cq);
    }

    void detach(long cqHandle) {
        queues.remove(cqHandle);
    }

    /** Waits up to {@code timeout} for one CQ event; empty on timeout. */
    public Optional<CqEvent> getCqEvent(Duration timeout) {
        return tryGetCqEvent(timeout).orThrow();
    }

    public Outcome<Optional<CqEvent>> tryGetCqEvent(Duration timeout) {
        long ch = live("ibv_get_cq_event");
        CallBuffer io = CallBuffer.acquire(0);
        long cq = getCqEvent0(context.lib(), ch, Codec.timeoutMillis(timeout), io.address());
        CallStatus status = io.status();
        CqEvent event = null;
        if (io.extra() == 1) {
            CompletionQueue queue = queues.get(cq);
            if (queue == null) {
                throw new IllegalStateException("CQ event for unknown CQ 0x" + Long.toHexString(cq));
            }
            queue.eventReceived();
            event = new CqEvent(queue);
        }
        if (context.observed()) {
            context.emit(new VerbCall.GetCqEvent(ch, cq, status));
        }
        return Codec.outcome("ibv_get_cq_event", status.ok() ? Optional.ofNullable(event) : null, status);
    }

    @Override
    String describe() {
        return "completion channel fd " + fd;
    }

    @Override
    String destroyVerb() {
        return "ibv_destroy_comp_channel";
    }

    @Override
    void destroyNative(long lib, long handle, long io) {
        destroy0(lib, handle, io);
    }

    @Override
    VerbCall destroyRecord(long handle, CallStatus status) {
        return new VerbCall.DestroyCompChannel(handle, status);
    }

    private static native void destroy0(long lib, long channel, long io);

    private static native long getCqEvent0(long lib, long channel, int timeoutMs, long io);
}
