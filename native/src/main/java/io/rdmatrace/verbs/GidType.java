package io.rdmatrace.verbs;

/** {@code enum ibv_gid_type}, with the spelling ibv_devinfo prints. */
public enum GidType implements VerbsEnum {
    IB(0, "IB"), ROCE_V1(1, "RoCE v1"), ROCE_V2(2, "RoCE v2"),
    /** The library could not say (no {@code _ibv_query_gid_ex} and no sysfs entry). */
    UNKNOWN(-1, "unknown");

    private final int value;
    private final String text;

    GidType(int value, String text) {
        this.value = value;
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
