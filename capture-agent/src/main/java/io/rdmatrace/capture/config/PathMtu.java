package io.rdmatrace.capture.config;

/** enum ibv_mtu (1=256 … 5=4096) and the negotiation both agents do with the exchanged values. */
public final class PathMtu {
    public static final int MIN = 1;
    public static final int MAX = 5;

    private PathMtu() {
    }

    /** 256..4096 (a power of two) → enum value; small numbers 1..5 are taken as the enum value itself. */
    public static int parse(String text) {
        Long v = Symbols.parseNumber(text.trim());
        if (v != null && v >= MIN && v <= MAX) {
            return v.intValue();
        }
        if (v != null) {
            for (int e = MIN; e <= MAX; e++) {
                if (bytes(e) == v) {
                    return e;
                }
            }
        }
        String t = text.trim().toUpperCase(java.util.Locale.ROOT);
        if (t.startsWith("IBV_MTU_")) {
            return parse(t.substring("IBV_MTU_".length()));
        }
        throw new IllegalArgumentException("path MTU must be 256, 512, 1024, 2048 or 4096, got '" + text + "'");
    }

    public static int bytes(int mtu) {
        if (mtu < MIN || mtu > MAX) {
            throw new IllegalArgumentException("not an ibv_mtu value: " + mtu);
        }
        return 1 << (mtu + 7);
    }

    /**
     * The path MTU this end programs: the override when one is given (so a one-sided override really
     * is one-sided), else the smaller of the two ports' active MTUs.
     */
    public static int negotiate(int localActive, int peerActive, Integer override) {
        return override != null ? override : Math.min(localActive, peerActive);
    }
}
