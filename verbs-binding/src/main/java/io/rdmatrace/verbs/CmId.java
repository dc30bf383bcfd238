package io.rdmatrace.verbs;

/**
 * {@code struct rdma_cm_id}: addresses, routes, connections. Each call returns its status (librdmacm's
 * -1 and errno); the answers come as events on the channel. Its QP is one the program made with
 * ibv_create_qp and names in {@link CmConnParam#qpNum}; rdma_init_qp_attr gives the attributes to
 * move it with ({@link #tryInitQpAttr}).
 */
public final class CmId {
    private final RdmaCm cm;
    private long handle;

    CmId(RdmaCm cm, long handle) {
        this.cm = cm;
        this.handle = handle;
    }

    public long handle() {
        return handle;
    }

    public CallStatus bind(String ip, int port) {
        CallBuffer io = CallBuffer.acquire(CmSlots.CALL_BLOCK);
        RdmaCm.bindAddr0(cm.live(), live(), ip, port, io.address());
        return cm.finish(io);
    }

    /** rdma_resolve_addr from {@code srcIp} (null: the CM chooses) to dstIp:port. */
    public CallStatus resolveAddr(String srcIp, String dstIp, int port, int timeoutMs) {
        CallBuffer io = CallBuffer.acquire(CmSlots.CALL_BLOCK);
        RdmaCm.resolveAddr0(cm.live(), live(), srcIp, dstIp, port, timeoutMs, io.address());
        return cm.finish(io);
    }

    public CallStatus resolveRoute(int timeoutMs) {
        CallBuffer io = CallBuffer.acquire(CmSlots.CALL_BLOCK);
        RdmaCm.resolveRoute0(cm.live(), live(), timeoutMs, io.address());
        return cm.finish(io);
    }

    public CallStatus listen(int backlog) {
        CallBuffer io = CallBuffer.acquire(CmSlots.CALL_BLOCK);
        RdmaCm.listen0(cm.live(), live(), backlog, io.address());
        return cm.finish(io);
    }

    public CallStatus connect(CmConnParam p) {
        return connectOrAccept(false, p);
    }

    public CallStatus accept(CmConnParam p) {
        return connectOrAccept(true, p);
    }

    private CallStatus connectOrAccept(boolean accept, CmConnParam p) {
        cm.attachQp(live(), p.qpNum());
        CallBuffer io = CallBuffer.acquire(CmSlots.CALL_BLOCK);
        RdmaCm.connect0(cm.live(), live(), accept, p.responderResources(), p.initiatorDepth(), p.retryCount(),
                p.rnrRetryCount(), p.qpNum(), p.privateData(), io.address());
        return cm.finish(io);
    }

    public CallStatus reject(byte[] privateData) {
        CallBuffer io = CallBuffer.acquire(CmSlots.CALL_BLOCK);
        RdmaCm.reject0(cm.live(), live(), privateData, io.address());
        return cm.finish(io);
    }

    /** rdma_establish: the active side's RTU after CONNECT_RESPONSE (an id without a QP). */
    public CallStatus establish() {
        CallBuffer io = CallBuffer.acquire(CmSlots.CALL_BLOCK);
        RdmaCm.establish0(cm.live(), live(), false, io.address());
        return cm.finish(io);
    }

    public CallStatus disconnect() {
        CallBuffer io = CallBuffer.acquire(CmSlots.CALL_BLOCK);
        RdmaCm.establish0(cm.live(), live(), true, io.address());
        return cm.finish(io);
    }

    /** rdma_init_qp_attr for {@code state}: what the CM says the QP needs to get there. */
    public Outcome<CmQpAttr> tryInitQpAttr(QpState state) {
        CallBuffer io = CallBuffer.acquire(CmSlots.CALL_BLOCK + Slots.QA_BLOCK);
        RdmaCm.initQpAttr0(cm.live(), live(), state.value(), io.address());
        CallStatus status = cm.finish(io);
        CmQpAttr result = null;
        if (status.ok()) {
            QpAttr attr = Codec.readQpAttr(new Shifted(io, CmSlots.CALL_BLOCK));
            int mask = (int) io.get(CmSlots.Call.A1.ordinal());
            result = new CmQpAttr(attr, QpAttrMask.ofBits(mask));
        }
        return Codec.outcome("rdma_init_qp_attr", result, status);
    }

    /** rdma_destroy_id (its events must be acked first). */
    public CallStatus destroy() {
        long id = live();
        CallBuffer io = CallBuffer.acquire(CmSlots.CALL_BLOCK);
        RdmaCm.destroyId0(cm.live(), id, io.address());
        cm.forget(id);
        handle = 0;
        return cm.finish(io);
    }

    public boolean isDestroyed() {
        return handle == 0;
    }

    private long live() {
        if (handle == 0) {
            throw new ResourceClosedException("an rdma_cm id", "a librdmacm call");
        }
        return handle;
    }

    /** The call buffer read from a payload slot on. */
    private record Shifted(CallBuffer io, int base) implements SlotSource {
        @Override
        public long get(int slot) {
            return io.get(base + slot);
        }

        @Override
        public byte[] getBytes16(int slot) {
            return io.getBytes16(base + slot);
        }
    }
}
