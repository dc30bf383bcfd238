package io.rdmatrace.verbs;

import io.rdmatrace.abi.IbvEnum;

/** {@code enum ibv_wr_opcode}, with the text of {@code ibv_wr_opcode_str}. */
public enum WrOpcode implements VerbsEnum {
    RDMA_WRITE("rdma-write"), RDMA_WRITE_WITH_IMM("rdma-write-with-imm"), SEND("send"),
    SEND_WITH_IMM("send-with-imm"), RDMA_READ("rdma-read"), ATOMIC_CMP_AND_SWP("atomic-cmp-and-swp"),
    ATOMIC_FETCH_AND_ADD("atomic-fetch-and-add"), LOCAL_INV("local-inv"), BIND_MW("bind-mw"),
    SEND_WITH_INV("send-with-inv"), TSO("tso"), DRIVER1("driver1"), FLUSH("flush"),
    ATOMIC_WRITE("atomic-write"),
    /** A value libibverbs does not define. */
    UNKNOWN("unknown");

    private static final WrOpcode[] BY_VALUE = new WrOpcode[16];

    static {
        for (WrOpcode op : values()) {
            if (op.value >= 0) {
                BY_VALUE[op.value] = op;
            }
        }
    }

    /** From the verbs ABI model, by the C name ({@link #ibvName()}); a constant libibverbs does not define is -1. */
    private final int value = IbvEnum.WR_OPCODE.value(ibvName(), -1);
    private final String text;

    WrOpcode(String text) {
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
