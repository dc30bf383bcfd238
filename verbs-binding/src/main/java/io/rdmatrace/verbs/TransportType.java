package io.rdmatrace.verbs;

/** {@code enum ibv_transport_type} of a device. */
public enum TransportType implements VerbsEnum {
    UNKNOWN(-1), IB(0), IWARP(1), USNIC(2), USNIC_UDP(3), UNSPECIFIED(4);

    private final int value;

    TransportType(int value) {
        this.value = value;
    }

    @Override
    public int value() {
        return value;
    }

    @Override
    public String ibvName() {
        return "IBV_TRANSPORT_" + name();
    }

    public static TransportType of(int value) {
        for (TransportType t : values()) {
            if (t.value == value) {
                return t;
            }
        }
        return UNKNOWN;
    }
}
