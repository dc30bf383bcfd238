package io.rdmatrace.verbs;

import io.rdmatrace.abi.IbvEnum;

/** {@code enum ibv_event_type}, with the text of {@code ibv_event_type_str}. */
public enum EventType implements VerbsEnum {
    CQ_ERR("CQ error"),
    QP_FATAL("local work queue catastrophic error"),
    QP_REQ_ERR("invalid request local work queue error"),
    QP_ACCESS_ERR("local access violation work queue error"),
    COMM_EST("communication established"),
    SQ_DRAINED("send queue drained"),
    PATH_MIG("path migrated"),
    PATH_MIG_ERR("path migration request error"),
    DEVICE_FATAL("local catastrophic error"),
    PORT_ACTIVE("port active"),
    PORT_ERR("port error"),
    LID_CHANGE("LID change"),
    PKEY_CHANGE("P_Key change"),
    SM_CHANGE("SM change"),
    SRQ_ERR("SRQ catastrophic error"),
    SRQ_LIMIT_REACHED("SRQ limit reached"),
    QP_LAST_WQE_REACHED("last WQE reached"),
    CLIENT_REREGISTER("client reregistration"),
    GID_CHANGE("GID table change"),
    WQ_FATAL("WQ fatal"),
    DEVICE_SPEED_CHANGE("Device link speed change"),
    /** A value outside 0..20. */
    UNKNOWN("unknown");

    private static final EventType[] BY_VALUE = values();
    /** From the verbs ABI model, by the C name ({@link #ibvName()}); a constant libibverbs does not define is -1. */
    private final int value = IbvEnum.EVENT_TYPE.value(ibvName(), -1);
    private final String text;

    EventType(String text) {
        this.text = text;
    }

    @Override
    public int value() {
        return value;
    }

    @Override
    public String ibvName() {
        return "IBV_EVENT_" + name();
    }

    /** What {@code ibv_event_type_str} returns. */
    public String text() {
        return text;
    }

    public static EventType of(int value) {
        return value >= 0 && value < BY_VALUE.length - 1 ? BY_VALUE[value] : UNKNOWN;
    }
}
