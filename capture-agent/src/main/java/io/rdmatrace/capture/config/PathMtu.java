package io.rdmatrace.capture.config;

import io.rdmatrace.abi.IbvEnum;

/** enum ibv_mtu (1=256 … 5=4096, IbvEnum's table) and the negotiation both agents do with the exchanged values. */
public final class PathMtu {
    public static final int MIN = IbvEnum.MTU.entries().keySet().stream().mapToInt(Long::intValue).min().orElseThrow();
    public static final int MAX = IbvEnum.MTU.entries().keySet().stream().mapToInt(Long::intValue).max().orElseThrow();

    private PathMtu() {
    }

    /** 256..4096 (a power of two) → enum value; small numbers 1..5 are taken as the enum value itself. */
    public static int parse(String text) {
        Long v = Symbols.parseNumber(text.trim());
        if (v != null && v >= MIN && v <= MAX) {
            return v.intValue();
        }
        if (v != null && IbvEnum.mtuOfBytes(v) >= 0) {
            return IbvEnum.mtuOfBytes(v);
        }
        String t = text.trim().toUpperCase(java.util.Locale.ROOT);
        if (t.startsWith("IBV_MTU_")) {
            return parse(t.substring("IBV_MTU_".length()));
        }
        throw new IllegalArgumentException("path MTU must be 256, 512, 1024, 2048 or 4096, got '" + text + "'");
    }

    public static int bytes(int mtu) {
        int bytes = IbvEnum.mtuBytes(mtu);
        if (bytes < 0) {
            throw new IllegalArgumentException("not an ibv_mtu value: " + mtu);
        }
        return bytes;
    }

    /**
     * The path MTU this end programs: the override when one is given (so a one-sided override really
     * is one-sided), else the smaller of the two ports' active MTUs.
     */
    public static int negotiate(int localActive, int peerActive, Integer override) {
        return override != null ? override : Math.min(localActive, peerActive);
    }
}
