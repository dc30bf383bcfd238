package io.rdmatrace.verbs;

import io.rdmatrace.abi.CType;
import io.rdmatrace.abi.QpField;
import java.util.Arrays;
import java.util.StringJoiner;

/**
 * {@code struct ibv_qp_attr}, every field, held by its descriptor in the verbs ABI model
 * ({@link QpField}): {@link #get(QpField)} and {@link Builder#set(QpField, long)} reach any field, so
 * the codec, the recorders, replay and scenarios loop over the descriptors; the typed accessors are
 * conveniences over the same values. A modify uses only the fields its {@link QpAttrMask} names; a
 * query fills the ones the provider reports. Build one with {@link #builder()}, which also tracks the
 * mask of the fields you set.
 */
public final class QpAttr {
    private static final int COUNT = QpField.all().size();

    /** Each field's value as C's int would hold it (a u32 above 2^31 is negative here), by ordinal. */
    private final int[] values;
    /** The GID fields' values by ordinal (null for the others). */
    private final Gid[] gids;

    private QpAttr(int[] values, Gid[] gids) {
        this.values = values;
        this.gids = gids;
    }

    /** Takes both arrays (by field ordinal) without copying them: for {@link Codec}'s decoder. */
    static QpAttr wrap(int[] values, Gid[] gids) {
        return new QpAttr(values, gids);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Starts from these values with an empty mask. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** A number field's value, unsigned for a u32 ({@code qkey}, {@code rate_limit}); a GID field throws. */
    public long get(QpField f) {
        if (f.cType() == CType.GID) {
            throw new IllegalArgumentException(f + " is a GID: use gid()");
        }
        int v = values[f.ordinal()];
        return f.cType() == CType.U32 ? Integer.toUnsignedLong(v) : v;
    }

    /** A GID field's value. */
    public Gid gid(QpField f) {
        if (f.cType() != CType.GID) {
            throw new IllegalArgumentException(f + " is not a GID");
        }
        Gid g = gids[f.ordinal()];
        return g == null ? Gid.ZERO : g;
    }

    private int i(QpField f) {
        return values[f.ordinal()];
    }

    public QpState qpState() {
        return QpState.of(i(QpField.QP_STATE));
    }

    public QpState curQpState() {
        return QpState.of(i(QpField.CUR_QP_STATE));
    }

    public Mtu pathMtu() {
        return Mtu.of(i(QpField.PATH_MTU));
    }

    public MigState pathMigState() {
        return MigState.of(i(QpField.PATH_MIG_STATE));
    }

    public int qkey() {
        return i(QpField.QKEY);
    }

    public int rqPsn() {
        return i(QpField.RQ_PSN);
    }

    public int sqPsn() {
        return i(QpField.SQ_PSN);
    }

    public int destQpNum() {
        return i(QpField.DEST_QP_NUM);
    }

    public int qpAccessFlags() {
        return i(QpField.QP_ACCESS_FLAGS);
    }

    public QpCap cap() {
        return new QpCap(i(QpField.CAP_MAX_SEND_WR), i(QpField.CAP_MAX_RECV_WR), i(QpField.CAP_MAX_SEND_SGE),
                i(QpField.CAP_MAX_RECV_SGE), i(QpField.CAP_MAX_INLINE_DATA));
    }

    public AhAttr ahAttr() {
        return ah(QpField.AH_DGID, QpField.AH_FLOW_LABEL, QpField.AH_SGID_INDEX, QpField.AH_HOP_LIMIT,
                QpField.AH_TRAFFIC_CLASS, QpField.AH_DLID, QpField.AH_SL, QpField.AH_SRC_PATH_BITS,
                QpField.AH_STATIC_RATE, QpField.AH_IS_GLOBAL, QpField.AH_PORT_NUM);
    }

    public AhAttr altAhAttr() {
        return ah(QpField.ALT_AH_DGID, QpField.ALT_AH_FLOW_LABEL, QpField.ALT_AH_SGID_INDEX, QpField.ALT_AH_HOP_LIMIT,
                QpField.ALT_AH_TRAFFIC_CLASS, QpField.ALT_AH_DLID, QpField.ALT_AH_SL, QpField.ALT_AH_SRC_PATH_BITS,
                QpField.ALT_AH_STATIC_RATE, QpField.ALT_AH_IS_GLOBAL, QpField.ALT_AH_PORT_NUM);
    }

    private AhAttr ah(QpField dgid, QpField flowLabel, QpField sgidIndex, QpField hopLimit, QpField trafficClass,
                      QpField dlid, QpField sl, QpField srcPathBits, QpField staticRate, QpField isGlobal,
                      QpField portNum) {
        return new AhAttr(new GlobalRoute(gid(dgid), i(flowLabel), i(sgidIndex), i(hopLimit), i(trafficClass)),
                i(dlid), i(sl), i(srcPathBits), i(staticRate), i(isGlobal) != 0, i(portNum));
    }

    public int pkeyIndex() {
        return i(QpField.PKEY_INDEX);
    }

    public int altPkeyIndex() {
        return i(QpField.ALT_PKEY_INDEX);
    }

    public int enSqdAsyncNotify() {
        return i(QpField.EN_SQD_ASYNC_NOTIFY);
    }

    public int sqDraining() {
        return i(QpField.SQ_DRAINING);
    }

    public int maxRdAtomic() {
        return i(QpField.MAX_RD_ATOMIC);
    }

    public int maxDestRdAtomic() {
        return i(QpField.MAX_DEST_RD_ATOMIC);
    }

    public int minRnrTimer() {
        return i(QpField.MIN_RNR_TIMER);
    }

    public int portNum() {
        return i(QpField.PORT_NUM);
    }

    public int timeout() {
        return i(QpField.TIMEOUT);
    }

    public int retryCnt() {
        return i(QpField.RETRY_CNT);
    }

    public int rnrRetry() {
        return i(QpField.RNR_RETRY);
    }

    public int altPortNum() {
        return i(QpField.ALT_PORT_NUM);
    }

    public int altTimeout() {
        return i(QpField.ALT_TIMEOUT);
    }

    public int rateLimit() {
        return i(QpField.RATE_LIMIT);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof QpAttr other && Arrays.equals(values, other.values) && Arrays.equals(gids, other.gids);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(values) + Arrays.hashCode(gids);
    }

    /** Every field by its C name, e.g. {@code QpAttr[qp_state=3, ..., ah_attr.grh.dgid=fe80:...]}. */
    @Override
    public String toString() {
        StringJoiner s = new StringJoiner(", ", "QpAttr[", "]");
        for (QpField f : QpField.all()) {
            s.add(f.cName() + "=" + (f.cType() == CType.GID ? gid(f) : Long.toString(get(f))));
        }
        return s.toString();
    }

    /** Sets fields and records each one's mask bit; unset fields are zero, as after memset in C. */
    public static final class Builder {
        private final int[] values;
        private final Gid[] gids;
        private int mask;

        Builder() {
            values = new int[COUNT];
            gids = new Gid[COUNT];
        }

        Builder(QpAttr a) {
            values = a.values.clone();
            gids = a.gids.clone();
        }

        /** Sets a number field (truncated to 32 bits, as an int would be) and its mask bit. */
        public Builder set(QpField f, long v) {
            if (f.cType() == CType.GID) {
                throw new IllegalArgumentException(f + " is a GID: use set(field, Gid)");
            }
            values[f.ordinal()] = (int) v;
            mask |= f.maskBit();
            return this;
        }

        /** Sets a GID field and its mask bit. */
        public Builder set(QpField f, Gid gid) {
            if (f.cType() != CType.GID) {
                throw new IllegalArgumentException(f + " is not a GID");
            }
            gids[f.ordinal()] = gid == null || gid.equals(Gid.ZERO) ? null : gid;
            mask |= f.maskBit();
            return this;
        }

        public Builder qpState(QpState v) {
            return set(QpField.QP_STATE, v.value());
        }

        public Builder curQpState(QpState v) {
            return set(QpField.CUR_QP_STATE, v.value());
        }

        public Builder pathMtu(Mtu v) {
            return set(QpField.PATH_MTU, v.value());
        }

        public Builder pathMigState(MigState v) {
            return set(QpField.PATH_MIG_STATE, v.value());
        }

        public Builder qkey(int v) {
            return set(QpField.QKEY, v);
        }

        public Builder rqPsn(int v) {
            return set(QpField.RQ_PSN, v);
        }

        public Builder sqPsn(int v) {
            return set(QpField.SQ_PSN, v);
        }

        public Builder destQpNum(int v) {
            return set(QpField.DEST_QP_NUM, v);
        }

        public Builder qpAccessFlags(int v) {
            return set(QpField.QP_ACCESS_FLAGS, v);
        }

        public Builder cap(QpCap v) {
            set(QpField.CAP_MAX_SEND_WR, v.maxSendWr());
            set(QpField.CAP_MAX_RECV_WR, v.maxRecvWr());
            set(QpField.CAP_MAX_SEND_SGE, v.maxSendSge());
            set(QpField.CAP_MAX_RECV_SGE, v.maxRecvSge());
            return set(QpField.CAP_MAX_INLINE_DATA, v.maxInlineData());
        }

        public Builder ahAttr(AhAttr v) {
            return ah(v, QpField.AH_DGID, QpField.AH_FLOW_LABEL, QpField.AH_SGID_INDEX, QpField.AH_HOP_LIMIT,
                    QpField.AH_TRAFFIC_CLASS, QpField.AH_DLID, QpField.AH_SL, QpField.AH_SRC_PATH_BITS,
                    QpField.AH_STATIC_RATE, QpField.AH_IS_GLOBAL, QpField.AH_PORT_NUM);
        }

        public Builder altAhAttr(AhAttr v) {
            return ah(v, QpField.ALT_AH_DGID, QpField.ALT_AH_FLOW_LABEL, QpField.ALT_AH_SGID_INDEX,
                    QpField.ALT_AH_HOP_LIMIT, QpField.ALT_AH_TRAFFIC_CLASS, QpField.ALT_AH_DLID, QpField.ALT_AH_SL,
                    QpField.ALT_AH_SRC_PATH_BITS, QpField.ALT_AH_STATIC_RATE, QpField.ALT_AH_IS_GLOBAL,
                    QpField.ALT_AH_PORT_NUM);
        }

        private Builder ah(AhAttr v, QpField dgid, QpField flowLabel, QpField sgidIndex, QpField hopLimit,
                           QpField trafficClass, QpField dlid, QpField sl, QpField srcPathBits, QpField staticRate,
                           QpField isGlobal, QpField portNum) {
            set(dgid, v.grh().dgid());
            set(flowLabel, v.grh().flowLabel());
            set(sgidIndex, v.grh().sgidIndex());
            set(hopLimit, v.grh().hopLimit());
            set(trafficClass, v.grh().trafficClass());
            set(dlid, v.dlid());
            set(sl, v.sl());
            set(srcPathBits, v.srcPathBits());
            set(staticRate, v.staticRate());
            set(isGlobal, v.isGlobal() ? 1 : 0);
            return set(portNum, v.portNum());
        }

        public Builder pkeyIndex(int v) {
            return set(QpField.PKEY_INDEX, v);
        }

        public Builder altPkeyIndex(int v) {
            return set(QpField.ALT_PKEY_INDEX, v);
        }

        public Builder enSqdAsyncNotify(int v) {
            return set(QpField.EN_SQD_ASYNC_NOTIFY, v);
        }

        /** Query-only in libibverbs; sets no mask bit. */
        public Builder sqDraining(int v) {
            return set(QpField.SQ_DRAINING, v);
        }

        public Builder maxRdAtomic(int v) {
            return set(QpField.MAX_RD_ATOMIC, v);
        }

        public Builder maxDestRdAtomic(int v) {
            return set(QpField.MAX_DEST_RD_ATOMIC, v);
        }

        public Builder minRnrTimer(int v) {
            return set(QpField.MIN_RNR_TIMER, v);
        }

        public Builder portNum(int v) {
            return set(QpField.PORT_NUM, v);
        }

        public Builder timeout(int v) {
            return set(QpField.TIMEOUT, v);
        }

        public Builder retryCnt(int v) {
            return set(QpField.RETRY_CNT, v);
        }

        public Builder rnrRetry(int v) {
            return set(QpField.RNR_RETRY, v);
        }

        public Builder altPortNum(int v) {
            return set(QpField.ALT_PORT_NUM, v);
        }

        public Builder altTimeout(int v) {
            return set(QpField.ALT_TIMEOUT, v);
        }

        public Builder rateLimit(int v) {
            return set(QpField.RATE_LIMIT, v);
        }

        /** The mask bits of every field set so far. */
        public QpAttrMask mask() {
            return QpAttrMask.ofBits(mask);
        }

        public QpAttr build() {
            return new QpAttr(values.clone(), gids.clone());
        }
    }
}
