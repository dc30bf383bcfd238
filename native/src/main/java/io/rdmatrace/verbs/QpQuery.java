package io.rdmatrace.verbs;

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
public final class QpQuery {
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

    public QpAttrMask mask() {
        return mask;
    }

    public int qpNum() {
        return qpNum;
    }

    public QpType qpType() {
        return qpType;
    }

    public QpCap initCap() {
        return initCap;
    }

    public boolean sqSigAll() {
        return sqSigAll;
    }

    public long sendCqHandle() {
        return sendCqHandle;
    }

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
