/* softverbs internals: one section per source file, in pipeline order (device -> context ->
 * objects -> wire -> requester/responder/completer). Modelled on Soft-RoCE's rxe_loc.h. */
#ifndef SV_LOC_H
#define SV_LOC_H

#include <infiniband/verbs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "sv_counters.h"
#include "sv_driver.h"
#include "sv_opcode.h"
#include "sv_pktlog.h"
#include "sv_task.h"

#define SV_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define sv_container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

static inline uint64_t sv_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline uint32_t sv_roundup_pow2(uint32_t v)
{
    uint32_t p = 1;
    while (p < v && p < (1u << 31))
        p <<= 1;
    return p;
}

/* Device limits, like current Soft-RoCE (rdma-facts §3.1). The ones a profile changes
 * (struct sv_limits) are read from dev->cfg.lim; these are rxe's values and softverbs'
 * allocation ceilings (no profile goes above them, test_sv_profile checks). */
#define SV_MAX_QP_WR        (1u << 20)
#define SV_MAX_SGE          32
#define SV_MAX_INLINE       512
#define SV_MAX_CQ           (1 << 20)
#define SV_MAX_CQE          ((1 << 15) - 1)
#define SV_MAX_QP           ((1 << 20) - 16)
#define SV_MAX_MR           ((1 << 19) - 1)
#define SV_MAX_PD           (1 << 20)
#define SV_MAX_RD_ATOM      128
#define SV_MAX_RES_RD_ATOM  0x3f000
#define SV_MAX_AH           32767
#define SV_MAX_SRQ          (1 << 20)
#define SV_MAX_SRQ_WR       (1u << 20)
#define SV_MAX_SRQ_SGE      27
#define SV_MAX_MSG_SZ       (1u << 31)
#define SV_GID_TBL_LEN      1024   /* like rxe; only the first entries are populated */
#define SV_PKEY_TBL_LEN     1      /* index 0 = 0xFFFF; pkey_index 1 is the classic wrong one */
#define SV_DEFAULT_PKEY     0xFFFFu
#define SV_PORT_NUM         1
#define SV_FIRST_QPN        17     /* rxe: the GSI QP takes index 16, the first user QP is 17 */
#define SV_ROCE_OVERHEAD    80     /* bytes a RoCEv2 packet adds to an IB MTU (rxe's rule) */
#define SV_IPV4_UDP_HDRS    28     /* what the link MTU must also carry */
#define SV_MAX_DEVICES      16
#define SV_WINDOW_PSNS      128    /* requester stops this many PSNs ahead of the oldest unacked */

/* ======================================================================================
 * sv_config.c: SOFTVERBS_DEVICES parsing, softverbs_configure, softverbs_last_error
 * ====================================================================================== */
enum sv_quirk {
    SV_QUIRK_ACCEPT_RESET_TO_RTS = 1u << 0, /* firmware that takes RESET->RTS in one modify */
    SV_QUIRK_CAPS_POW2           = 1u << 1, /* rounds queue caps to a power of two (not 2^k-1) */
    SV_QUIRK_VENDOR_ERR          = 1u << 2, /* vendor_err on error completions (value below) */
    SV_QUIRK_RETRY7_INFINITE     = 1u << 3, /* rxe: retry_cnt 7 never runs out */
};

/* GID table personalities (key gid=): which entries the table holds, from index 0. */
enum sv_gid_layout {
    SV_GID_LAYOUT_MLX5,         /* link-local v1, v2, IPv4-mapped v1, v2 (a RoCE NIC's cache) */
    SV_GID_LAYOUT_RXE,          /* RoCE v2 only: link-local, IPv4-mapped (Soft-RoCE) */
};

/* ======================================================================================
 * sv_netdev.c: the network interface a device is bound to (NAME@IFNAME, netdev=IFNAME)
 * ====================================================================================== */
#define SV_NETDEV_MAX_ADDRS 8   /* IPv4 and IPv6 addresses of an interface the GID table takes */

struct sv_netdev {
    char name[IF_NAMESIZE];     /* "" for a device on a bare address */
    unsigned int ifindex;
    uint8_t mac[6];             /* the interface's hardware address (all zero for lo) */
    bool up;                    /* IFF_UP and IFF_RUNNING: the RoCE port follows the link */
    uint32_t mtu;               /* the interface's MTU, bytes */
    int n_ipv4, n_ipv6;
    uint32_t ipv4_be[SV_NETDEV_MAX_ADDRS];      /* [0] is the device's own address */
    struct in6_addr ipv6[SV_NETDEV_MAX_ADDRS];  /* link-local and global, in the kernel's order */
};

/* Reads interface ifname as it is now. want_ip_be 0: the device takes the interface's first
 * IPv4 address; else that address must be the interface's (or, on a loopback interface, inside
 * one of its prefixes) and becomes ipv4_be[0]. 0, or EINVAL with why naming the problem. */
int sv_netdev_read(const char *ifname, uint32_t want_ip_be, struct sv_netdev *nd, char *why, size_t whylen);
bool sv_netdev_valid_name(const char *s);

/* ======================================================================================
 * sv_profile.c: device profiles (key profile=NAME), the published limits of common NICs
 * ====================================================================================== */
/* The limits a create or modify is checked against; a profile's or, by default, rxe's. */
struct sv_limits {
    uint32_t max_qp_wr, max_sge, max_inline, max_cqe;
    uint32_t max_qp_rd_atom;       /* responder depth per QP (max_dest_rd_atomic) */
    uint32_t max_qp_init_rd_atom;  /* initiator depth per QP (max_rd_atomic) */
    uint32_t max_res_rd_atom;      /* device-wide responder resources, as reported */
    uint32_t gid_tbl_len;
};

struct sv_devcfg;
/* Sets d's identity (vendor/part/hw_ver, GID layout) and limits from profile `name`: 0, or
 * EINVAL with why listing the known profiles. */
int sv_profile_apply(struct sv_devcfg *d, const char *name, char *why, size_t whylen);
/* The i-th profile's name, NULL past the table (for tests and messages). */
const char *sv_profile_name(size_t i);
/* The limits without a profile (rxe's). */
void sv_profile_default_limits(struct sv_limits *lim);

