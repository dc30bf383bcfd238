package io.rdmatrace.verbs;

import io.rdmatrace.abi.IbvEnum;

/** {@code enum ibv_node_type} of a device. */
public enum NodeType implements VerbsEnum {
    UNKNOWN, CA, SWITCH, ROUTER, RNIC, USNIC, USNIC_UDP, UNSPECIFIED;

    /** From the verbs ABI model, by the C name ({@link #ibvName()}); a constant libibverbs does not define is -1. */
    private final int value = IbvEnum.NODE_TYPE.value(ibvName(), -1);

    @Override
    public int value() {
        return value;
    }

    @Override
    public String ibvName() {
        return "IBV_NODE_" + name();
    }

    public static NodeType of(int value) {
        for (NodeType t : values()) {
            if (t.value == value) {
                return t;
            }
        }
        return UNKNOWN;
    }
}
