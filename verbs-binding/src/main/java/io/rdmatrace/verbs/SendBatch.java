package io.rdmatrace.verbs;

/**
 * Send work requests for {@link QueuePair#postSend}, reused across posts:
 * <pre>{@code
 * batch.clear();
 * batch.add(7, WrOpcode.RDMA_WRITE, SendFlag.bits(SendFlag.SIGNALED))
 *      .sge(mr, 0, 64).rdma(remoteAddr, rkey);
 * qp.postSend(batch);
 * }</pre>
 * {@code add} starts a request; the other setters apply to the last one. Immediate data is in
 * host order.
 */
public final class SendBatch extends NativeBatch {
    private static final int WR = Slots.SendWr.values().length;
    private static final int SGE = Slots.Sge.values().length;
    private static final int WR_ID = Slots.SendWr.WR_ID.ordinal() * 8;
    private static final int OPCODE = Slots.SendWr.OPCODE.ordinal() * 8;
    private static final int SEND_FLAGS = Slots.SendWr.SEND_FLAGS.ordinal() * 8;
    private static final int IMM_DATA = Slots.SendWr.IMM_DATA.ordinal() * 8;
    private static final int REMOTE_ADDR = Slots.SendWr.REMOTE_ADDR.ordinal() * 8;
    private static final int RKEY = Slots.SendWr.RKEY.ordinal() * 8;
    private static final int COMPARE_ADD = Slots.SendWr.COMPARE_ADD.ordinal() * 8;
    private static final int SWAP = Slots.SendWr.SWAP.ordinal() * 8;
    private static final int AH = Slots.SendWr.AH.ordinal() * 8;
    private static final int REMOTE_QPN = Slots.SendWr.REMOTE_QPN.ordinal() * 8;
    private static final int REMOTE_QKEY = Slots.SendWr.REMOTE_QKEY.ordinal() * 8;
    private static final int NUM_SGE = Slots.SendWr.NUM_SGE.ordinal() * 8;
    private static final int SGE_ADDR = Slots.Sge.ADDR.ordinal() * 8;
    private static final int SGE_LENGTH = Slots.Sge.LENGTH.ordinal() * 8;
    private static final int SGE_LKEY = Slots.Sge.LKEY.ordinal() * 8;

    private final int maxWr;
    private final int maxSge;

    /** Room for {@code maxWr} requests of up to {@code maxSge} SGEs each. */
    public SendBatch(int maxWr, int maxSge) {
        super(HEADER + (long) maxWr * WR + (long) maxWr * maxSge * SGE, allocScratch0(maxWr, maxSge));
        this.maxWr = maxWr;
        this.maxSge = maxSge;
    }

    public int maxWr() {
        return maxWr;
    }

    public int maxSge() {
        return maxSge;
    }

    public SendBatch clear() {
        slots.putLong(COUNT, 0);
        return this;
    }

    /** Starts request number {@link #count()}: id, opcode and {@link SendFlag#bits send flags}. */
    public SendBatch add(long wrId, WrOpcode opcode, int sendFlags) {
        int i = count();
        if (i >= maxWr) {
            throw new IllegalStateException("send batch is full (" + maxWr + " requests)");
        }
        int base = wr(i);
        for (int s = 0; s < WR; s++) {
            slots.putLong(base + s * 8, 0);
        }
        slots.putLong(base + WR_ID, wrId);
        slots.putLong(base + OPCODE, opcode.value());
        slots.putLong(base + SEND_FLAGS, sendFlags);
        slots.putLong(COUNT, i + 1);
        return this;
    }

    /** Appends a scatter/gather element to the last request. */
    public SendBatch sge(long addr, int length, int lkey) {
        int base = wr(last());
        int n = (int) slots.getLong(base + NUM_SGE);
        if (n >= maxSge) {
            throw new IllegalStateException("request already has " + maxSge + " SGEs, the batch maximum");
        }
        int g = sge(last(), n);
        slots.putLong(g + SGE_ADDR, addr);
        slots.putLong(g + SGE_LENGTH, Integer.toUnsignedLong(length));
        slots.putLong(g + SGE_LKEY, Integer.toUnsignedLong(lkey));
        slots.putLong(base + NUM_SGE, n + 1);
        return this;
    }