struct sv_devcfg {
    char name[IBV_SYSFS_NAME_MAX];
    uint32_t ip_be;             /* IPv4, network order */
    uint32_t link_mtu;          /* Ethernet MTU, bytes */
    bool mtu_given;             /* mtu= was set (else a bound device takes its interface's) */
    struct sv_netdev netdev;    /* the bound interface; netdev.name "" for a bare address */
    char fw_ver[64];
    uint32_t vendor_id, vendor_part_id, hw_ver;
    uint32_t quirks;            /* enum sv_quirk bits */
    uint32_t vendor_err;        /* with SV_QUIRK_VENDOR_ERR */
    enum sv_gid_layout gid_layout;
    char profile[16];           /* profile=NAME, "" without one */
    struct sv_limits lim;       /* what creates and modifies are checked against */
};

struct sv_devcfg_list {
    int count;
    struct sv_devcfg dev[SV_MAX_DEVICES];
};

/* Parses a spec; 0 or EINVAL with a message naming the bad part in err. */
int sv_config_parse(const char *spec, struct sv_devcfg_list *out, char *err, size_t errlen);
/* The device config in force: softverbs_configure's, else SOFTVERBS_DEVICES, else soft0. */
int sv_config_current(struct sv_devcfg_list *out);
void sv_error_set(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
enum ibv_mtu sv_mtu_from_link(uint32_t link_mtu);
uint32_t sv_mtu_bytes(enum ibv_mtu mtu);

/* ======================================================================================
 * sv_device.c: device list, identity (MAC/GUID/GIDs), P_Key table, query_device/port/gid
 * ====================================================================================== */
#define SV_DEVICE_MAGIC 0x73766476u /* "svdv" */

struct sv_device {
    struct verbs_device vdev;    /* vdev.device is what ibv_get_device_list hands out; the
                                  * provider-visible layout, vdev.ops = &sv_verbs_device_ops */
    uint32_t magic;
    struct sv_devcfg cfg;
    uint8_t mac[6];
    uint64_t guid_be;            /* node GUID: EUI-64 of the MAC, network order */
    int gid_count;               /* populated entries of gids, from index 0 */
    struct sv_gid_slot {
        union ibv_gid gid;
        bool roce_v2;
    } gids[2 * (1 + 2 * SV_NETDEV_MAX_ADDRS)];  /* link-local + each address, as v1 and v2 */
    int index;                   /* position in the device list (ibv_get_device_index) */
    atomic_int refcnt;           /* the device list + each open context */
};

struct sv_device *sv_device_of(struct ibv_device *ibdev);
void sv_device_put(struct sv_device *dev);
void sv_device_get(struct sv_device *dev);
/* GID table entry of the device's layout (mlx5: 0/1 = link-local RoCE v1/v2, 2/3 = IPv4-mapped
 * v1/v2; rxe: 0 = link-local v2, 1 = IPv4-mapped v2; a bound device continues with its
 * interface's other IPv4 and then IPv6 addresses). 0, ENODATA (empty slot, zero GID) or
 * EINVAL (past the table). */
int sv_device_gid(const struct sv_device *dev, int index, union ibv_gid *gid, int *roce_v2);
/* Fills dev->gids from dev->cfg and dev->guid_be. */
void sv_device_build_gids(struct sv_device *dev);
/* Populated entries, from index 0. */
int sv_device_gid_count(const struct sv_device *dev);
/* The interface index and name a GID entry belongs to (the bound interface, else lo). */
unsigned int sv_device_ndev_ifindex(const struct sv_device *dev);
const char *sv_device_ndev_name(const struct sv_device *dev);
/* ACTIVE, or DOWN while the bound interface is down (IFF_UP and IFF_RUNNING) */
bool sv_device_link_up(const struct sv_device *dev);
/* IPv4 address (network order) of an IPv4-mapped GID; false if the GID is not one. */
bool sv_gid_to_ipv4(const union ibv_gid *gid, uint32_t *ip_be);
void sv_device_attr(const struct sv_device *dev, struct ibv_device_attr *attr);
struct sv_endpoint;
void sv_port_attr(const struct sv_device *dev, const struct sv_endpoint *ep,
                  struct ibv_port_attr *attr);

/* ======================================================================================
 * sv_udp.c: one UDP socket per device per process (IP:4791), shared by its contexts; the
 * QPN table lives here because every context of the device receives through this socket.
 * ====================================================================================== */
#define SV_QP_BUCKETS 256

#define SV_SOCKET_BUF   (8 << 20)  /* asked for each way; the kernel doubles what it grants */
#define SV_RX_BATCH     16         /* datagrams per recvmmsg */
#define SV_TX_LIMIT_MIN 32         /* device-wide request PSNs in flight, whatever the buffers */
#define SV_TX_LIMIT_MAX 128        /* ... and at most: a deeper queue at the peer only adds delay */
#define SV_TX_COALESCE  16         /* ACKs held back for one sendmmsg */
#define SV_ACK_WIRE_MAX 64         /* an ACK or atomic ACK datagram: BTH+AETH(+AtomicAckETH)+ICRC */

struct sv_qp;
struct sv_endpoint {
    struct sv_endpoint *next;    /* process-wide list, under the endpoint list lock */
    int refcnt;                  /* contexts using it, under the endpoint list lock */
    uint32_t ip_be;
    uint32_t link_mtu;
    int fd;
    sv_counter_t counters[SV_CNT__COUNT];
    pthread_rwlock_t qp_lock;    /* readers route packets, writers add/remove QPs */
    struct sv_qp *qp_bucket[SV_QP_BUCKETS];
    uint32_t next_qpn;
    uint32_t qp_count;
    /* receive: one thread at a time reads and dispatches, so each QP sees its packets in
     * order; rx_buf (SV_RX_BATCH slots of rx_slot bytes) belongs to the lock holder */
    pthread_mutex_t rx_lock;
    uint8_t *rx_buf;
    uint32_t rx_slot;
    void *rx_batch;                  /* sv_recv.c's recvmmsg headers, made on first use */
    _Atomic uint32_t rx_ovfl_seen;   /* the kernel's drop count last seen (SO_RXQ_OVFL) */
    /* transmit pacing: RC request PSNs not yet acknowledged plus the packets of admitted ACK
     * chunks not yet sent, summed over the device's QPs, stay within tx_limit (sized so the
     * peer's socket buffer holds them); a QP whose next chunk does not fit, or that finds the
     * socket busy, waits on the list until the progress thread resumes it */
    atomic_int tx_inflight;
    int tx_limit;
    pthread_mutex_t wait_lock;       /* the list below and qp->tx_waiting */
    struct sv_qp *wait_head, *wait_tail;
    atomic_bool wait_nonempty;
    /* ACK coalescing: ACKs made while receiving wait here (tx_lock) and leave with the next
     * datagram the device sends, in one sendmmsg - in a ping-pong the ACK of a SEND rides with
     * the answer - or when the receiving thread is done (sv_udp_flush): at its next poll, when
     * it posts a receive instead of answering (the peer's completion waits on them: perftest -R
     * reconnects through rdma_cm after such an exchange, and a held ACK let its REQ overtake
     * the peer's new listener), or by the progress thread within SV_APP_POLL_NS */
    pthread_mutex_t tx_lock;
    atomic_int tx_npending;
    struct sv_tx_pending {
        uint32_t dst_ip_be;
        uint32_t len;
        uint8_t buf[SV_ACK_WIRE_MAX];
    } tx_pending[SV_TX_COALESCE];
    /* an application thread that polls an empty CQ receives for the device itself (no thread
     * hand-off on the way to the completion); while it keeps doing so the progress threads
     * leave the socket to it and only run timers (sv_context.c) */
    _Atomic uint64_t app_poll_ns;    /* last such poll (monotonic), 0 = none or it went to sleep */
    struct sv_pktlog *pktlog;        /* the packet log (sv_pktlog.h), NULL when off */
};

/* 0 or errno (EADDRINUSE when another process holds IP:4791, EADDRNOTAVAIL, ...). */
int sv_endpoint_acquire(const struct sv_devcfg *cfg, struct sv_endpoint **out);
void sv_endpoint_release(struct sv_endpoint *ep);
/* Counters of the endpoint bound to ip_be in this process, or NULL. */
struct sv_endpoint *sv_endpoint_find(uint32_t ip_be);
int sv_endpoint_add_qp(struct sv_endpoint *ep, struct sv_qp *qp);    /* assigns qp_num */
void sv_endpoint_remove_qp(struct sv_endpoint *ep, struct sv_qp *qp);
struct sv_qp *sv_endpoint_lookup_qp(struct sv_endpoint *ep, uint32_t qpn); /* qp_lock held */
/* Puts one RoCEv2 datagram on the wire towards dst_ip:4791; drops it (and counts) when the
 * IP packet would exceed the device's link MTU, as an Ethernet NIC would. SV_TX_BUSY: the
 * socket had no room (EAGAIN/ENOBUFS), nothing was sent or counted - the caller decides. */
enum sv_tx { SV_TX_SENT, SV_TX_DROPPED, SV_TX_BUSY };
enum sv_tx sv_udp_send(struct sv_endpoint *ep, uint32_t dst_ip_be, const uint8_t *buf, size_t len);
/* An ACK: while this thread receives for the device (sv_recv_drain) it is held back to leave
 * with the next datagram or at the next sv_udp_flush (ACK coalescing, IBA 9.7.5.1.1: ACKs are
 * cumulative and the responder may delay them); otherwise sent at once. Lost: counted. */
void sv_udp_send_ack(struct sv_endpoint *ep, uint32_t dst_ip_be, const uint8_t *buf, size_t len);
/* Sends the ACKs held back (cheap when there are none). */
void sv_udp_flush(struct sv_endpoint *ep);
/* sv_recv.c: true while the calling thread receives for ep (its ACKs may wait). */
bool sv_recv_in_drain(const struct sv_endpoint *ep);
/* Transmit pacing (see struct sv_endpoint). The device admits an RC requester one ACK chunk
 * at a time (sv_req_tx_need packets: the rest of a message, up to and including the next
 * packet that asks for an ACK), so whatever it counts in flight is answered by an ACK without
 * further room: a QP never waits with packets out that nobody will acknowledge.
 * sv_qp_tx_sync re-counts the QP's share of tx_inflight from its PSNs and its reserved chunk
 * (qp->lock held); sv_ep_tx_admit reserves `need` if it fits under the limit (qp->lock held);
 * sv_ep_tx_wait parks the QP until resumed (qp->lock held); sv_ep_tx_resume runs the parked
 * QPs' requesters in order while the next one fits (no QP lock held). */
void sv_qp_tx_sync(struct sv_qp *qp);
bool sv_ep_tx_admit(struct sv_endpoint *ep, struct sv_qp *qp, uint32_t need);
void sv_ep_tx_wait(struct sv_endpoint *ep, struct sv_qp *qp);
void sv_ep_tx_resume(struct sv_endpoint *ep);

static inline void sv_count(struct sv_endpoint *ep, enum sv_counter c)
{
    atomic_fetch_add_explicit(&ep->counters[c], 1, memory_order_relaxed);
}

/* sv_log.c: with SOFTVERBS_LOG=1, say why. sv_note counts and logs the reason. */
bool sv_log_enabled(void);
void sv_log(const struct sv_endpoint *ep, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sv_note(struct sv_endpoint *ep, enum sv_counter c, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ======================================================================================
 * sv_context.c: open/close, the ops tables, async events, the progress thread
 * ====================================================================================== */
#define SV_CONTEXT_MAGIC 0x73766378u /* "svcx" */
#define SV_CONTEXT_IMPORT_MAGIC 0x73766969u /* "svii": a context ibv_import_device made (sv_import.c) */

struct sv_mr;
struct sv_mw;
struct sv_mr_table {
    pthread_rwlock_t lock;       /* readers copy data, writers register/deregister/bind */
    struct sv_mr **slot;
    uint32_t cap;
    uint32_t count;
    uint8_t next_key;
    struct sv_mw **mw_slot;      /* memory windows, key index SV_MW_INDEX_MIN + slot (sv_mw.c) */
    uint32_t mw_cap, mw_count;
};

struct sv_cq;
struct sv_srq;
struct sv_context {
    struct verbs_context vctx;   /* vctx.context is what the application holds */
    uint32_t magic;
    struct sv_device *dev;
    struct sv_endpoint *ep;
    int async_wr;                /* write end of the async event pipe (read end = async_fd) */
    int wake_fd;                 /* eventfd: re-evaluate timers now */
    pthread_t progress;
    atomic_bool stopping;
    _Atomic uint64_t timer_hint;   /* earliest deadline armed since the last look, 0 = none */
    _Atomic uint64_t sleep_until;  /* the progress thread sleeps until then; 0 = it is awake */
    pthread_mutex_t obj_lock;    /* the lists below; taken before any QP lock */
    struct sv_qp *qps;
    struct sv_cq *cqs;
    struct sv_srq *srqs;
    struct sv_pd *pds;           /* live PDs made through this context or its imports */
    uint64_t next_uid;
    uint32_t next_handle;
    struct sv_mr_table mrs;
    /* the command fd (a memfd) names the context as a uverbs fd does: ibv_import_device finds it by
     * the file behind any dup of it (sv_import.c) */
    dev_t cmd_dev;
    ino_t cmd_ino;
    int refs;                    /* the open itself + its imported contexts; under the registry lock */
    bool closed;                 /* ibv_close_device was called (imports may still hold it) */
    struct sv_context *reg_next; /* the registry of open contexts */
    struct sv_context *import_of;   /* an imported context: the context it shares everything with */
};

static inline struct sv_context *sv_ctx(struct ibv_context *ibctx)
{
    return sv_container_of(ibctx, struct sv_context, vctx.context);
}
/* NULL unless ibctx is an open softverbs context (argument checking for the entry points); an
 * imported context gives the context it was imported from, whose objects it shares. */
struct sv_context *sv_ctx_checked(struct ibv_context *ibctx);
/* Whether two contexts are one (the same open, or an import of it): objects may be mixed. */
bool sv_ctx_same(struct ibv_context *a, struct ibv_context *b);
/* The registry of open contexts (sv_context.c): add at open, and drop a reference; the last one
 * (the open's own, once every import is closed) unlinks it and returns true: free it then. */
void sv_ctx_register(struct sv_context *ctx);
bool sv_ctx_unref(struct sv_context *ctx);
/* The open context whose command fd is a dup of fd, with a reference taken; NULL if none. */
struct sv_context *sv_ctx_find_by_fd(int fd);
/* Frees an open context and everything left in it (ibv_close_device once no import holds it). */
void sv_ctx_teardown(struct sv_context *ctx);
uint64_t sv_ctx_new_uid(struct sv_context *ctx);   /* obj_lock held */
uint32_t sv_ctx_new_handle(struct sv_context *ctx); /* obj_lock held */

/* sv_async.c */
enum sv_event_obj { SV_EVOBJ_NONE, SV_EVOBJ_QP, SV_EVOBJ_CQ, SV_EVOBJ_SRQ, SV_EVOBJ_PORT };
/* Queues an async event for ibv_get_async_event (safe from any thread, never blocks). */
void sv_ctx_async_event(struct sv_context *ctx, enum ibv_event_type type,
                        enum sv_event_obj kind, uint64_t uid);
/* sv_progress.c: the progress thread (started by ibv_open_device), the QP timers below, and: */
void *sv_progress_main(void *ctx);
/* Called by ibv_poll_cq when the CQ is empty: receives and processes what has arrived for the
 * context's device in the calling thread; true if anything was processed. */
bool sv_ctx_poll_progress(struct sv_context *ctx);
/* The application stops polling (it arms a CQ to sleep on its channel): the progress thread
 * watches the socket again at once. */
void sv_ctx_poll_stopped(struct sv_context *ctx);
/* Waits until *done catches up with *reported (events acked), as ibv_destroy_* do; bounded
 * (SV_DESTROY_WAIT_MS) so a forgotten ack delays the destroy instead of hanging it forever. */
#define SV_DESTROY_WAIT_MS 5000
void sv_wait_acked(pthread_mutex_t *m, pthread_cond_t *cv, const uint32_t *done, const uint32_t *reported);

/* ======================================================================================
 * sv_pd.c
 * ====================================================================================== */
struct sv_pd {
    struct ibv_pd ibpd;
    atomic_int users;            /* QPs, MRs, AHs, SRQs: dealloc is EBUSY while > 0 */
    struct sv_pd *real;          /* an imported PD (ibv_import_pd): the PD it stands for; else NULL */
    struct sv_pd *ctx_next;      /* sv_context.pds (allocated PDs only) */
};
/* The PD objects belong to: an imported PD is the PD it was imported from. */
static inline struct sv_pd *sv_pd(struct ibv_pd *p)
{
    struct sv_pd *pd = sv_container_of(p, struct sv_pd, ibpd);
    return pd->real ? pd->real : pd;
}

/* ======================================================================================
 * sv_mr.c: registration, keys, and every access to registered memory (local SGEs and remote
 * R_Key accesses go through here so rights and bounds are checked in one place)
 * ====================================================================================== */
struct sv_mr {
    struct ibv_mr ibmr;
    struct sv_pd *pd;
    uint64_t iova;               /* address the remote side uses for byte 0 of the region */
    unsigned int access;
    uint32_t index;
    uint32_t num_mw;             /* memory windows bound to it: dereg is EINVAL while > 0 */
    bool imported;               /* an ibv_import_mr handle on the MR of that lkey (in no table) */
};

enum sv_mem_status {             /* result of a checked memory access */
    SV_MEM_OK = 0,
    SV_MEM_BAD_KEY,              /* no such key, or an MR of another PD */
    SV_MEM_NO_RIGHT,             /* the MR lacks the access right */
    SV_MEM_BOUNDS,               /* range outside the MR */
    SV_MEM_LENGTH,               /* the SGE list is shorter than the data */
};

int sv_mr_table_init(struct sv_mr_table *t);
void sv_mr_table_destroy(struct sv_mr_table *t);
/* Gathers len bytes starting at byte `offset` of an SGE list (local read: any MR). */
enum sv_mem_status sv_sge_gather(struct sv_context *ctx, struct sv_pd *pd, const struct ibv_sge *sge,
                                 uint32_t nsge, uint64_t offset, void *dst, uint32_t len);
/* Scatters len bytes at byte `offset` of an SGE list (needs IBV_ACCESS_LOCAL_WRITE). */
enum sv_mem_status sv_sge_scatter(struct sv_context *ctx, struct sv_pd *pd, const struct ibv_sge *sge,
                                  uint32_t nsge, uint64_t offset, const void *src, uint32_t len);
/* Checks an R_Key access by the responder QP qp of [va, va+len) needing `right`
 * (IBV_ACCESS_REMOTE_*); the R_Key names an MR or a memory window. */
struct sv_qp;
enum sv_mem_status sv_rkey_check(const struct sv_qp *qp, uint32_t rkey, uint64_t va, uint64_t len,
                                 unsigned int right);
/* Copies to (write) or from (read) remote-accessible memory; checks like sv_rkey_check. */
enum sv_mem_status sv_rkey_write(const struct sv_qp *qp, uint32_t rkey, uint64_t va, const void *src,
                                 uint32_t len);
enum sv_mem_status sv_rkey_read(const struct sv_qp *qp, uint32_t rkey, uint64_t va, void *dst, uint32_t len);
/* 8-byte atomic at va: compare-swap (is_cas) or fetch-add; *orig gets the old value. */
enum sv_mem_status sv_rkey_atomic(const struct sv_qp *qp, uint32_t rkey, uint64_t va, bool is_cas,
                                  uint64_t swap_add, uint64_t compare, uint64_t *orig);

/* ======================================================================================
 * sv_mw.c: memory windows (type 1 and 2B, as rxe): alloc/dealloc/bind, the local BIND_MW and
 * LOCAL_INV work requests, remote invalidation, and R_Key resolution through a window
 * ====================================================================================== */
#define SV_MW_INDEX_MIN  (1u << 19)       /* rxe: MW key indexes follow the MR ones */
#define SV_MAX_MW        ((1u << 19) - 1)
static inline bool sv_key_is_mw(uint32_t key)
{
    return (key >> 8) >= SV_MW_INDEX_MIN;
}
void sv_mw_table_destroy(struct sv_mr_table *t);
/* R_Key resolution through a window for the responder QP (table lock held); *host on success. */
enum sv_mem_status sv_mw_resolve(const struct sv_qp *qp, uint32_t rkey, uint64_t va, uint64_t len,
                                 unsigned int right, uint8_t **host);
struct ibv_mw *sv_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type);
int sv_dealloc_mw(struct ibv_mw *mw);
int sv_bind_mw(struct ibv_qp *qp, struct ibv_mw *mw, struct ibv_mw_bind *bind);
uint32_t sv_sge_total(const struct ibv_sge *sge, uint32_t nsge);
/* The MR a key names (any key of the MR table), or NULL. Table lock held. */
struct sv_mr *sv_mr_lookup(struct sv_mr_table *t, uint32_t key);

/* ======================================================================================
 * sv_cq.c: completion queues and completion channels
 * ====================================================================================== */
struct sv_comp_channel {
    struct ibv_comp_channel ibch;    /* ibch.fd = read end of a pipe of 8-byte CQ uids */
    int wr_fd;
    pthread_mutex_t lock;            /* cqs list */
    struct sv_cq *cqs;
};

struct sv_cq {
    union {                          /* ibv_cq_ex begins with the fields of ibv_cq */
        struct ibv_cq ibcq;
        struct ibv_cq_ex ibcqx;      /* CQs from create_cq_ex (sv_cq_ex.c) */
    };
    struct sv_context *ctx;
    uint64_t uid;
    struct sv_cq *ctx_next;
    struct sv_cq *chan_next;
    struct sv_comp_channel *channel;
    pthread_mutex_t lock;            /* ring + notification state */
    struct ibv_wc *ring;
    uint32_t slots;                  /* ibcq.cqe usable entries */
    uint32_t head, count;
    int notify;                      /* 0 disarmed, 1 next completion, 2 solicited only */
    bool overflowed;                 /* CQ_ERR raised; cleared once there is room again */
    atomic_int users;                /* QPs attached: destroy is EBUSY while > 0 */
    uint32_t comp_reported;          /* completion events handed out (ibcq.mutex) */
    uint32_t async_reported;         /* CQ_ERR events handed out (ibcq.mutex) */
    bool poll_cur;                   /* start_poll/next_poll hold ring[head] (lock held) */
};
static inline struct sv_cq *sv_cq(struct ibv_cq *c) { return sv_container_of(c, struct sv_cq, ibcq); }

/* Adds a completion; false on overflow (the completion is lost and IBV_EVENT_CQ_ERR raised). */
bool sv_cq_push(struct sv_cq *cq, const struct ibv_wc *wc, bool solicited);
/* Creates a CQ (checks as ibv_create_cq); NULL with errno. */
struct sv_cq *sv_cq_create(struct sv_context *ctx, int cqe, void *cq_context,
                           struct ibv_comp_channel *channel, int comp_vector);
/* sv_cq_ex.c: verbs_context.create_cq_ex */
struct ibv_cq_ex *sv_create_cq_ex(struct ibv_context *context, struct ibv_cq_init_attr_ex *attr);
/* sv_cq_purge.c: drops every completion of QP qp_num (QP -> RESET); returns how many. */
uint32_t sv_cq_purge_qp(struct sv_cq *cq, uint32_t qp_num);

/* ======================================================================================
 * sv_srq.c and the receive queue shared by QPs and SRQs
 * ====================================================================================== */
struct sv_recv_wqe {
    uint64_t wr_id;
    uint32_t num_sge;
    struct ibv_sge *sge;             /* max_sge entries owned by the queue */
};

struct sv_rq {
    pthread_mutex_t lock;
    struct sv_recv_wqe *wqe;
    struct ibv_sge *sge_pool;
    uint32_t slots;                  /* ring size (power of two) */
    uint32_t max_wr;                 /* usable entries reported in caps */
    uint32_t max_sge;
    uint32_t head, tail;             /* free-running; count = tail - head */
};

int sv_rq_init(struct sv_rq *rq, uint32_t max_wr, uint32_t max_sge);
void sv_rq_destroy(struct sv_rq *rq);
/* Validates and appends; 0, EINVAL (too many SGEs) or ENOMEM (full). rq->lock held. */
int sv_rq_post(struct sv_rq *rq, const struct ibv_recv_wr *wr);
/* Copies the oldest WQE (and its SGEs, into sge_out[max_sge]) and removes it; false if empty. */
bool sv_rq_pop(struct sv_rq *rq, uint64_t *wr_id, struct ibv_sge *sge_out, uint32_t *num_sge);
uint32_t sv_rq_count(struct sv_rq *rq);
/* Total SGE length of the oldest WQE without taking it; false if empty. */
bool sv_rq_front_len(struct sv_rq *rq, uint32_t *len);

struct sv_srq {
    struct ibv_srq ibsrq;
    struct sv_context *ctx;
    struct sv_pd *pd;
    uint64_t uid;
    struct sv_srq *ctx_next;
    struct sv_rq rq;
    uint32_t limit;                  /* srq_limit: SRQ_LIMIT_REACHED when count drops below */
    atomic_int users;                /* QPs attached */
    uint32_t events_reported;
};
static inline struct sv_srq *sv_srq(struct ibv_srq *s) { return sv_container_of(s, struct sv_srq, ibsrq); }
/* Pops a WQE for a QP attached to the SRQ; raises SRQ_LIMIT_REACHED when armed. */
bool sv_srq_pop(struct sv_srq *srq, uint64_t *wr_id, struct ibv_sge *sge_out, uint32_t *num_sge);

/* ======================================================================================
 * sv_ah.c
 * ====================================================================================== */
struct sv_ah {
    struct ibv_ah ibah;
    struct sv_pd *pd;
    struct ibv_ah_attr attr;
    uint32_t dst_ip_be;
    bool routable;                   /* RoCE v2 over IPv4 from the chosen source GID */
};
static inline struct sv_ah *sv_ah(struct ibv_ah *a) { return sv_container_of(a, struct sv_ah, ibah); }
/* Checks an address vector like rdma_check_ah_attr on a RoCE port; 0 or errno. On success
 * dst_ip_be and routable say where packets go (see the comment at the top of sv_ah.c). */
int sv_av_check(struct sv_context *ctx, const struct ibv_ah_attr *av, uint32_t *dst_ip_be,
                bool *routable);

/* ======================================================================================
 * sv_qp_table.c: the kernel's modify-QP table as data (rdma-facts §1)
 * ====================================================================================== */
extern const char *const sv_qp_state_name[IBV_QPS_UNKNOWN + 1];
/* 0 if the transition with this mask is legal for the QP type, else EINVAL. */
int sv_qp_transition_check(enum ibv_qp_type type, enum ibv_qp_state cur, enum ibv_qp_state next,
                           uint32_t mask, uint32_t quirks);
/* The attribute masks a legal (cur, next) pair requires and permits besides IBV_QP_STATE;
 * EINVAL if the pair is illegal (rules/_views/05_qp_transitions.sql must say the same). */
int sv_qp_transition_masks(enum ibv_qp_type type, enum ibv_qp_state cur, enum ibv_qp_state next,
                           uint32_t quirks, uint32_t *required, uint32_t *optional);

/* ======================================================================================
 * sv_qp.c: QP objects, create/destroy/query; sv_qp_modify.c: modify (check, then apply);
 * sv_post.c: ibv_post_send/ibv_post_recv
 * ====================================================================================== */
struct sv_send_wqe {
    uint64_t wr_id;
    enum ibv_wr_opcode opcode;
    unsigned int send_flags;
    uint32_t imm_be;                 /* immediate data (network order) or rkey to invalidate */
    uint64_t remote_addr;
    uint32_t rkey;
    uint64_t compare_add, swap;      /* atomics */
    uint32_t ud_dst_ip_be, ud_remote_qpn, ud_remote_qkey;
    bool ud_routable;
    uint32_t num_sge;
    struct ibv_sge *sge;             /* points into the SQ's SGE pool */
    uint8_t *inline_data;            /* points into the SQ's inline pool when SEND_INLINE */
    uint32_t length;
    struct {                         /* BIND_MW */
        uint32_t mw_rkey, new_rkey, mr_lkey;
        uint64_t addr, length;
        unsigned int access;
    } bind;
    /* transport bookkeeping */
    uint32_t first_psn, last_psn, npkts;
    bool started;                    /* first packet has been built (PSNs assigned) */
    bool local_done;                 /* BIND_MW/LOCAL_INV executed: completes in order */
};

struct sv_sq {
    struct sv_send_wqe *wqe;
    struct ibv_sge *sge_pool;
    uint8_t *inline_pool;
    uint32_t slots, max_wr, max_sge, max_inline;
    uint32_t head, tail;             /* head = oldest not completed; free-running */
};

struct sv_req_state {                /* requester (sv_req.c) */
    uint32_t psn;                    /* next PSN to put on a new packet */
    uint32_t idx;                    /* SQ index of the WQE being (re)transmitted */
    uint32_t offset;                 /* bytes of that WQE already sent */
    uint32_t reads_outstanding;
    bool chunk_open;                 /* sending an ACK chunk (packets up to the next AckReq)
                                      * whose unsent packets are reserved on the device */
    bool need_rewind;                /* the completer asked for a retry (rxe need_retry) */
};

struct sv_comp_state {               /* completer (sv_comp.c) */
    uint32_t psn;                    /* oldest PSN not yet acknowledged */
    uint32_t retry_left, rnr_left;
    uint64_t retrans_at;             /* retransmit timer (monotonic ns), 0 = off */
    uint64_t rnr_at;                 /* RNR wait end, 0 = not waiting */
    uint32_t read_rcvd;              /* bytes of the head READ already placed */
    bool retrying;                   /* a retry from comp.psn is under way (rxe started_retry) */
    bool timed_out, rnr_expired;     /* timers that fired, for the completer's task (rxe comp.timeout) */
};

enum sv_resp_msg { SV_RESP_IDLE, SV_RESP_IN_SEND, SV_RESP_IN_WRITE, SV_RESP__COUNT };
extern const char *const sv_resp_msg_name[SV_RESP__COUNT];

struct sv_atomic_saved {             /* replay of duplicate atomics (IBA 9.7.5.1.3) */
    uint32_t psn;
    uint64_t orig;
    bool valid;
};
#define SV_ATOMIC_SAVED 4

struct sv_resp_state {               /* responder (sv_resp.c) */
    uint32_t epsn;                   /* expected PSN */
    uint32_t msn;
    bool nak_sent;                   /* sequence NAK sent, drop until ePSN arrives */
    enum sv_resp_msg msg;            /* inside a multi-packet SEND or WRITE */
    bool uc_drop;                    /* UC: rest of a broken message is dropped */
    bool have_wqe;                   /* a receive WQE is being filled */
    uint64_t wqe_id;
    struct ibv_sge *wqe_sge;         /* max_recv_sge entries */
    uint32_t wqe_nsge;
    uint32_t offset;                 /* bytes placed in the receive WQE */
    uint64_t va;                     /* WRITE: next address */
    uint32_t rkey;
    uint32_t resid;                  /* WRITE: bytes still to come */
    uint32_t write_len;              /* WRITE: DMA length from the RETH */
    bool comm_est_sent;
    struct sv_atomic_saved atomic[SV_ATOMIC_SAVED];
    uint32_t atomic_next;
};

#define SV_QP_MAGIC 0x73767170u /* "svqp" */

struct sv_qp {
    union {                          /* ibv_qp_ex begins with an ibv_qp */
        struct ibv_qp ibqp;
        struct ibv_qp_ex ibqpx;      /* QPs from create_qp_ex (sv_qp_ex.c) */
    };
    uint32_t magic;
    struct sv_context *ctx;
    struct sv_pd *pd;
    struct sv_cq *scq, *rcq;
    struct sv_srq *srq;
    uint64_t uid;
    struct sv_qp *ctx_next, *ep_next;
    pthread_mutex_t lock;            /* all transport state below */
    enum ibv_qp_state state;
    struct ibv_qp_attr attr;         /* attributes as last applied */
    bool sq_sig_all;
    uint32_t mtu;                    /* bytes per packet payload */
    uint32_t dst_ip_be;
    bool routable;
    struct sv_sq sq;
    struct sv_rq rq;
    struct sv_task req_task;         /* runs the requester (sv_req_task); outlives a reset */
    struct sv_task comp_task;        /* runs the completer's timer work (sv_comp_task); the same */
    struct sv_req_state req;
    struct sv_comp_state comp;
    struct sv_resp_state resp;
    bool sq_draining;
    uint32_t events_reported;        /* async events handed out (ibqp.mutex) */
    uint32_t tx_charged;             /* this QP's share of ep->tx_inflight (qp->lock) */
    bool tx_waiting;                 /* on the endpoint's wait list (ep->wait_lock) */
    struct sv_qp *tx_wait_next;
    bool is_qpx;                     /* created by create_qp_ex: ibv_qp_to_qp_ex answers */
    pthread_mutex_t wr_lock;         /* held from ibv_wr_start to wr_complete/wr_abort */
    uint32_t wr_pending;             /* WQEs built past sq.tail in the open batch */
    int wr_err;                      /* first error of the open batch (wr_complete returns it) */
};
static inline struct sv_qp *sv_qp(struct ibv_qp *q) { return sv_container_of(q, struct sv_qp, ibqp); }
static inline struct sv_send_wqe *sv_sq_at(struct sv_qp *qp, uint32_t idx)
{
    return &qp->sq.wqe[idx % qp->sq.slots];
}
/* READs and atomics need responder resources and complete through their responses. */
static inline bool sv_wqe_is_rd_atomic(const struct sv_send_wqe *w)
{
    return w->opcode == IBV_WR_RDMA_READ || w->opcode == IBV_WR_ATOMIC_CMP_AND_SWP ||
           w->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD;
}
static inline bool sv_wqe_is_local(const struct sv_send_wqe *w)
{
    return w->opcode == IBV_WR_BIND_MW || w->opcode == IBV_WR_LOCAL_INV;
}
/* NULL unless ibqp is a live softverbs QP (argument checking for the entry points). */
struct sv_qp *sv_qp_checked(struct ibv_qp *ibqp);
/* sv_qp_ex.c: send_ops_flags of create_qp_ex (0 or EOPNOTSUPP), and the ibv_qp_ex ops. */
int sv_qpx_check(enum ibv_qp_type type, uint64_t send_ops_flags);
void sv_qpx_init(struct sv_qp *qp, uint64_t send_ops_flags);
/* Resets SQ slot idx for a new WQE (keeps its SGE and inline buffers). */
struct sv_send_wqe *sv_sq_slot_reset(struct sv_qp *qp, uint32_t idx);
/* sv_mw.c: fills a BIND_MW WQE (0 or EINVAL); runs a local WQE when the requester reaches it
 * (false: it failed and the QP is in ERR); completes executed local WQEs at the SQ head. */
int sv_mw_fill_bind(struct sv_qp *qp, struct sv_send_wqe *w, struct ibv_mw *mw, uint32_t rkey,
                    const struct ibv_mw_bind_info *info);
bool sv_mw_run_local(struct sv_qp *qp, struct sv_send_wqe *w);
void sv_qp_complete_local_heads(struct sv_qp *qp);
/* SEND with Invalidate at the responder: 0 if rkey named a bound type 2 window, now free. */
int sv_mw_invalidate_remote(struct sv_qp *qp, uint32_t rkey);

/* Moves the QP to ERR because of a transport error, flushing both queues; raises the
 * affiliated async event (IBV_EVENT_QP_FATAL etc.) when event >= 0. qp->lock held. */
void sv_qp_error(struct sv_qp *qp, int event);
/* The send WQE at SQ index idx failed with st: earlier ones are flushed, it reports st, the
 * QP goes to ERR (reported through the completion, no async event). */
void sv_qp_fail_at(struct sv_qp *qp, uint32_t idx, enum ibv_wc_status st);
/* Completes every outstanding WQE with IBV_WC_WR_FLUSH_ERR (QP in ERR). */
void sv_qp_flush(struct sv_qp *qp);
/* Raises IBV_EVENT_SQ_DRAINED once an SQD QP has nothing in flight. */
void sv_comp_check_drained(struct sv_qp *qp);
/* sv_wc.c - work completions (qp->lock held); vendor_err comes from the personality.
 * complete_head completes the oldest send WQE in order and drops it from the SQ. */
void sv_qp_complete_head(struct sv_qp *qp, enum ibv_wc_status st);
void sv_qp_complete_send(struct sv_qp *qp, const struct sv_send_wqe *wqe, enum ibv_wc_status st);
bool sv_qp_complete_recv(struct sv_qp *qp, uint64_t wr_id, enum ibv_wc_status st,
                         enum ibv_wc_opcode op, uint32_t byte_len, uint32_t imm_be,
                         unsigned int wc_flags, uint32_t src_qp, bool solicited);
/* sv_progress.c - QP timers (qp->lock held). arm_retrans starts the retransmit timer unless it
 * runs, restart_retrans restarts it from now while anything is unacknowledged (off otherwise),
 * arm_rnr starts the RNR wait until `when`; each tells the owning progress thread. */
void sv_qp_arm_retrans(struct sv_qp *qp, uint64_t now);
void sv_qp_restart_retrans(struct sv_qp *qp);
void sv_qp_postpone_retrans(struct sv_qp *qp);   /* a running timer counts from now */
void sv_qp_arm_rnr(struct sv_qp *qp, uint64_t when);
uint64_t sv_qp_timeout_ns(const struct sv_qp *qp);
/* Runs expired timers; returns the QP's next deadline (0 = none). */
uint64_t sv_qp_timers(struct sv_qp *qp, uint64_t now);
int sv_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr);
int sv_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr);
int sv_post_srq_recv(struct ibv_srq *ibsrq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr);
int sv_poll_cq(struct ibv_cq *ibcq, int num_entries, struct ibv_wc *wc);
int sv_req_notify_cq(struct ibv_cq *ibcq, int solicited_only);

