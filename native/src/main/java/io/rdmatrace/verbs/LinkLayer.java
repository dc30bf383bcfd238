package io.rdmatrace.verbs;

/** {@code IBV_LINK_LAYER_*} of a port. */
public enum LinkLayer implements VerbsEnum {
    UNSPECIFIED(0), INFINIBAND(1), ETHERNET(2);

    private final int value;

    LinkLayer(int value) {
        this.value = value;
    }

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
