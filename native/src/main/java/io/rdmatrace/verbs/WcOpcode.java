package io.rdmatrace.verbs;

/** {@code enum ibv_wc_opcode}; receive opcodes have bit 7 set ({@link #isReceive()}). */
public enum WcOpcode implements VerbsEnum {
    SEND(0), RDMA_WRITE(1), RDMA_READ(2), COMP_SWAP(3), FETCH_ADD(4), BIND_MW(5), LOCAL_INV(6), TSO(7),
    FLUSH(8), ATOMIC_WRITE(9), RECV(128), RECV_RDMA_WITH_IMM(129), TM_ADD(130), TM_DEL(131), TM_SYNC(132),
    TM_RECV(133), TM_NO_TAG(134), DRIVER1(135), DRIVER2(136), DRIVER3(137),
    /** A value libibverbs does not define. */
    UNKNOWN(-1);

    private static final WcOpcode[] BY_VALUE = new WcOpcode[138];

    static {
        for (WcOpcode op : values()) {
            if (op.value >= 0) {
                BY_VALUE[op.value] = op;
            }
        }
    }

    private final int value;

    WcOpcode(int value) {
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

    public boolean isReceive() {
        return value >= 0 && (value & 128) != 0;
    }

    public static WcOpcode of(int value) {
        WcOpcode op = value >= 0 && value < BY_VALUE.length ? BY_VALUE[value] : null;
        return op != null ? op : UNKNOWN;
    }
}