/* ======================================================================================
 * sv_req.c (requester: WQEs to packets), sv_comp.c (completer: ACKs/responses to
 * completions, expired timers), sv_resp.c (responder: requests to data, ACKs, NAKs),
 * sv_recv.c (routing of received datagrams)
 * ====================================================================================== */
struct sv_pkt;
/* The requester's task (qp->req_task): the rewind the completer asked for first, then it sends
 * what the SQ, window and RNR wait allow. Run only through sv_req_schedule. qp->lock held. */
void sv_req_task(void *qp);
/* How another engine (the completer, a timer) asks the requester to run, after a rewind when
 * `rewind`: it schedules the requester's task and never calls into it. qp->lock held. */
static inline void sv_req_schedule(struct sv_qp *qp, bool rewind)
{
    if (rewind)
        qp->req.need_rewind = true;
    sv_task_schedule(&qp->req_task);
}
/* Transmit pacing: packets the device must admit before the requester sends again (0: none,
 * or a chunk is open), and the unsent packets of the open chunk (reserved). qp->lock held. */
uint32_t sv_req_tx_need(struct sv_qp *qp);
uint32_t sv_req_tx_reserved(struct sv_qp *qp);
/* Encodes and transmits one packet of this QP towards its peer. */
enum sv_tx sv_qp_xmit(struct sv_qp *qp, struct sv_pkt *pkt, uint32_t dst_ip_be, bool routable);

