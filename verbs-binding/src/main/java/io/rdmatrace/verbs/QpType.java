package io.rdmatrace.verbs;

import io.rdmatrace.abi.IbvEnum;

/** {@code enum ibv_qp_type}. */
public enum QpType implements VerbsEnum {
    RC, UC, UD, RAW_PACKET, XRC_SEND, XRC_RECV, DRIVER,
    /** A value libibverbs 44 does not define. */
    UNKNOWN;

    /** From the verbs ABI model, by the C name ({@link #ibvName()}); a constant libibverbs does not define is -1. */
    private final int value = IbvEnum.QP_TYPE.value(ibvName(), -1);

    @Override
    public int value() {
        return value;
    }

    @Override
    public String ibvName() {
        return this == UNKNOWN ? "IBV_QPT_(unknown)" : "IBV_QPT_" + name();
    }

    public static QpType of(int value) {
        for (QpType t : values()) {
            if (t.value == value) {
                return t;
            }
        }
        return UNKNOWN;
    }
}
