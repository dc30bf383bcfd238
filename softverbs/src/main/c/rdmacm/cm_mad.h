/* CM MADs (IBA vol. 1 ch. 12 and 16.7): the 24-byte MAD header plus one message, 256 bytes in
 * all, carried on QP1. The codec knows the wire only; which state accepts which message is the
 * state machine's business (cm_conn.c). Tables are X-macros: one list per fact. */
#ifndef CM_MAD_H
#define CM_MAD_H

#include <infiniband/verbs.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CM_MAD_LEN          256
#define CM_MAD_HDR_LEN      24
#define CM_MGMT_CLASS       0x07    /* Communication Management */
#define CM_CLASS_VERSION    2       /* IBA 1.2 */
#define CM_BASE_VERSION     1
#define CM_METHOD_SEND      0x03

/* attribute, ID, private data offset and size in the message (after the MAD header), name */
#define CM_ATTR_LIST(X) \
    X(REQ,      0x0010, 140,  92, "ConnectRequest") \
    X(MRA,      0x0011,  10, 222, "MsgRcptAck") \
    X(REJ,      0x0012,  84, 148, "ConnectReject") \
    X(REP,      0x0013,  36, 196, "ConnectReply") \
    X(RTU,      0x0014,   8, 224, "ReadyToUse") \
    X(DREQ,     0x0015,  12, 220, "DisconnectRequest") \
    X(DREP,     0x0016,   8, 224, "DisconnectReply") \
    X(SIDR_REQ, 0x0017,  16, 216, "ServiceIDResReq") \
    X(SIDR_REP, 0x0018,  96, 136, "ServiceIDResReqResp")

enum cm_attr {
    CM_ATTR_NONE = 0,
#define CM_ATTR_ENUM(name, id, poff, plen, text) CM_ATTR_##name = id,
    CM_ATTR_LIST(CM_ATTR_ENUM)
#undef CM_ATTR_ENUM
};

/* REJ reasons (IBA table 109; the kernel's enum ib_cm_rej_reason) */
#define CM_REJ_REASON_LIST(X) \
    X(NO_QP, 1) X(NO_EEC, 2) X(NO_RESOURCES, 3) X(TIMEOUT, 4) X(UNSUPPORTED, 5) \
    X(INVALID_COMM_ID, 6) X(INVALID_COMM_INSTANCE, 7) X(INVALID_SERVICE_ID, 8) \
    X(INVALID_TRANSPORT_TYPE, 9) X(STALE_CONN, 10) X(RDC_NOT_EXIST, 11) X(INVALID_GID, 12) \
    X(INVALID_LID, 13) X(INVALID_SL, 14) X(INVALID_TRAFFIC_CLASS, 15) X(INVALID_HOP_LIMIT, 16) \
    X(INVALID_PACKET_RATE, 17) X(INVALID_ALT_GID, 18) X(INVALID_ALT_LID, 19) X(INVALID_ALT_SL, 20) \
    X(INVALID_ALT_TRAFFIC_CLASS, 21) X(INVALID_ALT_HOP_LIMIT, 22) X(INVALID_ALT_PACKET_RATE, 23) \
    X(PORT_CM_REDIRECT, 24) X(PORT_REDIRECT, 25) X(INVALID_MTU, 26) \
    X(INSUFFICIENT_RESP_RESOURCES, 27) X(CONSUMER_DEFINED, 28) X(INVALID_RNR_RETRY, 29) \
    X(DUPLICATE_LOCAL_COMM_ID, 30) X(INVALID_CLASS_VERSION, 31) X(INVALID_FLOW_LABEL, 32) \
    X(INVALID_ALT_FLOW_LABEL, 33) X(VENDOR_OPTION_NOT_SUPPORTED, 35)

enum cm_rej_reason {
#define CM_REJ_ENUM(name, v) CM_REJ_##name = v,
    CM_REJ_REASON_LIST(CM_REJ_ENUM)
#undef CM_REJ_ENUM
};

/* SIDR_REP status (IBA table 121) */
enum cm_sidr_status {
    CM_SIDR_SUCCESS = 0, CM_SIDR_UNSUPPORTED = 1, CM_SIDR_REJECT = 2, CM_SIDR_NO_QP = 3,
    CM_SIDR_REDIRECT = 4, CM_SIDR_UNSUPPORTED_VERSION = 5,
};

