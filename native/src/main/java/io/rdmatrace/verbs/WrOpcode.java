package io.rdmatrace.verbs;

/** {@code enum ibv_wr_opcode}, with the text of {@code ibv_wr_opcode_str}. */
public enum WrOpcode implements VerbsEnum {
    RDMA_WRITE(0, "rdma-write"), RDMA_WRITE_WITH_IMM(1, "rdma-write-with-imm"), SEND(2, "send"),
    SEND_WITH_IMM(3, "send-with-imm"), RDMA_READ(4, "rdma-read"), ATOMIC_CMP_AND_SWP(5, "atomic-cmp-and-swp"),
    ATOMIC_FETCH_AND_ADD(6, "atomic-fetch-and-add"), LOCAL_INV(7, "local-inv"), BIND_MW(8, "bind-mw"),
    SEND_WITH_INV(9, "send-with-inv"), TSO(10, "tso"), DRIVER1(11, "driver1"), FLUSH(14, "flush"),
    ATOMIC_WRITE(15, "atomic-write"),
    /** A value libibverbs does not define. */
    UNKNOWN(-1, "unknown");

    private static final WrOpcode[] BY_VALUE = new WrOpcode[16];

    static {
        for (WrOpcode op : values()) {
            if (op.value >= 0) {
                BY_VALUE[op.value] = op;
            }
        }
    }

    private final int value;
    private final String text;

    WrOpcode(int value, String text) {
        this.value = value;
        this.text = text;
    }

    @Override
    public int value() {
        return value;
    }

    @Override
    public String ibvName() {
        return "IBV_WR_" + name();
    }

    public String text() {
        return text;
    }

    public static WrOpcode of(int value) {
        WrOpcode op = value >= 0 && value < BY_VALUE.length ? BY_VALUE[value] : null;
        return op != null ? op : UNKNOWN;
    }
}
