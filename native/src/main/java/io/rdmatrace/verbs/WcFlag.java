package io.rdmatrace.verbs;

/** {@code enum ibv_wc_flags} of a work completion. */
public enum WcFlag implements VerbsEnum {
    GRH(1), WITH_IMM(2), IP_CSUM_OK(4), WITH_INV(8), TM_SYNC_REQ(16), TM_MATCH(32), TM_DATA_VALID(64);

    private final int value;

    WcFlag(int value) {
        this.value = value;
    }

    @Override
    public int value() {
        return value;
    }

    @Override
    public String ibvName() {
        return "IBV_WC_" + name();
    }

    public boolean isSetIn(int bits) {
        return (bits & value) != 0;
    }
}
