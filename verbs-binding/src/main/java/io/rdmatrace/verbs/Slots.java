package io.rdmatrace.verbs;

import io.rdmatrace.abi.QpField;
import java.util.List;

/**
 * Java's mirror of the slot lists in {@code verbs-abi/src/main/c/record/layout.h}: each nested enum names the
 * int64 slots of one block, in C's order. {@link NativeLayout} compares every list with the C
 * one when the library loads, so the two cannot drift silently. Public for readers of the tracing
 * libibverbs' event ring, whose records carry the same blocks (see {@link SlotStructs}).
 */
public final class Slots {
    private Slots() {
    }

    /** Start of every call block; the verb's payload follows at {@link #PAYLOAD}. */
    public enum Status { RET, ERRNO, DURATION_NS, EXTRA }

    public static final int PAYLOAD = Status.values().length;

    public enum DeviceAttr {
        NODE_GUID, SYS_IMAGE_GUID, MAX_MR_SIZE, PAGE_SIZE_CAP, VENDOR_ID, VENDOR_PART_ID, HW_VER, MAX_QP,
        MAX_QP_WR, DEVICE_CAP_FLAGS, MAX_SGE, MAX_SGE_RD, MAX_CQ, MAX_CQE, MAX_MR, MAX_PD, MAX_QP_RD_ATOM,
        MAX_EE_RD_ATOM, MAX_RES_RD_ATOM, MAX_QP_INIT_RD_ATOM, MAX_EE_INIT_RD_ATOM, ATOMIC_CAP, MAX_EE, MAX_RDD,
        MAX_MW, MAX_RAW_IPV6_QP, MAX_RAW_ETHY_QP, MAX_MCAST_GRP, MAX_MCAST_QP_ATTACH, MAX_TOTAL_MCAST_QP_ATTACH,
        MAX_AH, MAX_FMR, MAX_MAP_PER_FMR, MAX_SRQ, MAX_SRQ_WR, MAX_SRQ_SGE, MAX_PKEYS, LOCAL_CA_ACK_DELAY,
        PHYS_PORT_CNT
    }

    public enum PortAttr {
        STATE, MAX_MTU, ACTIVE_MTU, GID_TBL_LEN, PORT_CAP_FLAGS, MAX_MSG_SZ, BAD_PKEY_CNTR, QKEY_VIOL_CNTR,
        PKEY_TBL_LEN, LID, SM_LID, LMC, MAX_VL_NUM, SM_SL, SUBNET_TIMEOUT, INIT_TYPE_REPLY, ACTIVE_WIDTH,
        ACTIVE_SPEED, PHYS_STATE, LINK_LAYER, FLAGS, PORT_CAP_FLAGS2
    }

    public enum GidEntry { GID_0, GID_1, GID_INDEX, PORT_NUM, GID_TYPE, NDEV_IFINDEX }

    public enum AhAttr {
        DGID_0, DGID_1, FLOW_LABEL, SGID_INDEX, HOP_LIMIT, TRAFFIC_CLASS, DLID, SL, SRC_PATH_BITS, STATIC_RATE,
        IS_GLOBAL, PORT_NUM
    }

    /**
     * The QP_ATTR block: the slot of every {@link QpField} of that block, in struct order (C's list in
     * verbs_abi.h is generated from the same descriptors; {@link NativeLayout} still compares the two).
     */
    public static final List<String> QP_ATTR = QpField.all().stream()
            .filter(f -> f.block() == QpField.Block.QP_ATTR).map(QpField::slot).toList();

    /** A QP_ATTR block is followed by ah_attr and alt_ah_attr blocks. */
    public static final int QA_AH_BASE = QP_ATTR.size();
    public static final int QA_ALT_AH_BASE = QA_AH_BASE + AhAttr.values().length;
    public static final int QA_BLOCK = QA_ALT_AH_BASE + AhAttr.values().length;

    public enum QpInit {
        SEND_CQ, RECV_CQ, SRQ, QP_TYPE, SQ_SIG_ALL, MAX_SEND_WR, MAX_RECV_WR, MAX_SEND_SGE, MAX_RECV_SGE,
        MAX_INLINE_DATA, QP_NUM
    }

    public enum AsyncEvent { EVENT_TYPE, ELEMENT, QP_NUM, PORT_NUM }

    public enum Batch { RET, ERRNO, DURATION_NS, COUNT, BAD_INDEX, RESERVED_5, RESERVED_6, RESERVED_7 }

    public enum SendWr {
        WR_ID, OPCODE, SEND_FLAGS, IMM_DATA, REMOTE_ADDR, RKEY, COMPARE_ADD, SWAP, AH, REMOTE_QPN, REMOTE_QKEY,
        NUM_SGE
    }

    public enum RecvWr { WR_ID, NUM_SGE }

    public enum Sge { ADDR, LENGTH, LKEY }

    public enum Wc {
        WR_ID, STATUS, OPCODE, VENDOR_ERR, BYTE_LEN, IMM_DATA, QP_NUM, SRC_QP, WC_FLAGS, PKEY_INDEX, SLID, SL,
        DLID_PATH_BITS
    }
}
