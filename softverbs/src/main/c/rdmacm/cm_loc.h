/* softverbs' librdmacm internals: one section per source file. One process-wide lock (g_cm.lock)
 * guards devices, ids, ports and timers; each event channel has its own lock for its queue,
 * taken after g_cm.lock when both are needed. */
#ifndef CM_LOC_H
#define CM_LOC_H

#include <netinet/in.h>
#include <pthread.h>
#include <rdma/rdma_cma.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "cm_mad.h"

#define CM_MAX_DEVICES          16
#define CM_GID_INDEX            3      /* softverbs' RoCE v2 IPv4-mapped GID */
#define CM_RESPONSE_TIMEOUT     20     /* kernel CMA_CM_RESPONSE_TIMEOUT: 4.096 us * 2^20 = 4.3 s */
#define CM_MAX_CM_RETRIES       15     /* kernel CMA_MAX_CM_RETRIES */
#define CM_PACKET_LIFETIME      16     /* kernel CMA_IBOE_PACKET_LIFETIME */
#define CM_MRA_SERVICE_TIMEOUT  24     /* kernel CMA_CM_MRA_SETTING */
#define CM_HOP_LIMIT            64
#define CM_GSI_QKEY             0x80010000u
#define CM_DESTROY_WAIT_MS      5000   /* bound on waiting for unacked events at destroy */

/* 4.096 us * 2^t in ms, as the kernel's cm_convert_to_ms (at least 1 ms) */
static inline uint32_t cm_iba_time_ms(unsigned t)
{
    return t <= 8 ? 1u : 1u << (t - 8 > 24 ? 24 : t - 8);
}

uint64_t cm_now_ms(void);

/* ======================================================================================
 * cm_dev.c: the softverbs devices this process opened, MAD I/O, counters, log
 * ====================================================================================== */
struct cm_dev {
    struct ibv_context *verbs;
    uint32_t ip_be;
    union ibv_gid gid;               /* ::ffff:IPv4, GID index 3 */
    int n_addrs;                     /* every IPv4 address of the device's interface: the */
    uint32_t addrs_be[8];            /* kernel maps each to the device (addrs_be[0] = ip_be) */
    int n_addrs6;                    /* its IPv6 addresses (link-local included): they bind, */
    struct in6_addr addrs6[8];       /* but RoCE v2 over IPv6 is not carried (IPv4 only) */
    uint64_t guid_be;
    enum ibv_mtu active_mtu;
    uint8_t active_speed_rate;       /* ibv_rate of the port */
    uint8_t max_rd_atomic;           /* device max_qp_rd_atom */
    uint8_t ack_delay;
};

#define CM_COUNTER_LIST(X) \
    X(MADS_SENT,        "mads_sent") \
    X(MADS_RCVD,        "mads_rcvd") \
    X(MADS_MALFORMED,   "mads_malformed") \
    X(MADS_UNMATCHED,   "mads_unmatched") \
    X(MADS_REFUSED,     "mads_refused") \
    X(RETRANSMITS,      "retransmits") \
    X(TIMEOUTS,         "timeouts")

enum cm_counter {
#define CM_COUNTER_ENUM(name, text) CM_CNT_##name,
    CM_COUNTER_LIST(CM_COUNTER_ENUM)
#undef CM_COUNTER_ENUM
    CM_CNT__COUNT
};

struct cm_id;
struct cm_global {
    pthread_mutex_t lock;
    pthread_cond_t cond;             /* timers changed, events acked */
    bool ready;
    int init_err;
    int ndev;
    struct cm_dev dev[CM_MAX_DEVICES];
    struct cm_id *ids;
    pthread_t timer_thread;
    atomic_uint_fast64_t counters[CM_CNT__COUNT];
};
extern struct cm_global g_cm;

