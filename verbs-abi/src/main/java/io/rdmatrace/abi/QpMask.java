package io.rdmatrace.abi;

/** {@code enum ibv_qp_attr_mask}: the bit a modify or query sets for a group of {@link QpField}s. */
public enum QpMask {
    STATE(0), CUR_STATE(1), EN_SQD_ASYNC_NOTIFY(2), ACCESS_FLAGS(3), PKEY_INDEX(4), PORT(5), QKEY(6), AV(7),
    PATH_MTU(8), TIMEOUT(9), RETRY_CNT(10), RNR_RETRY(11), RQ_PSN(12), MAX_QP_RD_ATOMIC(13), ALT_PATH(14),
    MIN_RNR_TIMER(15), SQ_PSN(16), MAX_DEST_RD_ATOMIC(17), PATH_MIG_STATE(18), CAP(19), DEST_QPN(20),
    RATE_LIMIT(25);

    private final int bit;

    QpMask(int shift) {
        this.bit = 1 << shift;
    }

    public int bit() {
        return bit;
    }

    /** libibverbs' name, e.g. {@code IBV_QP_MIN_RNR_TIMER}. */
    public String ibvName() {
        return "IBV_QP_" + name();
    }
}
