package io.rdmatrace.verbs;

import io.rdmatrace.abi.IbvEnum;

/** {@code enum ibv_wc_flags} of a work completion. */
public enum WcFlag implements VerbsEnum {
    GRH, WITH_IMM, IP_CSUM_OK, WITH_INV, TM_SYNC_REQ, TM_MATCH, TM_DATA_VALID;

    /** From the verbs ABI model, by the C name ({@link #ibvName()}); a constant libibverbs does not define is -1. */
    private final int value = IbvEnum.WC_FLAGS.value(ibvName(), -1);

    @Override
    public int value() {
        return value;
    }

    @Override
    public String ibvName() {
        return "IBV_WC_" + name();
    }

    public boolean isSetIn(int bits) {
        return (bits & value) != 0;
    }
}