void sv_comp_handle(struct sv_qp *qp, const struct sv_pkt *pkt);
/* The completer's task (qp->comp_task): acts on the timers that fired (comp.rnr_expired, then
 * comp.timed_out); the timers schedule it and never call into it. qp->lock held. */
void sv_comp_task(void *qp);
/* Completes WQEs at the head of the SQ that need no acknowledgement (UC/UD, already sent). */
void sv_comp_unreliable(struct sv_qp *qp);

void sv_resp_handle(struct sv_qp *qp, const struct sv_pkt *pkt, uint32_t src_ip_be);
/* sv_resp_uc_ud.c, and the receive-WQE helpers of sv_resp.c they share */
void sv_resp_uc(struct sv_qp *qp, const struct sv_pkt *pkt, sv_hdr_mask_t m);
void sv_resp_ud(struct sv_qp *qp, const struct sv_pkt *pkt, sv_hdr_mask_t m, uint32_t src_ip_be);
struct sv_pd *sv_resp_recv_pd(struct sv_qp *qp);
bool sv_resp_take_wqe(struct sv_qp *qp);        /* false: no receive WQE posted */
/* Completes the receive WQE in progress; false if the CQ overflowed (QP then in ERR). */
bool sv_resp_finish_wqe(struct sv_qp *qp, enum ibv_wc_status st, enum ibv_wc_opcode op, uint32_t byte_len,
                        uint32_t imm_be, unsigned int flags, uint32_t src_qp, bool solicited);
