package io.rdmatrace.verbs;

/**
 * {@code struct ibv_qp}: modify with a typed {@link QpAttr} + {@link QpAttrMask}, query every
 * attribute, and post work requests from reusable batches.
 */
public final class QueuePair extends VerbsResource {
    /** Every mask bit ibv_query_qp understands. */
    public static final QpAttrMask ALL_ATTRIBUTES = QpAttrMask.of(QpAttrField.values());

    private final ProtectionDomain pd;
    private final QpInitAttr init;
    private final QpCap granted;
    private final int qpNum;

    QueuePair(Context context, long handle, CallStatus status, ProtectionDomain pd, QpInitAttr init, QpCap granted,
              int qpNum) {
        super(context, handle, status);
        this.pd = pd;
        this.init = init;
        this.granted = granted;
        this.qpNum = qpNum;
    }

    public int qpNum() {
        return qpNum;
    }

    public QpType qpType() {
        return init.qpType();
    }

    public ProtectionDomain pd() {
        return pd;
    }

    /** The attributes it was created with. */
    public QpInitAttr initAttr() {
        return init;
    }

    /** The capabilities ibv_create_qp actually granted (often above the request). */
    public QpCap cap() {
        return granted;
    }

    /** {@code ibv_modify_qp}; throws {@link VerbsCallException} (e.g. EINVAL) on failure. */
    public CallStatus modify(QpAttr attr, QpAttrMask mask) {
        return tryModify(attr, mask).orThrow("ibv_modify_qp");
    }

    /** Modifies with the fields set on {@code builder} and exactly their mask. */
    public CallStatus modify(QpAttr.Builder builder) {
        return modify(builder.build(), builder.mask());
    }

    /** {@code ibv_modify_qp} with the failure as a value: an illegal transition returns EINVAL here. */
    public CallStatus tryModify(QpAttr attr, QpAttrMask mask) {
        long qp = live("ibv_modify_qp");
        CallBuffer io = CallBuffer.acquire(Slots.QA_BLOCK);
        Codec.writeQpAttr(io, attr);
        modify0(context.lib(), qp, mask.bits(), io.address());
        CallStatus status = io.status();
        if (context.observed()) {
            context.emit(new VerbCall.ModifyQp(qp, qpNum, attr, mask, status));
        }
        return status;
    }

    /** {@code ibv_query_qp} of every attribute. */
    public QpQuery query() {
        return tryQuery(ALL_ATTRIBUTES).orThrow();
    }

    public QpQuery query(QpAttrMask mask) {
        return tryQuery(mask).orThrow();
    }

    public Outcome<QpQuery> tryQuery(QpAttrMask mask) {
        long qp = live("ibv_query_qp");
        // query0 writes every slot it answers (the structs are zeroed in C): nothing to clear first
        CallBuffer io = CallBuffer.acquire(0);
        query0(context.lib(), qp, mask.bits(), io.address());
        CallStatus status = io.status();
        QpQuery result = null;
        if (status.ok()) {
            result = QpQuery.answer(io, io.copyBytes(0, Slots.QA_BLOCK), mask);
        }
        if (context.observed()) {
            context.emit(new VerbCall.QueryQp(qp, qpNum, mask, result, status));
        }
        return Codec.outcome("ibv_query_qp", result, status);
    }

    /**
     * {@code ibv_query_qp} into {@code into}, which keeps the answer until the next query: returns
     * 0 or the errno, as {@link #postSend} does. Allocates nothing; a listener is handed the buffer
     * ({@link VerbsListener#onQueryQp}, which by default copies it into the call {@link #tryQuery} reports).
     */
    public int query(QpAttrMask mask, QpQueryBuffer into) {
        long qp = live("ibv_query_qp");
        // query0 writes the status and every slot it answers (the structs are zeroed in C)
        query0(context.lib(), qp, mask.bits(), into.begin(mask));
        into.answered();
        VerbsListener l = context.listener();
        if (l != null) {
            l.onQueryQp(this, into);
        }
        return into.errno();
    }

    /** The query as {@link #tryQuery} makes it, minus decoding and listener (for {@link NativeLoops}). */
    long queryUndecoded(QpAttrMask mask) {
        long qp = live("ibv_query_qp");
        CallBuffer io = CallBuffer.acquire(0);
        query0(context.lib(), qp, mask.bits(), io.address());
        return io.ret();
    }

    /** The state libibverbs caches in {@code qp->state} (updated by successful modifies). */
    public QpState cachedState() {
        return QpState.of(cachedState0(live("qp->state")));
    }

    /**
     * {@code ibv_post_send} of every request in {@code batch}. Returns 0 or the errno; the batch
     * then holds ret, errno, duration and the index of the first rejected request.
     */
    public int postSend(SendBatch batch) {
        long qp = live("ibv_post_send");
        int ret = postSend0(qp, batch.address(), batch.scratch(), batch.maxWr(), batch.maxSge());
        VerbsListener l = context.listener();
        if (l != null) {
            l.onPostSend(this, batch);
        }
        return ret;
    }

    /** {@code ibv_post_recv}; as {@link #postSend}. */
    public int postRecv(RecvBatch batch) {
        long qp = live("ibv_post_recv");
        int ret = postRecv0(qp, batch.address(), batch.scratch(), batch.maxWr(), batch.maxSge());
        VerbsListener l = context.listener();
        if (l != null) {
            l.onPostRecv(this, batch);
        }
        return ret;
    }

    @Override
    String describe() {
        return "queue pair 0x" + Integer.toHexString(qpNum);
    }

    @Override
    String destroyVerb() {
        return "ibv_destroy_qp";
    }

    @Override
    void destroyNative(long lib, long handle, long io) {
        destroy0(lib, handle, io);
    }

    @Override
    VerbCall destroyRecord(long handle, CallStatus status) {
        return new VerbCall.DestroyQp(handle, qpNum, status);
    }

    private static native void modify0(long lib, long qp, int mask, long io);

    private static native void query0(long lib, long qp, int mask, long io);

    private static native void destroy0(long lib, long qp, long io);

    private static native int cachedState0(long qp);

    private static native int postSend0(long qp, long batch, long scratch, int maxWr, int maxSge);

    private static native int postRecv0(long qp, long batch, long scratch, int maxWr, int maxSge);
}
