package io.rdmatrace.verbs;

import io.rdmatrace.abi.IbvEnum;

/** {@code IBV_LINK_LAYER_*} of a port. */
public enum LinkLayer implements VerbsEnum {
    UNSPECIFIED, INFINIBAND, ETHERNET;

    /** From the verbs ABI model, by the C name ({@link #ibvName()}); a constant libibverbs does not define is -1. */
    private final int value = IbvEnum.LINK_LAYER.value(ibvName(), -1);

    @Override
    public int value() {
        return value;
    }

    @Override
    public String ibvName() {
        return "IBV_LINK_LAYER_" + name();
    }

    /** ibv_devinfo's spelling: "InfiniBand", "Ethernet" or "Unknown". */
    public String text() {
        return switch (this) {
            case INFINIBAND -> "InfiniBand";
            case ETHERNET -> "Ethernet";
            case UNSPECIFIED -> "Unknown";
        };
    }

    public static LinkLayer of(int value) {
        return value == 1 ? INFINIBAND : value == 2 ? ETHERNET : UNSPECIFIED;
    }
}
