package io.rdmatrace.verbs;

/**
 * Work completions from {@link CompletionQueue#poll}, reused across polls. The indexed getters
 * do not allocate; {@link #get} copies one completion into a record.
 */
public final class CompletionBatch extends NativeBatch {
    private static final int WC = Slots.Wc.values().length;
    private static final int WR_ID = Slots.Wc.WR_ID.ordinal() * 8;
    private static final int STATUS = Slots.Wc.STATUS.ordinal() * 8;
    private static final int OPCODE = Slots.Wc.OPCODE.ordinal() * 8;
    private static final int VENDOR_ERR = Slots.Wc.VENDOR_ERR.ordinal() * 8;
    private static final int BYTE_LEN = Slots.Wc.BYTE_LEN.ordinal() * 8;
    private static final int IMM_DATA = Slots.Wc.IMM_DATA.ordinal() * 8;
    private static final int QP_NUM = Slots.Wc.QP_NUM.ordinal() * 8;
    private static final int SRC_QP = Slots.Wc.SRC_QP.ordinal() * 8;
    private static final int WC_FLAGS = Slots.Wc.WC_FLAGS.ordinal() * 8;
    private static final int PKEY_INDEX = Slots.Wc.PKEY_INDEX.ordinal() * 8;
    private static final int SLID = Slots.Wc.SLID.ordinal() * 8;
    private static final int SL = Slots.Wc.SL.ordinal() * 8;
    private static final int DLID_PATH_BITS = Slots.Wc.DLID_PATH_BITS.ordinal() * 8;

    private final int capacity;

    public CompletionBatch(int capacity) {
        super(HEADER + (long) capacity * WC, allocScratch0(capacity));
        this.capacity = capacity;
    }

    public int capacity() {
        return capacity;
    }

    public long wrId(int i) {
        return slots.getLong(at(i) + WR_ID);
    }

    public WcStatus status(int i) {
        return WcStatus.of(statusValue(i));
    }

    /** The raw ibv_wc_status value (also for values this binding does not know). */
    public int statusValue(int i) {
        return (int) slots.getLong(at(i) + STATUS);
    }

    public WcOpcode opcode(int i) {
        return WcOpcode.of(opcodeValue(i));
    }

    public int opcodeValue(int i) {
        return (int) slots.getLong(at(i) + OPCODE);
    }

    public int vendorErr(int i) {
        return (int) slots.getLong(at(i) + VENDOR_ERR);
    }

    public int byteLen(int i) {
        return (int) slots.getLong(at(i) + BYTE_LEN);
    }

    /** Immediate data in host order (or the invalidated rkey with WITH_INV). */
    public int immData(int i) {
        return (int) slots.getLong(at(i) + IMM_DATA);
    }

    public int qpNum(int i) {
        return (int) slots.getLong(at(i) + QP_NUM);
    }

    public int srcQp(int i) {
        return (int) slots.getLong(at(i) + SRC_QP);
    }

    public int wcFlags(int i) {
        return (int) slots.getLong(at(i) + WC_FLAGS);
    }

    public int pkeyIndex(int i) {
        return (int) slots.getLong(at(i) + PKEY_INDEX);
    }

    public int slid(int i) {
        return (int) slots.getLong(at(i) + SLID);
    }

    public int sl(int i) {
        return (int) slots.getLong(at(i) + SL);
    }

    public int dlidPathBits(int i) {
        return (int) slots.getLong(at(i) + DLID_PATH_BITS);
    }

    /** Completion {@code i} as a record (allocates). */
    public WorkCompletion get(int i) {
        return new WorkCompletion(wrId(i), status(i), opcode(i), vendorErr(i), byteLen(i), immData(i), qpNum(i),
                srcQp(i), wcFlags(i), pkeyIndex(i), slid(i), sl(i), dlidPathBits(i));
    }

    private int at(int i) {
        if (i < 0 || i >= count()) {
            throw new IndexOutOfBoundsException("completion " + i + " of " + count());
        }
        return (HEADER + i * WC) * 8;
    }

    private static native long allocScratch0(int capacity);
}
