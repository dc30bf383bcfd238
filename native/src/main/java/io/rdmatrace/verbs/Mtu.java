package io.rdmatrace.verbs;

/** {@code enum ibv_mtu}: bytes = 1 << (value + 7). */
public enum Mtu implements VerbsEnum {
    MTU_256(1), MTU_512(2), MTU_1024(3), MTU_2048(4), MTU_4096(5),
    /** 0 or a value above 5: not a valid path MTU (useful to provoke EINVAL). */
    INVALID(0);

    private final int value;

    Mtu(int value) {
        this.value = value;
    }

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
        return this == INVALID ? 0 : 1 << (value + 7);
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
