package io.rdmatrace.trace.model;

import java.util.Locale;

/**
 * The libibverbs or librdmacm function a CALL event records. The numeric code is the on-disk format: never
 * reuse or renumber; add new verbs at the end with new codes.
 */
public enum Verb {
    IBV_GET_DEVICE_LIST(1),
    IBV_FREE_DEVICE_LIST(2),
    IBV_OPEN_DEVICE(3),
    IBV_CLOSE_DEVICE(4),
    IBV_QUERY_DEVICE(5),
    IBV_QUERY_PORT(6),
    IBV_QUERY_GID(7),
    IBV_QUERY_GID_EX(8),
    IBV_QUERY_PKEY(9),
    IBV_ALLOC_PD(10),
    IBV_DEALLOC_PD(11),
    IBV_REG_MR(12),
    IBV_DEREG_MR(13),
    IBV_CREATE_COMP_CHANNEL(14),
    IBV_DESTROY_COMP_CHANNEL(15),
    IBV_CREATE_CQ(16),
    IBV_RESIZE_CQ(17),
    IBV_DESTROY_CQ(18),
    IBV_REQ_NOTIFY_CQ(19),
    IBV_GET_CQ_EVENT(20),
    IBV_ACK_CQ_EVENTS(21),
    IBV_POLL_CQ(22),
    IBV_CREATE_QP(23),
    IBV_MODIFY_QP(24),
    IBV_QUERY_QP(25),
    IBV_DESTROY_QP(26),
    IBV_POST_SEND(27),
    IBV_POST_RECV(28),
    IBV_CREATE_AH(29),
    IBV_DESTROY_AH(30),
    IBV_GET_ASYNC_EVENT(31),
    IBV_ACK_ASYNC_EVENT(32),
    IBV_CREATE_SRQ(33),
    IBV_MODIFY_SRQ(34),
    IBV_QUERY_SRQ(35),
    IBV_DESTROY_SRQ(36),
    IBV_POST_SRQ_RECV(37),
    IBV_FORK_INIT(38),
    IBV_GET_DEVICE_GUID(39),
    IBV_GET_DEVICE_NAME(40),
    // librdmacm (rdma_cm), recorded by the tracing librdmacm; codes from 101 (since format 1.2)
    RDMA_CREATE_EVENT_CHANNEL(101),
    RDMA_DESTROY_EVENT_CHANNEL(102),
    RDMA_CREATE_ID(103),
    RDMA_DESTROY_ID(104),
    RDMA_CREATE_EP(105),
    RDMA_DESTROY_EP(106),
    RDMA_BIND_ADDR(107),
    RDMA_RESOLVE_ADDR(108),
    RDMA_RESOLVE_ROUTE(109),
    RDMA_LISTEN(110),
    RDMA_GET_REQUEST(111),
    RDMA_CONNECT(112),
    RDMA_ACCEPT(113),
    RDMA_REJECT(114),
    RDMA_REJECT_ECE(115),
    RDMA_ESTABLISH(116),
    RDMA_DISCONNECT(117),
    RDMA_NOTIFY(118),
    RDMA_CREATE_QP(119),
    RDMA_CREATE_QP_EX(120),
    RDMA_DESTROY_QP(121),
    RDMA_GET_CM_EVENT(122),
    RDMA_ACK_CM_EVENT(123),
    RDMA_SET_OPTION(124),
    RDMA_MIGRATE_ID(125),
    RDMA_INIT_QP_ATTR(126),
    RDMA_GETADDRINFO(127),
    RDMA_CREATE_SRQ(128),
    RDMA_CREATE_SRQ_EX(129),
    RDMA_DESTROY_SRQ(130);

    private static final Verb[] BY_CODE;

    static {
        int max = 0;
        for (Verb v : values()) {
            max = Math.max(max, v.code);
        }
        BY_CODE = new Verb[max + 1];
        for (Verb v : values()) {
            if (BY_CODE[v.code] != null) {
                throw new IllegalStateException("duplicate Verb code " + v.code);
            }
            BY_CODE[v.code] = v;
        }
    }

    private final int code;
    private final String function;

    Verb(int code) {
        this.code = code;
        this.function = name().toLowerCase(Locale.ROOT);
    }

    /** The stable on-disk code. */
    public int code() {
        return code;
    }

    /** True for the librdmacm functions ({@code rdma_*}). */
    public boolean isRdmaCm() {
        return function.startsWith("rdma_");
    }

    /** The C function name, e.g. {@code ibv_modify_qp}. */
    public String function() {
        return function;
    }

    /** The verb with this code, or null if this build does not know it. */
    public static Verb byCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }

    /** The verb for a C function name ({@code ibv_modify_qp}), or null. */
    public static Verb byFunction(String function) {
        for (Verb v : values()) {
            if (v.function.equals(function)) {
                return v;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return function;
    }
}
