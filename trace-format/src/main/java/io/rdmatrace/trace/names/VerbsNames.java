package io.rdmatrace.trace.names;

import io.rdmatrace.abi.IbvEnum;
import io.rdmatrace.abi.QpMask;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The libibverbs enum and flag tables the attributes render with, made from the verbs ABI model
 * ({@link IbvEnum}, {@link QpMask}): the values and names are written there once, for the binding's
 * enums too (see shared/reference/rdma-facts.md section 2).
 */
public final class VerbsNames {

    private VerbsNames() {
    }

    public static final ValueNames QP_STATE = of(IbvEnum.QP_STATE);

    public static final ValueNames MTU = of(IbvEnum.MTU);

    public static final ValueNames QP_TYPE = of(IbvEnum.QP_TYPE);

    public static final ValueNames MIG_STATE = of(IbvEnum.MIG_STATE);

    public static final ValueNames PORT_STATE = of(IbvEnum.PORT_STATE);

    public static final ValueNames LINK_LAYER = of(IbvEnum.LINK_LAYER);

    public static final ValueNames GID_TYPE = of(IbvEnum.GID_TYPE);

    public static final ValueNames ATOMIC_CAP = of(IbvEnum.ATOMIC_CAP);

    public static final ValueNames NODE_TYPE = of(IbvEnum.NODE_TYPE);

    public static final ValueNames WC_STATUS = of(IbvEnum.WC_STATUS);

    public static final ValueNames WC_OPCODE = of(IbvEnum.WC_OPCODE);

    public static final ValueNames WR_OPCODE = of(IbvEnum.WR_OPCODE);

    public static final ValueNames EVENT_TYPE = of(IbvEnum.EVENT_TYPE);

    public static final ValueNames ACCESS_FLAGS = of(IbvEnum.ACCESS_FLAGS);

    public static final ValueNames QP_ATTR_MASK = qpAttrMask();

    public static final ValueNames SEND_FLAGS = of(IbvEnum.SEND_FLAGS);

    public static final ValueNames WC_FLAGS = of(IbvEnum.WC_FLAGS);

    private static ValueNames of(IbvEnum e) {
        List<Object> pairs = new ArrayList<>();
        for (Map.Entry<Long, String> entry : e.entries().entrySet()) {
            pairs.add(entry.getKey());
            pairs.add(entry.getValue());
        }
        return e.isFlags() ? ValueNames.flags(e.title(), pairs.toArray())
                : ValueNames.enumeration(e.title(), pairs.toArray());
    }

    private static ValueNames qpAttrMask() {
        List<Object> pairs = new ArrayList<>();
        for (QpMask m : QpMask.values()) {
            pairs.add(m.bit());
            pairs.add(m.ibvName());
        }
        return ValueNames.flags("enum ibv_qp_attr_mask", pairs.toArray());
    }
}
