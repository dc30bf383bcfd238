package io.rdmatrace.verbs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One loaded librdmacm, reached through a dlopen'ed function table as {@link Verbs} reaches
 * libibverbs: event channels ({@link CmChannel}), ids ({@link CmId}) and their calls. Open it after
 * the {@link Verbs} whose devices it is to serve (its libibverbs dependency binds to that one by
 * soname). Every call and every event taken is given to the {@link CmListener}, as C recorded it.
 * Not thread-safe: one thread drives the CM (as the capture agent does). Closing it does not unload
 * the library (see {@link #close}).
 */
public final class RdmaCm implements AutoCloseable {
    /** enum rdma_port_space. */
    public static final int PS_TCP = 0x0106;
    public static final int PS_UDP = 0x0111;

    static {
        JniLibrary.ensureLoaded();
        CmSlots.verify(layoutNames0());
    }

    private final CmLibrary library;
    private final String loadedPath;
    private final CmListener listener;
    /** QPs the program attached to ids itself (conn_param.qp_num), so the ids' events name them. */
    private final Map<Long, Integer> ownQps = new ConcurrentHashMap<>();
    private long cm;

    private RdmaCm(CmLibrary library, long cm, CmListener listener) {
        this.library = library;
        this.cm = cm;
        this.listener = listener;
        this.loadedPath = loadedPath0(cm);
    }

    /** Loads the library; {@link VerbsUnavailableException} when dlopen fails or it is no librdmacm. */
    public static RdmaCm open(CmLibrary library, CmListener listener) {
        String target;
        try {
            target = library.resolveForDlopen();
        } catch (IOException e) {
            throw VerbsUnavailableException.libraryNotLoaded(library.describe(), e.getMessage());
        }
        String[] error = new String[1];
        long handle = open0(target, error);
        if (handle == 0) {
            throw VerbsUnavailableException.libraryNotLoaded(library.describe(),
                    error[0] != null ? error[0] : "dlopen failed");
        }
        return new RdmaCm(library, handle, listener);
    }

    public CmLibrary library() {
        return library;
    }

    public String loadedPath() {
        return loadedPath;
    }

    /** rdma_create_event_channel. */
    public Outcome<CmChannel> tryCreateEventChannel() {
        CallBuffer io = CallBuffer.acquire(CmSlots.CALL_BLOCK);
        long ch = createEventChannel0(live(), io.address());
        CallStatus status = finish(io);
        return Codec.outcome("rdma_create_event_channel", ch != 0 ? new CmChannel(this, ch) : null, status);
    }

    long live() {
        if (cm == 0) {
            throw new ResourceClosedException("librdmacm " + library.describe(), "a librdmacm call");
        }
        return cm;
    }

    void attachQp(long id, int qpNum) {
        ownQps.put(id, qpNum);
    }

    void forget(long id) {
        ownQps.remove(id);
    }

    /** The status of the call in {@code io}, after handing its CM_CALL block to the listener. */
    CallStatus finish(CallBuffer io) {
        return finish(io, 0);
    }

    /** As {@link #finish(CallBuffer)} for a call block {@code offset} slots into the payload. */
    CallStatus finish(CallBuffer io, int offset) {
        CallStatus status = io.status();
        if (listener != null) {
            listener.onCmCall(RdmaCmCall.decode(io.slots(), (Slots.PAYLOAD + offset) * 8, status.ret(), status.errno(),
                    status.durationNanos()));
        }
        return status;
    }

    /** The event in {@code io} (taken at {@code monoNanos}), handed to the listener. */
    RdmaCmEvent event(CallBuffer io, long handle) {
        ByteBuffer b = io.slots();
        CallStatus status = io.status();
        RdmaCmEvent e = RdmaCmEvent.decode(b, Slots.PAYLOAD * 8, io.extra(), status.durationNanos(), handle);
        Integer own = e.qpNum() < 0 ? ownQps.get(e.id()) : null;
        if (own != null) {
            e = e.withQpNum(Integer.toUnsignedLong(own));
        }
        if (listener != null) {
            listener.onCmEvent(e);
        }
        return e;
    }

    /**
     * Ends this handle's use. The library itself stays loaded: a librdmacm keeps a thread and the
     * devices it opened for the life of the process, and unloading its code under them would crash
     * (each open of the same file returns the same loaded copy).
     */
    @Override
    public void close() {
        cm = 0;
    }

    static native long open0(String path, String[] errorOut);

    static native String loadedPath0(long cm);

    static native String layoutNames0();

    static native long createEventChannel0(long cm, long io);

    static native void destroyEventChannel0(long cm, long channel, long io);

    static native long createId0(long cm, long channel, int portSpace, long io);

    static native void destroyId0(long cm, long id, long io);

    static native void bindAddr0(long cm, long id, String ip, int port, long io);

    static native void resolveAddr0(long cm, long id, String srcIp, String dstIp, int port, int timeoutMs, long io);

    static native void resolveRoute0(long cm, long id, int timeoutMs, long io);

    static native void listen0(long cm, long id, int backlog, long io);

    static native void connect0(long cm, long id, boolean accept, int responderResources, int initiatorDepth,
                                int retryCount, int rnrRetryCount, int qpNum, byte[] privateData, long io);

    static native void reject0(long cm, long id, byte[] privateData, long io);

    static native void establish0(long cm, long id, boolean disconnect, long io);

    static native long getCmEvent0(long cm, long channel, int timeoutMs, long io);

    static native void ackCmEvent0(long cm, long event, long io);

    static native void initQpAttr0(long cm, long id, int state, long io);
}
