package io.rdmatrace.capture.config;

import java.util.Objects;

/** What the connection carries: how many QPs of which type, and the TC04 traffic. */
public record Workload(Transport qpType, int qps, int size, int iterations, Op op) {
    /** Largest message; the MR holds a send and a receive half of this size per QP. */
    public static final int MAX_SIZE = 1 << 24;

    public Workload {
        Objects.requireNonNull(qpType, "qpType");
        Objects.requireNonNull(op, "op");
        if (qps < 1 || qps > 100_000) {
            throw new IllegalArgumentException("--qps must be in 1..100000, got " + qps);
        }
        if (size < 1 || size > MAX_SIZE) {
            throw new IllegalArgumentException("--size must be in 1.." + MAX_SIZE + ", got " + size);
        }
        if (iterations < 1 || iterations > 1_000_000) {
            throw new IllegalArgumentException("--iterations must be in 1..1000000, got " + iterations);
        }
        if (!qpType.supports(op)) {
            throw new IllegalArgumentException("--op " + op.label() + " is not possible on a " + qpType.name()
                    + " QP (UC: send, write; UD: send)");
        }
    }

    public static Workload defaults() {
        return new Workload(Transport.RC, 1, 4096, 1, Op.SEND);
    }
}
