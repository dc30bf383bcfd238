package io.rdmatrace.verbs;

/** {@code enum ibv_atomic_cap}. */
public enum AtomicCap implements VerbsEnum {
    NONE(0), HCA(1), GLOB(2);

    private final int value;

    AtomicCap(int value) {
        this.value = value;
    }

    @Override
    public int value() {
        return value;
    }

    @Override
    public String ibvName() {
        return "IBV_ATOMIC_" + name();
    }

    public static AtomicCap of(int value) {
        return value == 1 ? HCA : value == 2 ? GLOB : NONE;
    }
}
