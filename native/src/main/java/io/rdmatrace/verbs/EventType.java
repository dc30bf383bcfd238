package io.rdmatrace.verbs;

/** {@code enum ibv_event_type}, with the text of {@code ibv_event_type_str}. */
public enum EventType implements VerbsEnum {
    CQ_ERR(0, "CQ error"),
    QP_FATAL(1, "local work queue catastrophic error"),
    QP_REQ_ERR(2, "invalid request local work queue error"),
    QP_ACCESS_ERR(3, "local access violation work queue error"),
    COMM_EST(4, "communication established"),
    SQ_DRAINED(5, "send queue drained"),
    PATH_MIG(6, "path migrated"),
    PATH_MIG_ERR(7, "path migration request error"),
    DEVICE_FATAL(8, "local catastrophic error"),
    PORT_ACTIVE(9, "port active"),
    PORT_ERR(10, "port error"),
    LID_CHANGE(11, "LID change"),
    PKEY_CHANGE(12, "P_Key change"),
    SM_CHANGE(13, "SM change"),
    SRQ_ERR(14, "SRQ catastrophic error"),
    SRQ_LIMIT_REACHED(15, "SRQ limit reached"),
    QP_LAST_WQE_REACHED(16, "last WQE reached"),
    CLIENT_REREGISTER(17, "client reregistration"),
    GID_CHANGE(18, "GID table change"),
    WQ_FATAL(19, "WQ fatal"),
    DEVICE_SPEED_CHANGE(20, "Device link speed change"),
    /** A value outside 0..20. */
    UNKNOWN(-1, "unknown");

    private static final EventType[] BY_VALUE = values();
    private final int value;
    private final String text;

    EventType(int value, String text) {
        this.value = value;
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
