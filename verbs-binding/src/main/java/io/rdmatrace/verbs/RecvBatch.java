package io.rdmatrace.verbs;

/** Receive work requests for {@link QueuePair#postRecv}, reused across posts (see {@link SendBatch}). */
public final class RecvBatch extends NativeBatch {
    private static final int WR = Slots.RecvWr.values().length;
    private static final int SGE = Slots.Sge.values().length;
    private static final int WR_ID = Slots.RecvWr.WR_ID.ordinal() * 8;
    private static final int NUM_SGE = Slots.RecvWr.NUM_SGE.ordinal() * 8;
    private static final int SGE_ADDR = Slots.Sge.ADDR.ordinal() * 8;
    private static final int SGE_LENGTH = Slots.Sge.LENGTH.ordinal() * 8;
    private static final int SGE_LKEY = Slots.Sge.LKEY.ordinal() * 8;

    private final int maxWr;
    private final int maxSge;

    public RecvBatch(int maxWr, int maxSge) {
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

    public RecvBatch clear() {
        slots.putLong(COUNT, 0);
        return this;
    }

    /** Starts a receive request. */
    public RecvBatch add(long wrId) {
        int i = count();
        if (i >= maxWr) {
            throw new IllegalStateException("receive batch is full (" + maxWr + " requests)");
        }
        slots.putLong(wr(i) + WR_ID, wrId);
        slots.putLong(wr(i) + NUM_SGE, 0);
        slots.putLong(COUNT, i + 1);
        return this;
    }

    public RecvBatch sge(long addr, int length, int lkey) {
        int i = count() - 1;
        if (i < 0) {
            throw new IllegalStateException("add a request first");
        }
        int n = (int) slots.getLong(wr(i) + NUM_SGE);
        if (n >= maxSge) {
            throw new IllegalStateException("request already has " + maxSge + " SGEs, the batch maximum");
        }
        int g = sge(i, n);
        slots.putLong(g + SGE_ADDR, addr);
        slots.putLong(g + SGE_LENGTH, Integer.toUnsignedLong(length));
        slots.putLong(g + SGE_LKEY, Integer.toUnsignedLong(lkey));
        slots.putLong(wr(i) + NUM_SGE, n + 1);
        return this;
    }

    public RecvBatch sge(MemoryRegion mr, long offset, int length) {
        return sge(mr.address() + offset, length, mr.lkey());
    }

    public long wrId(int i) {
        return slots.getLong(wr(check(i)) + WR_ID);
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
