package io.rdmatrace.verbs;

import io.rdmatrace.abi.IbvEnum;

/** {@code enum ibv_mtu}; its bytes come from the verbs ABI model's one MTU table ({@link IbvEnum#mtuBytes}). */
public enum Mtu implements VerbsEnum {
    MTU_256, MTU_512, MTU_1024, MTU_2048, MTU_4096,
    /** 0 or a value above 5: not a valid path MTU (useful to provoke EINVAL). */
    INVALID;

    /** From the verbs ABI model, by the C name ({@link #ibvName()}); a constant libibverbs does not define is 0. */
    private final int value = IbvEnum.MTU.value(ibvName(), 0);

    @Override
    public int value() {
        return value;
    }

    @Override
    public String ibvName() {
        return this == INVALID ? "IBV_MTU_(invalid)" : "IBV_" + name();
    }

    /** 256, 512, 1024, 2048 or 4096; 0 for {@link #INVALID}. */
    public int bytes() {
        return this == INVALID ? 0 : IbvEnum.mtuBytes(value);
    }

    public static Mtu of(int value) {
        return value >= 1 && value <= 5 ? values()[value - 1] : INVALID;
    }

    /** The MTU of exactly this many bytes. */
    public static Mtu ofBytes(int bytes) {
        for (Mtu m : values()) {
            if (m != INVALID && m.bytes() == bytes) {
                return m;
            }
        }
        throw new IllegalArgumentException("no IB MTU of " + bytes + " bytes (256, 512, 1024, 2048 or 4096)");
    }
}
