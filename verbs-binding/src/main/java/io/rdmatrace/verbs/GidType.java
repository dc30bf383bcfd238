package io.rdmatrace.verbs;

import io.rdmatrace.abi.IbvEnum;

/** {@code enum ibv_gid_type}, with the spelling ibv_devinfo prints. */
public enum GidType implements VerbsEnum {
    IB("IB"), ROCE_V1("RoCE v1"), ROCE_V2("RoCE v2"),
    /** The library could not say (no {@code _ibv_query_gid_ex} and no sysfs entry). */
    UNKNOWN("unknown");

    /** From the verbs ABI model, by the C name ({@link #ibvName()}); a constant libibverbs does not define is -1. */
    private final int value = IbvEnum.GID_TYPE.value(ibvName(), -1);
    private final String text;

    GidType(String text) {
        this.text = text;
    }

    @Override
    public int value() {
        return value;
    }

    @Override
    public String ibvName() {
        return "IBV_GID_TYPE_" + name();
    }

    public String text() {
        return text;
    }

    public static GidType of(int value) {
        return value >= 0 && value <= 2 ? values()[value] : UNKNOWN;
    }

    /** Parses the sysfs spelling ("IB/RoCE v1", "RoCE v2"). */
    static GidType ofSysfs(String text) {
        String t = text.trim();
        if (t.equals("RoCE v2")) {
            return ROCE_V2;
        }
        if (t.equals("IB/RoCE v1") || t.equals("RoCE v1")) {
            return ROCE_V1;
        }
        return t.equals("IB") ? IB : UNKNOWN;
    }
}
