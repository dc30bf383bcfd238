package io.rdmatrace.verbs;

import io.rdmatrace.abi.IbvEnum;

/** {@code enum ibv_mig_state} (path migration state). */
public enum MigState implements VerbsEnum {
    MIGRATED, REARM, ARMED;

    /** From the verbs ABI model, by the C name ({@link #ibvName()}); a constant libibverbs does not define is -1. */
    private final int value = IbvEnum.MIG_STATE.value(ibvName(), -1);

    @Override
    public int value() {
        return value;
    }

    @Override
    public String ibvName() {
        return "IBV_MIG_" + name();
    }

    /** Values outside 0..2 decode as MIGRATED (the zero value). */
    public static MigState of(int value) {
        return value == 1 ? REARM : value == 2 ? ARMED : MIGRATED;
    }
}
