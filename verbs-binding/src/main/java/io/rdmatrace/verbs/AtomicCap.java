package io.rdmatrace.verbs;

import io.rdmatrace.abi.IbvEnum;

/** {@code enum ibv_atomic_cap}. */
public enum AtomicCap implements VerbsEnum {
    NONE, HCA, GLOB;

    /** From the verbs ABI model, by the C name ({@link #ibvName()}); a constant libibverbs does not define is -1. */
    private final int value = IbvEnum.ATOMIC_CAP.value(ibvName(), -1);

    @Override
    public int value() {
        return value;
    }

    @Override
    public String ibvName() {
        return "IBV_ATOMIC_" + name();
    }

    public static AtomicCap of(int value) {
        return value == 1 ? HCA : value == 2 ? GLOB : NONE;
    }
}
