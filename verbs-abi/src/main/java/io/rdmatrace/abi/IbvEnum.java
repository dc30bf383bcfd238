package io.rdmatrace.abi;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The libibverbs enums and flag sets, value and name, each written once: the trace's renderers
 * ({@code io.rdmatrace.trace.names.VerbsNames}, and through them the analyzer's SQL name macros) and the
 * binding's Java enums ({@code io.rdmatrace.verbs.QpState} ...) take their values from here. Values
 * are the ABI values of {@code <infiniband/verbs.h>}; they are facts of the C library, never renumbered.
 * ({@code enum ibv_qp_attr_mask} is {@link QpMask}.)
 */
public enum IbvEnum {
    QP_STATE(false, "enum ibv_qp_state",
            0, "IBV_QPS_RESET", 1, "IBV_QPS_INIT", 2, "IBV_QPS_RTR", 3, "IBV_QPS_RTS", 4, "IBV_QPS_SQD",
            5, "IBV_QPS_SQE", 6, "IBV_QPS_ERR", 7, "IBV_QPS_UNKNOWN"),

    MTU(false, "enum ibv_mtu",
            1, "IBV_MTU_256", 2, "IBV_MTU_512", 3, "IBV_MTU_1024", 4, "IBV_MTU_2048", 5, "IBV_MTU_4096"),

    QP_TYPE(false, "enum ibv_qp_type",
            2, "IBV_QPT_RC", 3, "IBV_QPT_UC", 4, "IBV_QPT_UD", 8, "IBV_QPT_RAW_PACKET", 9, "IBV_QPT_XRC_SEND",
            10, "IBV_QPT_XRC_RECV", 0xFF, "IBV_QPT_DRIVER"),

    MIG_STATE(false, "enum ibv_mig_state",
            0, "IBV_MIG_MIGRATED", 1, "IBV_MIG_REARM", 2, "IBV_MIG_ARMED"),

    PORT_STATE(false, "enum ibv_port_state",
            0, "IBV_PORT_NOP", 1, "IBV_PORT_DOWN", 2, "IBV_PORT_INIT", 3, "IBV_PORT_ARMED", 4, "IBV_PORT_ACTIVE",
            5, "IBV_PORT_ACTIVE_DEFER"),

    LINK_LAYER(false, "link layer (IBV_LINK_LAYER_*)",
            0, "IBV_LINK_LAYER_UNSPECIFIED", 1, "IBV_LINK_LAYER_INFINIBAND", 2, "IBV_LINK_LAYER_ETHERNET"),

    GID_TYPE(false, "enum ibv_gid_type",
            0, "IBV_GID_TYPE_IB", 1, "IBV_GID_TYPE_ROCE_V1", 2, "IBV_GID_TYPE_ROCE_V2"),

    ATOMIC_CAP(false, "enum ibv_atomic_cap",
            0, "IBV_ATOMIC_NONE", 1, "IBV_ATOMIC_HCA", 2, "IBV_ATOMIC_GLOB"),

    NODE_TYPE(false, "enum ibv_node_type",
            -1, "IBV_NODE_UNKNOWN", 1, "IBV_NODE_CA", 2, "IBV_NODE_SWITCH", 3, "IBV_NODE_ROUTER", 4, "IBV_NODE_RNIC",
            5, "IBV_NODE_USNIC", 6, "IBV_NODE_USNIC_UDP", 7, "IBV_NODE_UNSPECIFIED"),

    WC_STATUS(false, "enum ibv_wc_status",
            0, "IBV_WC_SUCCESS", 1, "IBV_WC_LOC_LEN_ERR", 2, "IBV_WC_LOC_QP_OP_ERR", 3, "IBV_WC_LOC_EEC_OP_ERR",
            4, "IBV_WC_LOC_PROT_ERR", 5, "IBV_WC_WR_FLUSH_ERR", 6, "IBV_WC_MW_BIND_ERR", 7, "IBV_WC_BAD_RESP_ERR",
            8, "IBV_WC_LOC_ACCESS_ERR", 9, "IBV_WC_REM_INV_REQ_ERR", 10, "IBV_WC_REM_ACCESS_ERR",
            11, "IBV_WC_REM_OP_ERR", 12, "IBV_WC_RETRY_EXC_ERR", 13, "IBV_WC_RNR_RETRY_EXC_ERR",
            14, "IBV_WC_LOC_RDD_VIOL_ERR", 15, "IBV_WC_REM_INV_RD_REQ_ERR", 16, "IBV_WC_REM_ABORT_ERR",
            17, "IBV_WC_INV_EECN_ERR", 18, "IBV_WC_INV_EEC_STATE_ERR", 19, "IBV_WC_FATAL_ERR",
            20, "IBV_WC_RESP_TIMEOUT_ERR", 21, "IBV_WC_GENERAL_ERR", 22, "IBV_WC_TM_ERR",
            23, "IBV_WC_TM_RNDV_INCOMPLETE"),

    WC_OPCODE(false, "enum ibv_wc_opcode",
            0, "IBV_WC_SEND", 1, "IBV_WC_RDMA_WRITE", 2, "IBV_WC_RDMA_READ", 3, "IBV_WC_COMP_SWAP",
            4, "IBV_WC_FETCH_ADD", 5, "IBV_WC_BIND_MW", 6, "IBV_WC_LOCAL_INV", 7, "IBV_WC_TSO", 8, "IBV_WC_FLUSH",
            9, "IBV_WC_ATOMIC_WRITE", 128, "IBV_WC_RECV", 129, "IBV_WC_RECV_RDMA_WITH_IMM", 130, "IBV_WC_TM_ADD",
            131, "IBV_WC_TM_DEL", 132, "IBV_WC_TM_SYNC", 133, "IBV_WC_TM_RECV", 134, "IBV_WC_TM_NO_TAG",
            135, "IBV_WC_DRIVER1", 136, "IBV_WC_DRIVER2", 137, "IBV_WC_DRIVER3"),

    WR_OPCODE(false, "enum ibv_wr_opcode",
            0, "IBV_WR_RDMA_WRITE", 1, "IBV_WR_RDMA_WRITE_WITH_IMM", 2, "IBV_WR_SEND", 3, "IBV_WR_SEND_WITH_IMM",
            4, "IBV_WR_RDMA_READ", 5, "IBV_WR_ATOMIC_CMP_AND_SWP", 6, "IBV_WR_ATOMIC_FETCH_AND_ADD",
            7, "IBV_WR_LOCAL_INV", 8, "IBV_WR_BIND_MW", 9, "IBV_WR_SEND_WITH_INV", 10, "IBV_WR_TSO",
            11, "IBV_WR_DRIVER1", 14, "IBV_WR_FLUSH", 15, "IBV_WR_ATOMIC_WRITE"),

    EVENT_TYPE(false, "enum ibv_event_type",
            0, "IBV_EVENT_CQ_ERR", 1, "IBV_EVENT_QP_FATAL", 2, "IBV_EVENT_QP_REQ_ERR", 3, "IBV_EVENT_QP_ACCESS_ERR",
            4, "IBV_EVENT_COMM_EST", 5, "IBV_EVENT_SQ_DRAINED", 6, "IBV_EVENT_PATH_MIG", 7, "IBV_EVENT_PATH_MIG_ERR",
            8, "IBV_EVENT_DEVICE_FATAL", 9, "IBV_EVENT_PORT_ACTIVE", 10, "IBV_EVENT_PORT_ERR",
            11, "IBV_EVENT_LID_CHANGE", 12, "IBV_EVENT_PKEY_CHANGE", 13, "IBV_EVENT_SM_CHANGE",
            14, "IBV_EVENT_SRQ_ERR", 15, "IBV_EVENT_SRQ_LIMIT_REACHED", 16, "IBV_EVENT_QP_LAST_WQE_REACHED",
            17, "IBV_EVENT_CLIENT_REREGISTER", 18, "IBV_EVENT_GID_CHANGE", 19, "IBV_EVENT_WQ_FATAL",
            20, "IBV_EVENT_DEVICE_SPEED_CHANGE"),

    ACCESS_FLAGS(true, "enum ibv_access_flags",
            0x1, "IBV_ACCESS_LOCAL_WRITE", 0x2, "IBV_ACCESS_REMOTE_WRITE", 0x4, "IBV_ACCESS_REMOTE_READ",
            0x8, "IBV_ACCESS_REMOTE_ATOMIC", 0x10, "IBV_ACCESS_MW_BIND", 0x20, "IBV_ACCESS_ZERO_BASED",
            0x40, "IBV_ACCESS_ON_DEMAND", 0x80, "IBV_ACCESS_HUGETLB", 0x100, "IBV_ACCESS_FLUSH_GLOBAL",
            0x200, "IBV_ACCESS_FLUSH_PERSISTENT", 1 << 20, "IBV_ACCESS_RELAXED_ORDERING"),

    SEND_FLAGS(true, "enum ibv_send_flags",
            1, "IBV_SEND_FENCE", 2, "IBV_SEND_SIGNALED", 4, "IBV_SEND_SOLICITED", 8, "IBV_SEND_INLINE",
            16, "IBV_SEND_IP_CSUM"),

    WC_FLAGS(true, "enum ibv_wc_flags",
            1, "IBV_WC_GRH", 2, "IBV_WC_WITH_IMM", 4, "IBV_WC_IP_CSUM_OK", 8, "IBV_WC_WITH_INV",
            16, "IBV_WC_TM_SYNC_REQ", 32, "IBV_WC_TM_MATCH", 64, "IBV_WC_TM_DATA_VALID");

    private final boolean flags;
    private final String title;
    private final Map<Long, String> names;
    private final Map<String, Long> values;

    IbvEnum(boolean flags, String title, Object... valueNamePairs) {
        this.flags = flags;
        this.title = title;
        Map<Long, String> n = new TreeMap<>();
        Map<String, Long> v = new TreeMap<>();
        for (int i = 0; i < valueNamePairs.length; i += 2) {
            long value = ((Number) valueNamePairs[i]).longValue();
            String name = (String) valueNamePairs[i + 1];
            if (n.put(value, name) != null || v.put(name, value) != null) {
                throw new IllegalArgumentException(title + ": duplicate " + value + " / " + name);
            }
            if (flags && Long.bitCount(value) != 1) {
                throw new IllegalArgumentException(title + ": flag value is not a single bit: " + value);
            }
        }
        this.names = Collections.unmodifiableMap(n);
        this.values = Collections.unmodifiableMap(v);
    }

    /** A flag set (each value one bit) rather than an enum. */
    public boolean isFlags() {
        return flags;
    }

    /** The C type, e.g. {@code enum ibv_qp_state}. */
    public String title() {
        return title;
    }

    /** Every (value, name) pair in ascending value order. */
    public Map<Long, String> entries() {
        return names;
    }

    /**
     * The bytes of an {@code enum ibv_mtu} value, read from its C name ({@code IBV_MTU_1024} → 1024): the one
     * MTU table (the binding's Mtu, the scenarios, the SQL macro mtu_bytes and softverbs' C read it), or -1.
     */
    public static int mtuBytes(long mtu) {
        String name = MTU.names.get(mtu);
        return name == null ? -1 : Integer.parseInt(name.substring("IBV_MTU_".length()));
    }

    /** The {@code enum ibv_mtu} value of exactly this many bytes, or -1. */
    public static int mtuOfBytes(long bytes) {
        for (long mtu : MTU.names.keySet()) {
            if (mtuBytes(mtu) == bytes) {
                return (int) mtu;
            }
        }
        return -1;
    }

    /** The value of a constant by its C name ({@code IBV_QPS_RTS} → 3), or {@code ifAbsent}. */
    public int value(String ibvName, int ifAbsent) {
        Long v = values.get(ibvName);
        return v == null ? ifAbsent : v.intValue();
    }
}
