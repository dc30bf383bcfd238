package io.rdmatrace.verbs;

/**
 * {@code struct ibv_qp_attr}, every field. A modify uses only the fields its {@link QpAttrMask}
 * names; a query fills the ones the provider reports. Build one with {@link #builder()}, which
 * also tracks the mask of the fields you set.
 */
public record QpAttr(QpState qpState, QpState curQpState, Mtu pathMtu, MigState pathMigState, int qkey, int rqPsn,
                     int sqPsn, int destQpNum, int qpAccessFlags, QpCap cap, AhAttr ahAttr, AhAttr altAhAttr,
                     int pkeyIndex, int altPkeyIndex, int enSqdAsyncNotify, int sqDraining, int maxRdAtomic,
                     int maxDestRdAtomic, int minRnrTimer, int portNum, int timeout, int retryCnt, int rnrRetry,
                     int altPortNum, int altTimeout, int rateLimit) {

    public QpAttr {
        if (qpState == null || curQpState == null || pathMtu == null || pathMigState == null || cap == null
                || ahAttr == null || altAhAttr == null) {
            throw new IllegalArgumentException("QpAttr fields must not be null (use the NONE/zero constants)");
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Starts from these values with an empty mask. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Sets fields and records each one's mask bit; unset fields are zero, as after memset in C. */
    public static final class Builder {
        private QpState qpState = QpState.RESET;
        private QpState curQpState = QpState.RESET;
        private Mtu pathMtu = Mtu.INVALID;
        private MigState pathMigState = MigState.MIGRATED;
        private int qkey;
        private int rqPsn;
        private int sqPsn;
        private int destQpNum;
        private int qpAccessFlags;
        private QpCap cap = QpCap.NONE;
        private AhAttr ahAttr = AhAttr.NONE;
        private AhAttr altAhAttr = AhAttr.NONE;
        private int pkeyIndex;
        private int altPkeyIndex;
        private int enSqdAsyncNotify;
        private int sqDraining;
        private int maxRdAtomic;
        private int maxDestRdAtomic;
        private int minRnrTimer;
        private int portNum;
        private int timeout;
        private int retryCnt;
        private int rnrRetry;
        private int altPortNum;
        private int altTimeout;
        private int rateLimit;
        private int mask;

        Builder() {
        }

        Builder(QpAttr a) {
            qpState = a.qpState;
            curQpState = a.curQpState;
            pathMtu = a.pathMtu;
            pathMigState = a.pathMigState;
            qkey = a.qkey;
            rqPsn = a.rqPsn;
            sqPsn = a.sqPsn;
            destQpNum = a.destQpNum;
            qpAccessFlags = a.qpAccessFlags;
            cap = a.cap;
            ahAttr = a.ahAttr;
            altAhAttr = a.altAhAttr;
            pkeyIndex = a.pkeyIndex;
            altPkeyIndex = a.altPkeyIndex;
            enSqdAsyncNotify = a.enSqdAsyncNotify;
            sqDraining = a.sqDraining;
            maxRdAtomic = a.maxRdAtomic;
            maxDestRdAtomic = a.maxDestRdAtomic;
            minRnrTimer = a.minRnrTimer;
            portNum = a.portNum;
            timeout = a.timeout;
            retryCnt = a.retryCnt;
            rnrRetry = a.rnrRetry;
            altPortNum = a.altPortNum;
            altTimeout = a.altTimeout;
            rateLimit = a.rateLimit;
        }

        private Builder set(QpAttrField field) {
            mask |= field.value();
            return this;
        }

        public Builder qpState(QpState v) {
            qpState = v;
            return set(QpAttrField.STATE);
        }

        public Builder curQpState(QpState v) {
            curQpState = v;
            return set(QpAttrField.CUR_STATE);
        }

        public Builder pathMtu(Mtu v) {
            pathMtu = v;
            return set(QpAttrField.PATH_MTU);
        }

        public Builder pathMigState(MigState v) {
            pathMigState = v;
            return set(QpAttrField.PATH_MIG_STATE);
        }

        public Builder qkey(int v) {
            qkey = v;
            return set(QpAttrField.QKEY);
        }

        public Builder rqPsn(int v) {
            rqPsn = v;
            return set(QpAttrField.RQ_PSN);
        }

        public Builder sqPsn(int v) {
            sqPsn = v;
            return set(QpAttrField.SQ_PSN);
        }

        public Builder destQpNum(int v) {
            destQpNum = v;
            return set(QpAttrField.DEST_QPN);
        }

        public Builder qpAccessFlags(int v) {
            qpAccessFlags = v;
            return set(QpAttrField.ACCESS_FLAGS);
        }

        public Builder cap(QpCap v) {
            cap = v;
            return set(QpAttrField.CAP);
        }

        public Builder ahAttr(AhAttr v) {
            ahAttr = v;
            return set(QpAttrField.AV);
        }

        public Builder altAhAttr(AhAttr v) {
            altAhAttr = v;
            return set(QpAttrField.ALT_PATH);
        }

        public Builder pkeyIndex(int v) {
            pkeyIndex = v;
            return set(QpAttrField.PKEY_INDEX);
        }

        public Builder altPkeyIndex(int v) {
            altPkeyIndex = v;
            return set(QpAttrField.ALT_PATH);
        }

        public Builder enSqdAsyncNotify(int v) {
            enSqdAsyncNotify = v;
            return set(QpAttrField.EN_SQD_ASYNC_NOTIFY);
        }

        /** Query-only in libibverbs; sets no mask bit. */
        public Builder sqDraining(int v) {
            sqDraining = v;
            return this;
        }

        public Builder maxRdAtomic(int v) {
            maxRdAtomic = v;
            return set(QpAttrField.MAX_QP_RD_ATOMIC);
        }

        public Builder maxDestRdAtomic(int v) {
            maxDestRdAtomic = v;
            return set(QpAttrField.MAX_DEST_RD_ATOMIC);
        }

        public Builder minRnrTimer(int v) {
            minRnrTimer = v;
            return set(QpAttrField.MIN_RNR_TIMER);
        }

        public Builder portNum(int v) {
            portNum = v;
            return set(QpAttrField.PORT);
        }

        public Builder timeout(int v) {
            timeout = v;
            return set(QpAttrField.TIMEOUT);
        }

        public Builder retryCnt(int v) {
            retryCnt = v;
            return set(QpAttrField.RETRY_CNT);
        }

        public Builder rnrRetry(int v) {
            rnrRetry = v;
            return set(QpAttrField.RNR_RETRY);
        }

        public Builder altPortNum(int v) {
            altPortNum = v;
            return set(QpAttrField.ALT_PATH);
        }

        public Builder altTimeout(int v) {
            altTimeout = v;
            return set(QpAttrField.ALT_PATH);
        }

        public Builder rateLimit(int v) {
            rateLimit = v;
            return set(QpAttrField.RATE_LIMIT);
        }

        /** The mask bits of every field set so far. */
        public QpAttrMask mask() {
            return QpAttrMask.ofBits(mask);
        }

        public QpAttr build() {
            return new QpAttr(qpState, curQpState, pathMtu, pathMigState, qkey, rqPsn, sqPsn, destQpNum,
                    qpAccessFlags, cap, ahAttr, altAhAttr, pkeyIndex, altPkeyIndex, enSqdAsyncNotify, sqDraining,
                    maxRdAtomic, maxDestRdAtomic, minRnrTimer, portNum, timeout, retryCnt, rnrRetry, altPortNum,
                    altTimeout, rateLimit);
        }
    }
}
