package io.rdmatrace.verbs;

import io.rdmatrace.abi.IbvEnum;

/** {@code enum ibv_wc_opcode}; receive opcodes have bit 7 set ({@link #isReceive()}). */
public enum WcOpcode implements VerbsEnum {
    SEND, RDMA_WRITE, RDMA_READ, COMP_SWAP, FETCH_ADD, BIND_MW, LOCAL_INV, TSO,
    FLUSH, ATOMIC_WRITE, RECV, RECV_RDMA_WITH_IMM, TM_ADD, TM_DEL, TM_SYNC,
    TM_RECV, TM_NO_TAG, DRIVER1, DRIVER2, DRIVER3,
    /** A value libibverbs does not define. */
    UNKNOWN;

    private static final WcOpcode[] BY_VALUE = new WcOpcode[138];

    static {
        for (WcOpcode op : values()) {
            if (op.value >= 0) {
                BY_VALUE[op.value] = op;
            }
        }
    }

    /** From the verbs ABI model, by the C name ({@link #ibvName()}); a constant libibverbs does not define is -1. */
    private final int value = IbvEnum.WC_OPCODE.value(ibvName(), -1);

    @Override
    public int value() {
        return value;
    }

    @Override
    public String ibvName() {
        return "IBV_WC_" + name();
    }

    public boolean isReceive() {
        return value >= 0 && (value & 128) != 0;
    }

    public static WcOpcode of(int value) {
        WcOpcode op = value >= 0 && value < BY_VALUE.length ? BY_VALUE[value] : null;
        return op != null ? op : UNKNOWN;
    }
}