uint32_t sv_resp_wqe_len(struct sv_qp *qp);
bool sv_resp_sequence_ok(const struct sv_qp *qp, sv_hdr_mask_t m);
bool sv_resp_qp_allows(const struct sv_qp *qp, sv_hdr_mask_t m);

/* sv_stage.c: what the requester and the completer are doing, by name (SOFTVERBS_LOG). */
enum sv_req_stage {
    SV_REQ_STOPPED,              /* QP not in RTS/SQD */
    SV_REQ_IDLE,                 /* nothing left to send */
    SV_REQ_SENDING,
    SV_REQ_WAIT_DEVICE,          /* parked: the device's in-flight limit or a busy socket */
    SV_REQ_WAIT_WINDOW,          /* the QP's own 128-PSN window is full */
    SV_REQ_WAIT_RD_ATOMIC,       /* initiator depth reached, or a fence */
    SV_REQ_WAIT_RNR,             /* waiting out an RNR NAK */
    SV_REQ__COUNT
};
enum sv_comp_stage {
    SV_COMP_STOPPED,             /* QP not in RTS/SQD/SQE */
    SV_COMP_IDLE,                /* everything sent is acknowledged */
    SV_COMP_WAIT_ACK,
    SV_COMP_RETRYING,            /* a retry from the oldest unacknowledged PSN is under way */
    SV_COMP_WAIT_RNR,
    SV_COMP__COUNT
};
extern const char *const sv_req_stage_name[SV_REQ__COUNT];
extern const char *const sv_comp_stage_name[SV_COMP__COUNT];
enum sv_req_stage sv_req_stage_of(const struct sv_qp *qp);
enum sv_comp_stage sv_comp_stage_of(const struct sv_qp *qp);

/* sv_gsi.c: a valid packet for QPN 1 goes to the attached MAD handler (or is counted). */
void sv_gsi_dispatch(struct sv_endpoint *ep, const struct sv_pkt *pkt, uint32_t src_ip_be);

/* Receives and dispatches up to `budget` datagrams; returns how many were read. With `wait`
 * false it returns 0 at once when another thread is draining the socket. */
int sv_recv_drain(struct sv_endpoint *ep, int budget, bool wait);

/* ======================================================================================
 * sv_counters.c: softverbs_query_counters and the sysfs-like files
 * ====================================================================================== */
/* Reads a virtual sysfs file of a softverbs device ("ports/1/hw_counters/rcvd_pkts", …):
 * length written, or -1 if dir/file is not one of ours. */
int sv_sysfs_read(const char *dir, const char *file, char *buf, size_t size);

#endif
