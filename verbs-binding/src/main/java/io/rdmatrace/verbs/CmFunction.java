package io.rdmatrace.verbs;

/**
 * The librdmacm functions a CM record names (C's CM_FUNC_LIST in native {@code record/tr_payload.h};
 * the ordinal is the code C writes, the name is the trace's verb name).
 */
public enum CmFunction {
    rdma_create_event_channel, rdma_destroy_event_channel, rdma_create_id, rdma_destroy_id, rdma_create_ep,
    rdma_destroy_ep, rdma_bind_addr, rdma_resolve_addr, rdma_resolve_route, rdma_listen, rdma_get_request,
    rdma_connect, rdma_accept, rdma_reject, rdma_reject_ece, rdma_establish, rdma_disconnect, rdma_notify,
    rdma_create_qp, rdma_create_qp_ex, rdma_destroy_qp, rdma_get_cm_event, rdma_ack_cm_event, rdma_set_option,
    rdma_migrate_id, rdma_init_qp_attr, rdma_getaddrinfo, rdma_create_srq, rdma_create_srq_ex, rdma_destroy_srq;

    private static final CmFunction[] ALL = values();

    /** The function of code {@code code}, or null for one this build does not know. */
    public static CmFunction of(long code) {
        return code >= 0 && code < ALL.length ? ALL[(int) code] : null;
    }
}
