package io.rdmatrace.verbs;

/** {@code enum ibv_qp_type}. */
public enum QpType implements VerbsEnum {
    RC(2), UC(3), UD(4), RAW_PACKET(8), XRC_SEND(9), XRC_RECV(10), DRIVER(0xff),
    /** A value libibverbs 44 does not define. */
    UNKNOWN(-1);

    private final int value;

    QpType(int value) {
        this.value = value;
    }

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