/* What REJ/MRA refer to (the 2-bit "Message REJected/MRAed" field) */
enum cm_msg_ref { CM_MSG_REF_REQ = 0, CM_MSG_REF_REP = 1, CM_MSG_REF_OTHER = 2 };

struct cm_path {                     /* the REQ's primary path */
    uint16_t local_lid, remote_lid;
    union ibv_gid local_gid, remote_gid;
    uint32_t flow_label;
    uint8_t packet_rate, traffic_class, hop_limit, sl, subnet_local, local_ack_timeout;
};

/* A decoded message: every field any CM message has, host order. Fields a message does not
 * carry are zero after decode and ignored by encode. */
struct cm_msg {
    enum cm_attr attr;
    uint8_t method;
    uint64_t tid;
    uint32_t local_comm_id, remote_comm_id;   /* SIDR: request_id in local_comm_id */
    uint64_t service_id, local_ca_guid;
    uint32_t qkey, qpn, starting_psn;         /* REQ/REP: local QPN; DREQ: remote QPN; SIDR_REP: QPN */
    uint8_t responder_resources, initiator_depth;
    uint8_t remote_cm_response_timeout, local_cm_response_timeout, transport_type, flow_control;
    uint8_t retry_count, rnr_retry_count, max_cm_retries, srq, path_mtu;
    uint8_t target_ack_delay, failover_accepted;
    uint16_t pkey;
    struct cm_path primary;
    uint8_t msg_ref;                          /* REJ: message rejected; MRA: message MRAed */
    uint8_t service_timeout;                  /* MRA */
    uint16_t reason;                          /* REJ */
    uint8_t ari_len;                          /* REJ: rejected info length; SIDR_REP: add. info length */
    uint8_t ari[72];
    uint8_t status;                           /* SIDR_REP */
    uint8_t private_data[224];
    uint8_t private_len;                      /* the message's fixed private data size */
};

/* Decode errors; negative so decode can return them. */
#define CM_MAD_ERR_LIST(X) \
    X(LENGTH,  -1, "not a 256-byte MAD") \
    X(BASE,    -2, "base version is not 1") \
    X(CLASS,   -3, "management class is not CM (0x07)") \
    X(VERSION, -4, "CM class version is not 2") \
    X(METHOD,  -5, "method is not Send") \
    X(ATTR,    -6, "attribute is not a CM message softverbs handles")

enum cm_mad_err {
#define CM_MAD_ERR_ENUM(name, v, text) CM_MAD_ERR_##name = v,
    CM_MAD_ERR_LIST(CM_MAD_ERR_ENUM)
#undef CM_MAD_ERR_ENUM
};

/* Serialises m into a 256-byte MAD; -EINVAL for an unknown attribute. */
int cm_mad_encode(const struct cm_msg *m, uint8_t mad[CM_MAD_LEN]);
/* Parses a received MAD; 0 or a negative enum cm_mad_err. Never reads past len. */
int cm_mad_decode(const uint8_t *mad, size_t len, struct cm_msg *m);
const char *cm_attr_name(enum cm_attr a);
const char *cm_mad_err_text(int err);
const char *cm_rej_reason_name(int reason);
/* Private data size of a message type (0 for unknown). */
size_t cm_attr_private_len(enum cm_attr a);

/* The IP-based CM private data header (IBA annex A11, the kernel's struct cma_hdr): version,
 * IP version (high nibble), source port, source and destination IPv4 in IPv4-mapped form. */
#define CM_IP_HDR_LEN 36
struct cm_ip_hdr {
    uint8_t version;                 /* 0 */
    uint8_t ip_version;              /* 4 */
    uint16_t src_port;               /* host order */
    uint32_t src_ip_be, dst_ip_be;
};
void cm_ip_hdr_put(const struct cm_ip_hdr *h, uint8_t out[CM_IP_HDR_LEN]);
/* false unless version 0 and IPv4 */
bool cm_ip_hdr_get(const uint8_t in[CM_IP_HDR_LEN], struct cm_ip_hdr *h);

#endif
