package io.rdmatrace.verbs;

import io.rdmatrace.abi.CType;
import io.rdmatrace.abi.QpField;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The answer of {@link QueuePair#query(QpAttrMask, QpQueryBuffer)}, reused across queries like a
 * {@link CompletionBatch} across polls: the JNI call writes its status and the QP_ATTR and QP_INIT
 * blocks straight into this buffer's memory, so a query allocates nothing on the Java heap, nor
 * does reading a number field with {@link #get(QpField)}. {@link #attr()} decodes every attribute
 * on first use after each query (and keeps them until the next); {@link #toQuery()} copies the
 * answer into an immutable {@link QpQuery} to keep.
 * Not thread-safe: one buffer per thread.
 */
public final class QpQueryBuffer implements QpAnswer {
    private static final int INIT = Slots.QA_BLOCK;   // payload slot of the QP_INIT block
    private static final int SLOTS = Slots.PAYLOAD + Slots.QA_BLOCK + Slots.QpInit.values().length;
    private static final int RET = Slots.Status.RET.ordinal() * 8;
    private static final int ERRNO = Slots.Status.ERRNO.ordinal() * 8;
    private static final int DURATION = Slots.Status.DURATION_NS.ordinal() * 8;

    /** The status block, then the payload, as in a {@link CallBuffer}. */
    private final ByteBuffer slots;
    private final long address;
    /** The payload's slots, for the codec. */
    private final SlotSource payload = new SlotSource() {
        @Override
        public long get(int slot) {
            return slots.getLong((Slots.PAYLOAD + slot) * 8);
        }

        @Override
        public byte[] getBytes16(int slot) {
            byte[] raw = new byte[16];
            slots.get((Slots.PAYLOAD + slot) * 8, raw);
            return raw;
        }
    };
    /** What the last query asked for; null before the first. */
    private QpAttrMask mask;
    /** False while a query is under way, or when it threw instead of answering. */
    private boolean answered;
    /** The last answer's attributes once asked for. */
    private QpAttr attr;

    public QpQueryBuffer() {
        JniLibrary.ensureLoaded();
        slots = ByteBuffer.allocateDirect(SLOTS * 8).order(ByteOrder.nativeOrder());
        address = NativeMemory.addressOf(slots);
    }

    /** Forgets the last answer and returns where the next one goes. */
    long begin(QpAttrMask mask) {
        this.mask = mask;
        this.answered = false;
        this.attr = null;
        return address;
    }

    void answered() {
        answered = true;
    }

    /** The last query's return value as C saw it. */
    public long ret() {
        return slots.getLong(RET);
    }

    /** The last query's errno, 0 on success. */
    public int errno() {
        return (int) slots.getLong(ERRNO);
    }

    /** Nanoseconds the last query spent in libibverbs (C-measured). */
    public long durationNanos() {
        return slots.getLong(DURATION);
    }

    /** Whether the last query succeeded; false before the first. */
    public boolean ok() {
        return answered && errno() == 0 && ret() >= 0;
    }

    /** The last query's status as a record (allocates). */
    public CallStatus status() {
        requireQueried();
        return CallStatus.of(ret(), errno(), durationNanos());
    }

    public QpAttrMask mask() {
        requireQueried();
        return mask;
    }

    /** The attributes of the last successful query, decoded once per query. */
    public QpAttr attr() {
        QpAttr a = attr;
        if (a == null) {
            requireAnswer();
            a = Codec.readQpAttr(payload);
            attr = a;
        }
        return a;
    }

    @Override
    public int qpNum() {
        return init(Slots.QpInit.QP_NUM);
    }

    @Override
    public QpType qpType() {
        return QpType.of(init(Slots.QpInit.QP_TYPE));
    }

    @Override
    public QpCap initCap() {
        requireAnswer();
        return Codec.readQpInitCap(payload, INIT);
    }

    @Override
    public boolean sqSigAll() {
        return init(Slots.QpInit.SQ_SIG_ALL) != 0;
    }

    @Override
    public long sendCqHandle() {
        requireAnswer();
        return payload.get(INIT + Slots.QpInit.SEND_CQ.ordinal());
    }

    @Override
    public long recvCqHandle() {
        requireAnswer();
        return payload.get(INIT + Slots.QpInit.RECV_CQ.ordinal());
    }

    /** The last successful answer as an immutable {@link QpQuery} (copies it). */
    public QpQuery toQuery() {
        requireAnswer();
        byte[] raw = new byte[Slots.QA_BLOCK * 8];
        slots.get(Slots.PAYLOAD * 8, raw);
        return QpQuery.answer(payload, raw, mask);
    }

    /**
     * A number field of the last successful answer, as {@link QpAttr#get} reads it (unsigned for
     * a u32), straight from the slot: no decoding, no allocation. A GID field throws: use {@link #gid}.
     */
    @Override
    public long get(QpField f) {
        if (f.cType() == CType.GID) {
            throw new IllegalArgumentException(f + " is a GID: use gid()");
        }
        requireAnswer();
        int v = payload.getInt(Codec.qpSlot(f));
        return f.cType() == CType.U32 ? Integer.toUnsignedLong(v) : v;
    }

    /**
     * A GID field of the last successful answer, as {@code attr().gid(f)} reads it (all zero:
     * {@link Gid#ZERO}), without decoding the others.
     */
    @Override
    public Gid gid(QpField f) {
        int at = gidAt(f);
        if (Gid.ZERO.matches(slots, at)) {
            return Gid.ZERO;
        }
        byte[] g = new byte[16];
        slots.get(at, g);
        return Gid.wrap(g);
    }

    /** True when GID field {@code f} of the last successful answer is {@code gid}, compared in place. */
    @Override
    public boolean gidEquals(QpField f, Gid gid) {
        return gid.matches(slots, gidAt(f));
    }

    /** Where GID field {@code f} starts in the buffer. */
    private int gidAt(QpField f) {
        if (f.cType() != CType.GID) {
            throw new IllegalArgumentException(f + " is not a GID");
        }
        requireAnswer();
        return (Slots.PAYLOAD + Codec.qpSlot(f)) * 8;
    }

    private int init(Slots.QpInit slot) {
        requireAnswer();
        return payload.getInt(INIT + slot.ordinal());
    }

    private void requireQueried() {
        if (!answered) {
            throw new IllegalStateException("no ibv_query_qp has answered into this buffer");
        }
    }

    private void requireAnswer() {
        if (!ok()) {
            throw new IllegalStateException(answered
                    ? "the last ibv_query_qp failed: errno " + errno() + " (" + Errno.name(errno()) + ")"
                    : "no ibv_query_qp has answered into this buffer");
        }
    }
}