    /** An SGE of {@code length} bytes at {@code offset} in {@code mr}. */
    public SendBatch sge(MemoryRegion mr, long offset, int length) {
        return sge(mr.address() + offset, length, mr.lkey());
    }

    /** Remote address and rkey of an RDMA WRITE/READ. */
    public SendBatch rdma(long remoteAddr, int rkey) {
        int base = wr(last());
        slots.putLong(base + REMOTE_ADDR, remoteAddr);
        slots.putLong(base + RKEY, Integer.toUnsignedLong(rkey));
        return this;
    }

    /** Target and operands of an atomic. */
    public SendBatch atomic(long remoteAddr, int rkey, long compareAdd, long swap) {
        rdma(remoteAddr, rkey);
        int base = wr(last());
        slots.putLong(base + COMPARE_ADD, compareAdd);
        slots.putLong(base + SWAP, swap);
        return this;
    }

    /** Immediate data (host order) of a *_WITH_IMM request, or the rkey of SEND_WITH_INV / LOCAL_INV. */
    public SendBatch imm(int immData) {
        slots.putLong(wr(last()) + IMM_DATA, Integer.toUnsignedLong(immData));
        return this;
    }

    /** Destination of a UD send. */
    public SendBatch ud(AddressHandle ah, int remoteQpn, int remoteQkey) {
        int base = wr(last());
        slots.putLong(base + AH, ah.live("ibv_post_send"));
        slots.putLong(base + REMOTE_QPN, Integer.toUnsignedLong(remoteQpn));
        slots.putLong(base + REMOTE_QKEY, Integer.toUnsignedLong(remoteQkey));
        return this;
    }

    public long wrId(int i) {
        return slots.getLong(wr(check(i)) + WR_ID);
    }

    public WrOpcode opcode(int i) {
        return WrOpcode.of((int) slots.getLong(wr(check(i)) + OPCODE));
    }

    public int sendFlags(int i) {
        return (int) slots.getLong(wr(check(i)) + SEND_FLAGS);
    }

    public int immData(int i) {
        return (int) slots.getLong(wr(check(i)) + IMM_DATA);
    }

    public long remoteAddr(int i) {
        return slots.getLong(wr(check(i)) + REMOTE_ADDR);
    }

    public int rkey(int i) {
        return (int) slots.getLong(wr(check(i)) + RKEY);
    }

    public long compareAdd(int i) {
        return slots.getLong(wr(check(i)) + COMPARE_ADD);
    }

    public long swap(int i) {
        return slots.getLong(wr(check(i)) + SWAP);
    }

    /** Native handle of the UD address handle, 0 for connected QPs. */
    public long ahHandle(int i) {
        return slots.getLong(wr(check(i)) + AH);
    }

    public int remoteQpn(int i) {
        return (int) slots.getLong(wr(check(i)) + REMOTE_QPN);
    }

    public int remoteQkey(int i) {
        return (int) slots.getLong(wr(check(i)) + REMOTE_QKEY);
    }

    public int numSge(int i) {
        return (int) slots.getLong(wr(check(i)) + NUM_SGE);
    }

    public long sgeAddr(int i, int j) {
        return slots.getLong(sge(check(i), j) + SGE_ADDR);
    }

    public int sgeLength(int i, int j) {
        return (int) slots.getLong(sge(check(i), j) + SGE_LENGTH);
    }

    public int sgeLkey(int i, int j) {
        return (int) slots.getLong(sge(check(i), j) + SGE_LKEY);
    }

    private int last() {
        int n = count();
        if (n == 0) {
            throw new IllegalStateException("add a request first");
        }
        return n - 1;
    }

    private int check(int i) {
        if (i < 0 || i >= count()) {
            throw new IndexOutOfBoundsException("request " + i + " of " + count());
        }
        return i;
    }

    private static int wr(int i) {
        return (HEADER + i * WR) * 8;
    }

    private int sge(int i, int j) {
        return (HEADER + maxWr * WR + (i * maxSge + j) * SGE) * 8;
    }

    private static native long allocScratch0(int maxWr, int maxSge);
}
