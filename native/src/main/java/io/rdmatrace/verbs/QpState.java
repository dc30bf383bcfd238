package io.rdmatrace.verbs;

/** {@code enum ibv_qp_state}. */
public enum QpState implements VerbsEnum {
    RESET(0), INIT(1), RTR(2), RTS(3), SQD(4), SQE(5), ERR(6),
    /** {@code IBV_QPS_UNKNOWN}; also what any value outside 0..7 decodes to. */
    UNKNOWN(7);

    private static final QpState[] BY_VALUE = values();
    private final int value;

    QpState(int value) {
        this.value = value;
    }

    @Override
    public int value() {
        return value;
    }

    @Override
    public String ibvName() {
        return "IBV_QPS_" + name();
    }

    public static QpState of(int value) {
        return value >= 0 && value < BY_VALUE.length ? BY_VALUE[value] : UNKNOWN;
    }
}
