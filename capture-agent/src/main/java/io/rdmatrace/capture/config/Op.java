package io.rdmatrace.capture.config;

import java.util.Locale;

/** What TC04 does each way: a SEND into a posted receive, or an RDMA WRITE/READ with the exchanged addr/rkey. */
public enum Op {
    SEND(2), WRITE(0), READ(4);

    private final int wrOpcode;

    Op(int wrOpcode) {
        this.wrOpcode = wrOpcode;
    }

    /** enum ibv_wr_opcode value. */
    public int wrOpcode() {
        return wrOpcode;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