/* Opens the devices once per process; 0 or errno (ENODEV when there is none). */
int cm_init(void);
struct cm_dev *cm_dev_by_ip(uint32_t ip_be);         /* g_cm.lock held or after init */
struct cm_dev *cm_dev_by_ip6(const struct in6_addr *a);
struct cm_dev *cm_dev_by_verbs(struct ibv_context *verbs);
/* The local device that reaches dst (see cm_id.c): NULL when none. */
struct cm_dev *cm_dev_route(uint32_t dst_ip_be);
void cm_count(enum cm_counter c);
void cm_log(const struct cm_dev *dev, const char *tag, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Counts and logs a refused/dropped MAD. */
void cm_note(const struct cm_dev *dev, enum cm_counter c, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Encodes and sends m to dst's QP1. */
void cm_send(struct cm_dev *dev, uint32_t dst_ip_be, const struct cm_msg *m);
/* Receives every MAD of a device (softverbs progress thread). */
void cm_mad_recv(void *arg, const void *mad, size_t len, uint32_t src_ip_be, uint32_t src_qpn);

/* ======================================================================================
 * cm_channel.c: event channels and event queues
 * ====================================================================================== */
struct cm_event {
    struct rdma_cm_event ev;         /* what the application sees; first member */
    struct cm_event *next;
    struct cm_id *id;
    bool conn_response;              /* REP arrived: QP to RTR/RTS and RTU at get time */
    uint8_t priv[224];
};

struct cm_channel {
    struct rdma_event_channel ch;    /* ch.fd: a socket holding one byte while events wait */
    int wr_fd;
    pthread_mutex_t lock;
    struct cm_event *head, *tail;
};

static inline struct cm_channel *cm_channel_of(struct rdma_event_channel *ch)
{
    return (struct cm_channel *)ch;
}
struct cm_channel *cm_channel_new(void);
void cm_channel_free(struct cm_channel *c);
/* Queues an event (g_cm.lock held); the id counts it as reported when the app takes it. */
void cm_channel_push(struct cm_channel *c, struct cm_event *e);
/* Removes the undelivered events of id; returns how many. */
int cm_channel_drop_id(struct cm_channel *c, const struct cm_id *id);
/* Allocates an event for id with type and status (private data copied, at most 224 bytes). */
struct cm_event *cm_event_new(struct cm_id *id, enum rdma_cm_event_type type, int status,
                              const void *priv, size_t priv_len);

/* ======================================================================================
 * cm_id.c: ids, ports, address and route resolution
 * ====================================================================================== */
#define CM_STATE_LIST(X) \
    X(IDLE) X(ADDR_BOUND) X(ADDR_RESOLVED) X(ROUTE_RESOLVED) X(LISTEN) \
    X(REQ_SENT) X(MRA_RCVD) X(REP_RCVD) X(REQ_RCVD) X(REP_SENT) X(ESTABLISHED) \
    X(DREQ_SENT) X(DREQ_RCVD) X(TIMEWAIT) X(SIDR_REQ_SENT) X(SIDR_REQ_RCVD) X(UD_READY) X(DEAD)

enum cm_state {
#define CM_STATE_ENUM(name) CM_ST_##name,
    CM_STATE_LIST(CM_STATE_ENUM)
#undef CM_STATE_ENUM
};
const char *cm_state_name(enum cm_state s);

enum cm_timer { CM_TIMER_NONE, CM_TIMER_RETRY, CM_TIMER_TIMEWAIT };

#define CM_ID_MAGIC 0x636d6964u /* "cmid" */

struct cm_id {
    struct rdma_cm_id id;
    uint32_t magic;
    struct cm_id *next;              /* g_cm.ids */
    struct cm_dev *dev;              /* NULL while unbound or bound to the wildcard address */
    struct cm_channel *channel;
    enum cm_state state;
    bool sync, bound, reuseaddr, destroying, delivered, connect_error;
    struct ibv_sa_path_rec path;
    struct cm_id *listener;          /* the listener of a child until its request is delivered */
    int backlog;
    uint8_t tos;
    /* the connection */
    uint64_t tid;
    uint32_t local_comm_id, remote_comm_id, peer_ip_be;
    uint32_t local_qpn, remote_qpn, local_psn, remote_psn, qkey, remote_qkey;
    uint8_t resp_res, init_depth, retry_count, rnr_retry_count, ack_timeout, srq, flow_control;
    enum ibv_mtu mtu;
    /* retransmission of the last request this side sent */
    struct cm_msg last;
    bool has_last;
    enum cm_timer timer;
    int retries_left;
    uint32_t timeout_ms;
    uint64_t deadline_ms;
    /* events */
    uint32_t events_reported, events_acked;
    struct ibv_qp_init_attr *ep_qp_attr;   /* rdma_create_ep on a passive id: QPs of requests */
    struct ibv_comp_channel *own_send_ch, *own_recv_ch;   /* CQs rdma_create_qp made */
};

static inline struct cm_id *cm_id_of(struct rdma_cm_id *id)
{
    return (struct cm_id *)id;
}
/* NULL unless id is a live id of this library (argument checks). */
struct cm_id *cm_id_checked(struct rdma_cm_id *id);
struct cm_id *cm_id_alloc(struct cm_channel *ch, void *context, enum rdma_port_space ps,
                          enum ibv_qp_type qp_type);   /* g_cm.lock held */
void cm_id_set_dev(struct cm_id *c, struct cm_dev *dev);
/* Fills the RoCE path record between the id's device and the peer IPv4 address. */
void cm_id_fill_path(struct cm_id *c, uint32_t dst_ip_be);
uint64_t cm_service_id(enum rdma_port_space ps, uint16_t port);
uint16_t cm_src_port(const struct cm_id *c);
uint16_t cm_dst_port(const struct cm_id *c);
uint32_t cm_src_ip(const struct cm_id *c);
uint32_t cm_dst_ip(const struct cm_id *c);
/* Sets errno and returns -1 (the librdmacm convention). */
int cm_err(int e);

/* ======================================================================================
 * cm_conn.c: the connection state machine (MADs in, MADs and events out, timers);
 * cm_calls.c: the calls that drive it
 * ====================================================================================== */
#define CM_REQ_TIMEOUT_MS (2 * cm_iba_time_ms(CM_PACKET_LIFETIME) + cm_iba_time_ms(CM_RESPONSE_TIMEOUT))
void cm_conn_handle(struct cm_dev *dev, const struct cm_msg *m, uint32_t src_ip_be);
/* Queues an event for the id (none once it is being destroyed) and logs it. */
void cm_emit(struct cm_id *c, enum rdma_cm_event_type type, int status, const void *priv, size_t len);
/* Sends a request and keeps it for retransmission (CM_MAX_CM_RETRIES, every timeout_ms). */
void cm_send_request(struct cm_id *c, const struct cm_msg *m, uint32_t timeout_ms);
void cm_enter_timewait(struct cm_id *c);
void cm_send_rej(struct cm_dev *dev, uint32_t dst, uint64_t tid, uint32_t local, uint32_t remote,
                 enum cm_msg_ref ref, uint16_t reason, const void *priv, size_t len);
/* Runs due timers; returns the next deadline (ms, 0 = none). g_cm.lock held. */
uint64_t cm_conn_timers(uint64_t now_ms);
void cm_arm(struct cm_id *c, enum cm_timer kind, uint32_t timeout_ms, int retries);
/* What destroying an id in its state tells the peer (DREQ, REJ, DREP). g_cm.lock held. */
void cm_conn_abandon(struct cm_id *c);
/* Sends the RTU after a REP (active side, rdma_get_cm_event or rdma_establish). */
int cm_conn_establish(struct cm_id *c);

/* ======================================================================================
 * cm_qp.c: QP attributes as the CM chooses them and the transitions it drives
 * ====================================================================================== */
int cm_qp_attr(struct cm_id *c, struct ibv_qp_attr *attr, int *mask);   /* g_cm.lock held */
/* INIT (again, with the connection's access flags), RTR and RTS; 0 or errno. */
int cm_qp_to_rts(struct cm_id *c, uint8_t resp_res, uint8_t init_depth);
int cm_qp_to_err(struct cm_id *c);

/* ======================================================================================
 * cm_ep.c: synchronous ids (no channel): waiting for the event a call produces
 * ====================================================================================== */
/* For a sync id, waits for the next event and returns 0 or -1 with errno from its status. */
int cm_sync_wait(struct cm_id *c, enum rdma_cm_event_type expected);

#endif
