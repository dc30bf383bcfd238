package io.rdmatrace.verbs;

import io.rdmatrace.abi.IbvEnum;

/** {@code enum ibv_port_state}, with the text of {@code ibv_port_state_str}. */
public enum PortState implements VerbsEnum {
    NOP("no state change (NOP)"), DOWN("down"), INIT("init"), ARMED("armed"),
    ACTIVE("active"), ACTIVE_DEFER("active defer"),
    /** A value outside 0..5. */
    UNKNOWN("unknown");

    /** From the verbs ABI model, by the C name ({@link #ibvName()}); a constant libibverbs does not define is -1. */
    private final int value = IbvEnum.PORT_STATE.value(ibvName(), -1);
    private final String text;

    PortState(String text) {
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
