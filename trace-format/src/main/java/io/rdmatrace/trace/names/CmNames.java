package io.rdmatrace.trace.names;

import static io.rdmatrace.trace.names.ValueNames.enumeration;

/**
 * The RDMA connection manager's enum tables: librdmacm's {@code <rdma/rdma_cma.h>} and the IB CM
 * reject reasons (IBA table 109, the kernel's {@code enum ib_cm_rej_reason}). ABI values, never
 * renumbered.
 */
public final class CmNames {

    private CmNames() {
    }

    public static final ValueNames EVENT_TYPE = enumeration("enum rdma_cm_event_type",
            0, "RDMA_CM_EVENT_ADDR_RESOLVED", 1, "RDMA_CM_EVENT_ADDR_ERROR", 2, "RDMA_CM_EVENT_ROUTE_RESOLVED",
            3, "RDMA_CM_EVENT_ROUTE_ERROR", 4, "RDMA_CM_EVENT_CONNECT_REQUEST", 5, "RDMA_CM_EVENT_CONNECT_RESPONSE",
            6, "RDMA_CM_EVENT_CONNECT_ERROR", 7, "RDMA_CM_EVENT_UNREACHABLE", 8, "RDMA_CM_EVENT_REJECTED",
            9, "RDMA_CM_EVENT_ESTABLISHED", 10, "RDMA_CM_EVENT_DISCONNECTED", 11, "RDMA_CM_EVENT_DEVICE_REMOVAL",
            12, "RDMA_CM_EVENT_MULTICAST_JOIN", 13, "RDMA_CM_EVENT_MULTICAST_ERROR", 14, "RDMA_CM_EVENT_ADDR_CHANGE",
            15, "RDMA_CM_EVENT_TIMEWAIT_EXIT");

    public static final ValueNames PORT_SPACE = enumeration("enum rdma_port_space",
            0x0002, "RDMA_PS_IPOIB", 0x0106, "RDMA_PS_TCP", 0x0111, "RDMA_PS_UDP", 0x013F, "RDMA_PS_IB");

    public static final ValueNames REJECT_REASON = enumeration("IB CM reject reason (IB_CM_REJ_*)",
            1, "IB_CM_REJ_NO_QP", 2, "IB_CM_REJ_NO_EEC", 3, "IB_CM_REJ_NO_RESOURCES", 4, "IB_CM_REJ_TIMEOUT",
            5, "IB_CM_REJ_UNSUPPORTED", 6, "IB_CM_REJ_INVALID_COMM_ID", 7, "IB_CM_REJ_INVALID_COMM_INSTANCE",
            8, "IB_CM_REJ_INVALID_SERVICE_ID", 9, "IB_CM_REJ_INVALID_TRANSPORT_TYPE", 10, "IB_CM_REJ_STALE_CONN",
            11, "IB_CM_REJ_RDC_NOT_EXIST", 12, "IB_CM_REJ_INVALID_GID", 13, "IB_CM_REJ_INVALID_LID",
            14, "IB_CM_REJ_INVALID_SL", 15, "IB_CM_REJ_INVALID_TRAFFIC_CLASS", 16, "IB_CM_REJ_INVALID_HOP_LIMIT",
            17, "IB_CM_REJ_INVALID_PACKET_RATE", 18, "IB_CM_REJ_INVALID_ALT_GID", 19, "IB_CM_REJ_INVALID_ALT_LID",
            20, "IB_CM_REJ_INVALID_ALT_SL", 21, "IB_CM_REJ_INVALID_ALT_TRAFFIC_CLASS",
            22, "IB_CM_REJ_INVALID_ALT_HOP_LIMIT", 23, "IB_CM_REJ_INVALID_ALT_PACKET_RATE",
            24, "IB_CM_REJ_PORT_CM_REDIRECT", 25, "IB_CM_REJ_PORT_REDIRECT", 26, "IB_CM_REJ_INVALID_MTU",
            27, "IB_CM_REJ_INSUFFICIENT_RESP_RESOURCES", 28, "IB_CM_REJ_CONSUMER_DEFINED",
            29, "IB_CM_REJ_INVALID_RNR_RETRY", 30, "IB_CM_REJ_DUPLICATE_LOCAL_COMM_ID",
            31, "IB_CM_REJ_INVALID_CLASS_VERSION", 32, "IB_CM_REJ_INVALID_FLOW_LABEL",
            33, "IB_CM_REJ_INVALID_ALT_FLOW_LABEL", 35, "IB_CM_REJ_VENDOR_OPTION_NOT_SUPPORTED");

    /** {@code RDMA_CM_EVENT_REJECTED}: its status is the reject reason. */
    public static final int EVENT_REJECTED = 8;
}
