package io.rdmatrace.verbs;

import io.rdmatrace.abi.IbvEnum;

/** {@code enum ibv_qp_state}. */
public enum QpState implements VerbsEnum {
    RESET, INIT, RTR, RTS, SQD, SQE, ERR,
    /** {@code IBV_QPS_UNKNOWN}; also what any value outside 0..7 decodes to. */
    UNKNOWN;

    private static final QpState[] BY_VALUE = values();
    /** From the verbs ABI model, by the C name ({@link #ibvName()}); a constant libibverbs does not define is -1. */
    private final int value = IbvEnum.QP_STATE.value(ibvName(), -1);

    @Override
    public int value() {
        return value;
    }

    @Override
    public String ibvName() {
        return "IBV_QPS_" + name();
    }

    public static QpState of(int value) {
        return value >= 0 && value < BY_VALUE.length ? BY_VALUE[value] : UNKNOWN;
    }
}
