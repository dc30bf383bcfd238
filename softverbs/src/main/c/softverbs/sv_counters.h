/* Port counters, named like the kernel's rxe hw_counters where rxe has one (rxe_hw_counters.c),
 * plus softverbs' drop counters. One X-macro list makes the enum and the names, so they cannot
 * drift. The meaning of each is documented in softverbs/SOFTVERBS.md. */
#ifndef SV_COUNTERS_H
#define SV_COUNTERS_H

#include <stdatomic.h>
#include <stdint.h>

#define SV_COUNTER_LIST(X) \
    X(SENT_PKTS,              "sent_pkts") \
    X(RCVD_PKTS,              "rcvd_pkts") \
    X(DUPLICATE_REQUEST,      "duplicate_request") \
    X(OUT_OF_SEQ_REQUEST,     "out_of_seq_request") \
    X(RCVD_RNR_ERR,           "rcvd_rnr_err") \
    X(SEND_RNR_ERR,           "send_rnr_err") \
    X(RCVD_SEQ_ERR,           "rcvd_seq_err") \
    X(ACK_DEFERRED,           "ack_deferred") \
    X(RETRY_EXCEEDED_ERR,     "retry_exceeded_err") \
    X(RETRY_RNR_EXCEEDED_ERR, "retry_rnr_exceeded_err") \
    X(COMPLETER_RETRY_ERR,    "completer_retry_err") \
    X(SEND_ERR,               "send_err") \
    X(LINK_DOWNED,            "link_downed") \
    X(RDMA_SENDS,             "rdma_sends") \
    X(RDMA_RECVS,             "rdma_recvs") \
    X(LOCAL_ACK_TIMEOUT_ERR,  "local_ack_timeout_err") \
    X(RCVD_BAD_ICRC,          "rcvd_bad_icrc") \
    X(RCVD_MALFORMED,         "rcvd_malformed") \
    X(RCVD_UNKNOWN_QPN,       "rcvd_unknown_qpn") \
    X(RCVD_DROPPED,           "rcvd_dropped") \
    X(BAD_PKEY,               "bad_pkey") \
    X(QKEY_VIOLATION,         "qkey_violation") \
    X(RCVD_LINK_MTU_DROP,     "rcvd_link_mtu_drop") \
    X(SENT_LINK_MTU_DROP,     "sent_link_mtu_drop") \
    X(SENT_UNROUTABLE,        "sent_unroutable") \
    X(CQ_OVERFLOW,            "cq_overflow") \
    X(RCVD_SOCK_OVERFLOW,     "rcvd_sock_overflow") \
    X(TX_WAIT,                "tx_wait") \
    X(TX_SOCK_BUSY,           "tx_sock_busy") \
    X(SOCKET_RCVBUF,          "socket_rcvbuf") \
    X(SOCKET_SNDBUF,          "socket_sndbuf") \
    X(TX_LIMIT,               "tx_limit") \
    X(ACK_HELD,               "ack_held")

enum sv_counter {
#define SV_COUNTER_ENUM(id, name) SV_CNT_##id,
    SV_COUNTER_LIST(SV_COUNTER_ENUM)
#undef SV_COUNTER_ENUM
    SV_CNT__COUNT
};

typedef _Atomic uint64_t sv_counter_t;

extern const char *const sv_counter_name[SV_CNT__COUNT];

#endif
