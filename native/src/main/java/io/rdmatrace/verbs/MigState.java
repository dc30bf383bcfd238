package io.rdmatrace.verbs;

/** {@code enum ibv_mig_state} (path migration state). */
public enum MigState implements VerbsEnum {
    MIGRATED(0), REARM(1), ARMED(2);

    private final int value;

    MigState(int value) {
        this.value = value;
    }

    @Override
    public int value() {
        return value;
    }

    @Override
    public String ibvName() {
        return "IBV_MIG_" + name();
    }

    /** Values outside 0..2 decode as MIGRATED (the zero value). */
    public static MigState of(int value) {
        return value == 1 ? REARM : value == 2 ? ARMED : MIGRATED;
    }
}
