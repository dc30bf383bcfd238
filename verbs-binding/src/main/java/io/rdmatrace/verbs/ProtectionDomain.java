package io.rdmatrace.verbs;

/** {@code struct ibv_pd}: registers memory, creates queue pairs and address handles. */
public final class ProtectionDomain extends VerbsResource {

    ProtectionDomain(Context context, long handle, CallStatus status) {
        super(context, handle, status);
    }

    /** Registers all of {@code memory} with {@code access} ({@link AccessFlag#bits}). */
    public MemoryRegion regMr(NativeMemory memory, int access) {
        return tryRegMr(memory, 0, memory.size(), access).orThrow();
    }

    public Outcome<MemoryRegion> tryRegMr(NativeMemory memory, long offset, long length, int access) {
        if (offset < 0 || length < 0 || offset + length > memory.size()) {
            throw new IndexOutOfBoundsException("region " + offset + "+" + length + " of " + memory.size() + " bytes");
        }
        return register(memory, memory.address() + offset, length, access);
    }

    /**
     * Registers raw addresses (no {@link NativeMemory} behind them); for provoking the library's
     * own checks (EFAULT, EINVAL) with bad ranges.
     */
    public Outcome<MemoryRegion> tryRegMr(long address, long length, int access) {
        return register(null, address, length, access);
    }

    private Outcome<MemoryRegion> register(NativeMemory memory, long address, long length, int access) {
        long pd = live("ibv_reg_mr");
        CallBuffer io = CallBuffer.acquire(4);
        long mr = regMr0(context.lib(), pd, address, length, access, io.address());
        CallStatus status = io.status();
        int lkey = io.getInt(0);
        int rkey = io.getInt(1);
        MemoryRegion region = null;
        if (mr != 0) {
            region = new MemoryRegion(context, mr, status, memory, io.get(2), io.get(3), lkey, rkey, access);
        }
        if (context.observed()) {
            context.emit(new VerbCall.RegMr(pd, address, length, access, mr, lkey, rkey, status));
        }
        return Codec.outcome("ibv_reg_mr", region, status);
    }

    public QueuePair createQp(QpInitAttr init) {
        return tryCreateQp(init).orThrow();
    }

    public Outcome<QueuePair> tryCreateQp(QpInitAttr init) {
        long pd = live("ibv_create_qp");
        long sendCq = init.sendCq() != null ? init.sendCq().live("ibv_create_qp") : 0;
        long recvCq = init.recvCq() != null ? init.recvCq().live("ibv_create_qp") : 0;
        CallBuffer io = CallBuffer.acquire(Slots.QpInit.values().length);
        Codec.writeQpInit(io, 0, init, sendCq, recvCq);
        long qp = createQp0(context.lib(), pd, io.address());
        CallStatus status = io.status();
        QueuePair pair = null;
        QpCap granted = null;
        int qpNum = 0;
        if (qp != 0) {
            granted = Codec.readQpInitCap(io, 0);
            qpNum = io.getInt(Slots.QpInit.QP_NUM.ordinal());
            pair = new QueuePair(context, qp, status, this, init, granted, qpNum);
        }
        if (context.observed()) {
            context.emit(new VerbCall.CreateQp(pd, init, qp, qpNum, granted, status));
        }
        return Codec.outcome("ibv_create_qp", pair, status);
    }

    public AddressHandle createAh(AhAttr attr) {
        return tryCreateAh(attr).orThrow();
    }

    public Outcome<AddressHandle> tryCreateAh(AhAttr attr) {
        long pd = live("ibv_create_ah");
        CallBuffer io = CallBuffer.acquire(Slots.AhAttr.values().length);
        Codec.writeAhAttr(io, 0, attr);
        long ah = createAh0(context.lib(), pd, io.address());
        CallStatus status = io.status();
        if (context.observed()) {
            context.emit(new VerbCall.CreateAh(pd, attr, ah, status));
        }
        return Codec.outcome("ibv_create_ah", ah != 0 ? new AddressHandle(context, ah, status, attr) : null, status);
    }

    @Override
    String describe() {
        return "protection domain 0x" + Long.toHexString(id());
    }

    @Override
    String destroyVerb() {
        return "ibv_dealloc_pd";
    }

    @Override
    void destroyNative(long lib, long handle, long io) {
        deallocPd0(lib, handle, io);
    }

    @Override
    VerbCall destroyRecord(long handle, CallStatus status) {
        return new VerbCall.DeallocPd(handle, status);
    }

    private static native void deallocPd0(long lib, long pd, long io);

    private static native long regMr0(long lib, long pd, long address, long length, int access, long io);

    private static native long createQp0(long lib, long pd, long io);

    private static native long createAh0(long lib, long pd, long io);
}
