package io.rdmatrace.verbs;

import io.rdmatrace.abi.QpMask;

/**
 * One bit of {@code enum ibv_qp_attr_mask}: which {@link QpAttr} fields a modify/query uses. The bit
 * values come from the verbs ABI model ({@link QpMask}, same names).
 */
public enum QpAttrField implements VerbsEnum {
    STATE, CUR_STATE, EN_SQD_ASYNC_NOTIFY, ACCESS_FLAGS, PKEY_INDEX, PORT, QKEY, AV, PATH_MTU, TIMEOUT, RETRY_CNT,
    RNR_RETRY, RQ_PSN, MAX_QP_RD_ATOMIC, ALT_PATH, MIN_RNR_TIMER, SQ_PSN, MAX_DEST_RD_ATOMIC, PATH_MIG_STATE, CAP,
    DEST_QPN, RATE_LIMIT;

    private final int value = QpMask.valueOf(name()).bit();

    @Override
    public int value() {
        return value;
    }

    @Override
    public String ibvName() {
        return "IBV_QP_" + name();
    }
}
