package io.rdmatrace.verbs;

/** {@code enum ibv_port_state}, with the text of {@code ibv_port_state_str}. */
public enum PortState implements VerbsEnum {
    NOP(0, "no state change (NOP)"), DOWN(1, "down"), INIT(2, "init"), ARMED(3, "armed"),
    ACTIVE(4, "active"), ACTIVE_DEFER(5, "active defer"),
    /** A value outside 0..5. */
    UNKNOWN(-1, "unknown");

    private final int value;
    private final String text;

    PortState(int value, String text) {
        this.value = value;
        this.text = text;
    }

    @Override
    public int value() {
        return value;
    }

    @Override
    public String ibvName() {
        return "IBV_PORT_" + name();
    }

    /** What {@code ibv_port_state_str} prints. */
    public String text() {
        return text;
    }

    public static PortState of(int value) {
        return value >= 0 && value <= 5 ? values()[value] : UNKNOWN;
    }
}
