package io.rdmatrace.verbs;

import io.rdmatrace.abi.CType;
import io.rdmatrace.abi.QpField;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * The answer of {@code ibv_query_qp}: every {@link QpAttr} field and the init attributes
 * (granted caps, type, sq_sig_all, CQ handles). {@code mask} is what was asked for.
 *
 * <p>A query made through the binding keeps the QP_ATTR block as the JNI call wrote it (one bulk
 * copy) and decodes {@link #attr()} when it is first asked for: building the ~60 fields was most
 * of what a query cost in Java, and many callers only look at one of them or none. Immutable:
 * two threads asking at once decode twice and get equal values.
 */
public final class QpQuery implements QpAnswer {
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private final QpAttrMask mask;
    private final int qpNum;
    private final QpType qpType;
    private final QpCap initCap;
    private final boolean sqSigAll;
    private final long sendCqHandle;
    private final long recvCqHandle;
    /** The QP_ATTR block and its AH blocks (native byte order), or null when built from a QpAttr. */
    private final byte[] raw;
    private QpAttr attr;

    public QpQuery(QpAttr attr, QpAttrMask mask, int qpNum, QpType qpType, QpCap initCap, boolean sqSigAll,
                   long sendCqHandle, long recvCqHandle) {
        this(Objects.requireNonNull(attr, "attr"), null, mask, qpNum, qpType, initCap, sqSigAll, sendCqHandle,
                recvCqHandle);
    }

    private QpQuery(QpAttr attr, byte[] raw, QpAttrMask mask, int qpNum, QpType qpType, QpCap initCap,
                    boolean sqSigAll, long sendCqHandle, long recvCqHandle) {
        this.attr = attr;
        this.raw = raw;
        this.mask = mask;
        this.qpNum = qpNum;
        this.qpType = qpType;
        this.initCap = initCap;
        this.sqSigAll = sqSigAll;
        this.sendCqHandle = sendCqHandle;
        this.recvCqHandle = recvCqHandle;
    }

    /**
     * A query's answer in a call block's payload ({@code io}: the QP_ATTR block, then the QP_INIT
     * block): keeps {@code raw}, the QP_ATTR block's bytes copied out of it (not shared with
     * anyone), and decodes them on first use.
     */
    static QpQuery answer(SlotSource io, byte[] raw, QpAttrMask mask) {
        int init = Slots.QA_BLOCK;
        return new QpQuery(null, raw, mask, io.getInt(init + Slots.QpInit.QP_NUM.ordinal()),
                QpType.of(io.getInt(init + Slots.QpInit.QP_TYPE.ordinal())), Codec.readQpInitCap(io, init),
                io.getInt(init + Slots.QpInit.SQ_SIG_ALL.ordinal()) != 0,
                io.get(init + Slots.QpInit.SEND_CQ.ordinal()), io.get(init + Slots.QpInit.RECV_CQ.ordinal()));
    }

    public QpAttr attr() {
        QpAttr a = attr;
        if (a == null) {
            ByteBuffer b = ByteBuffer.wrap(raw).order(ByteOrder.nativeOrder());
            a = Codec.readQpAttr(new SlotSource() {
                @Override
                public long get(int slot) {
                    return b.getLong(slot * 8);
                }

                @Override
                public byte[] getBytes16(int slot) {
                    byte[] g = new byte[16];
                    b.get(slot * 8, g);
                    return g;
                }
            });
            attr = a;   // QpAttr is immutable (final fields): safe to publish this way
        }
        return a;
    }

    /**
     * One number field, as {@code attr().get(f)} reads it, straight from the answer without decoding
     * the others (a recorder writes every field once and needs no {@link QpAttr}); a GID field throws.
     */
    @Override
    public long get(QpField f) {
        if (raw == null) {
            return attr.get(f);
        }
        if (f.cType() == CType.GID) {
            throw new IllegalArgumentException(f + " is a GID: use gid()");
        }
        int v = slotInt(Codec.qpSlot(f) * 8);
        return f.cType() == CType.U32 ? Integer.toUnsignedLong(v) : v;
    }

    /** A GID field, as {@code attr().gid(f)} reads it (all zero: {@link Gid#ZERO}), without decoding the others. */
    @Override
    public Gid gid(QpField f) {
        if (raw == null || f.cType() != CType.GID) {
            return attr().gid(f);
        }
        int at = Codec.qpSlot(f) * 8;
        if (Gid.ZERO.matches(raw, at)) {
            return Gid.ZERO;
        }
        byte[] g = new byte[16];
        System.arraycopy(raw, at, g, 0, 16);
        return Gid.wrap(g);
    }

    /**
     * The int a slot at byte {@code at} holds (its low half, in native order), assembled from bytes:
     * a VarHandle read costs far more until the JIT compiles the caller, and recorders run C1 only.
     */
    private int slotInt(int at) {
        byte[] r = raw;
        if (LITTLE_ENDIAN) {
            return (r[at] & 0xFF) | (r[at + 1] & 0xFF) << 8 | (r[at + 2] & 0xFF) << 16 | r[at + 3] << 24;
        }
        return r[at + 4] << 24 | (r[at + 5] & 0xFF) << 16 | (r[at + 6] & 0xFF) << 8 | (r[at + 7] & 0xFF);
    }

    /** True when GID field {@code f} is {@code gid}, compared in place (no copy of the answer's bytes). */
    @Override
    public boolean gidEquals(QpField f, Gid gid) {
        if (raw == null || f.cType() != CType.GID) {
            return attr().gid(f).equals(gid);
        }
        return gid.matches(raw, Codec.qpSlot(f) * 8);
    }

    public QpAttrMask mask() {
        return mask;
    }

    @Override
    public int qpNum() {
        return qpNum;
    }

    @Override
    public QpType qpType() {
        return qpType;
    }

    @Override
    public QpCap initCap() {
        return initCap;
    }

    @Override
    public boolean sqSigAll() {
        return sqSigAll;
    }

    @Override
    public long sendCqHandle() {
        return sendCqHandle;
    }

    @Override
    public long recvCqHandle() {
        return recvCqHandle;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof QpQuery q && qpNum == q.qpNum && sqSigAll == q.sqSigAll && sendCqHandle == q.sendCqHandle
                && recvCqHandle == q.recvCqHandle && Objects.equals(mask, q.mask) && qpType == q.qpType
                && Objects.equals(initCap, q.initCap) && attr().equals(q.attr());
    }

    @Override
    public int hashCode() {
        return Objects.hash(attr(), mask, qpNum, qpType, initCap, sqSigAll, sendCqHandle, recvCqHandle);
    }

    @Override
    public String toString() {
        return "QpQuery[attr=" + attr() + ", mask=" + mask + ", qpNum=" + qpNum + ", qpType=" + qpType + ", initCap="
                + initCap + ", sqSigAll=" + sqSigAll + ", sendCqHandle=" + sendCqHandle + ", recvCqHandle="
                + recvCqHandle + "]";
    }
}
