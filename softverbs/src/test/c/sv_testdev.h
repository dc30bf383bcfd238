/* Helpers for tests that open softverbs devices in this process: addresses unique to the
 * process (so concurrent test runs never contend for IP:4791), RC/UD bring-up, and bounded
 * waits for completions and events. */
#ifndef SV_TESTDEV_H
#define SV_TESTDEV_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "softverbs.h"

#define SV_TEST_WAIT_MS 5000

/* 127.X.Y.host with X.Y from the pid: another test process never picks the same pair. */
static inline void sv_test_ip(char *buf, size_t n, int host)
{
    unsigned pid = (unsigned)getpid();
    snprintf(buf, n, "127.%u.%u.%d", 1 + (pid >> 8) % 254, pid & 0xFF, host);
}

/* Configures devices "<name>@127.X.Y.<host><opts>" and opens the one with `name`. */
static inline struct ibv_context *sv_test_open(const char *spec, const char *name)
{
    if (softverbs_configure(spec)) {
        fprintf(stderr, "softverbs_configure(%s): %s\n", spec, softverbs_last_error());
        return NULL;
    }
    int n = 0;
    struct ibv_device **list = ibv_get_device_list(&n);
    struct ibv_context *ctx = NULL;
    for (int i = 0; list && i < n; i++)
        if (!strcmp(ibv_get_device_name(list[i]), name))
            ctx = ibv_open_device(list[i]);
    if (!ctx)
        fprintf(stderr, "open %s: %s (%s)\n", name, strerror(errno), softverbs_last_error());
    ibv_free_device_list(list);
    return ctx;
}

static inline uint64_t sv_test_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Polls until one completion arrives or timeout_ms passes; 1 or 0. */
static inline int sv_test_wait_wc(struct ibv_cq *cq, struct ibv_wc *wc, int timeout_ms)
{
    uint64_t end = sv_test_ms() + (uint64_t)timeout_ms;
    do {
        int n = ibv_poll_cq(cq, 1, wc);
        if (n > 0)
            return 1;
        if (n < 0)
            return 0;
        usleep(100);
    } while (sv_test_ms() < end);
    return 0;
}

/* Waits up to timeout_ms for an async event on a context; 0 or -1. */
static inline int sv_test_wait_async(struct ibv_context *ctx, struct ibv_async_event *ev, int timeout_ms)
{
    struct pollfd p = {.fd = ctx->async_fd, .events = POLLIN};
    if (poll(&p, 1, timeout_ms) != 1)
        return -1;
    return ibv_get_async_event(ctx, ev);
}

static inline uint64_t sv_test_counter(struct ibv_context *ctx, const char *name)
{
    const char *names[64];
    uint64_t values[64];
    int n = softverbs_query_counters(ctx, names, values, 64);
    for (int i = 0; i < n && i < 64; i++)
        if (!strcmp(names[i], name))
            return values[i];
    return UINT64_MAX;
}

static inline void sv_test_gid(union ibv_gid *gid, const char *ip)
{
    memset(gid, 0, sizeof *gid);
    gid->raw[10] = 0xFF;
    gid->raw[11] = 0xFF;
    unsigned a, b, c, d;
    sscanf(ip, "%u.%u.%u.%u", &a, &b, &c, &d);
    gid->raw[12] = (uint8_t)a;
    gid->raw[13] = (uint8_t)b;
    gid->raw[14] = (uint8_t)c;
    gid->raw[15] = (uint8_t)d;
}

static inline struct ibv_qp *sv_test_make_qp(struct ibv_pd *pd, struct ibv_cq *cq, enum ibv_qp_type type,
                                             uint32_t rwr)
{
    struct ibv_qp_init_attr init = {.send_cq = cq, .recv_cq = cq, .qp_type = type,
                                    .cap = {.max_send_wr = 4, .max_recv_wr = rwr, .max_send_sge = 1, .max_recv_sge = 1}};
    return ibv_create_qp(pd, &init);
}

static inline enum ibv_qp_state sv_test_qp_state(struct ibv_qp *qp)
{
    struct ibv_qp_attr a;
    struct ibv_qp_init_attr i;
    if (ibv_query_qp(qp, &a, IBV_QP_STATE, &i))
        return IBV_QPS_UNKNOWN;
    return a.qp_state;
}

/* Connection parameters for one side's RTR/RTS. */
struct sv_test_conn {
    uint32_t remote_qpn, remote_psn, local_psn;
    const char *remote_ip;
    enum ibv_mtu mtu;
    uint8_t timeout, retry_cnt, rnr_retry, min_rnr_timer, sgid_index;
    unsigned int access;
    bool rtr_only;   /* stop in RTR (a pure responder) */
};

static inline struct sv_test_conn sv_test_conn_defaults(void)
{
    struct sv_test_conn c = {.mtu = IBV_MTU_1024, .timeout = 14, .retry_cnt = 3, .rnr_retry = 7,
                             .min_rnr_timer = 1, .sgid_index = 3,
                             .access = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC};
    return c;
}

/* RESET -> INIT -> RTR -> RTS the way rc_pingpong does it; 0 or the failing errno. */
static inline int sv_test_connect(struct ibv_qp *qp, const struct sv_test_conn *c)
{
    struct ibv_qp_attr a;
    memset(&a, 0, sizeof a);
    a.qp_state = IBV_QPS_INIT;
    a.pkey_index = 0;
    a.port_num = 1;
    a.qp_access_flags = c->access;
    int rc = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
    if (rc)
        return rc;
    memset(&a, 0, sizeof a);
    a.qp_state = IBV_QPS_RTR;
    a.path_mtu = c->mtu;
    a.dest_qp_num = c->remote_qpn;
    a.rq_psn = c->remote_psn;
    a.max_dest_rd_atomic = 4;
    a.min_rnr_timer = c->min_rnr_timer;
    a.ah_attr.is_global = 1;
    a.ah_attr.port_num = 1;
    a.ah_attr.grh.hop_limit = 1;
    a.ah_attr.grh.sgid_index = c->sgid_index;
    sv_test_gid(&a.ah_attr.grh.dgid, c->remote_ip);
    rc = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                                   IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
    if (rc || c->rtr_only)
        return rc;
    memset(&a, 0, sizeof a);
    a.qp_state = IBV_QPS_RTS;
    a.timeout = c->timeout;
    a.retry_cnt = c->retry_cnt;
    a.rnr_retry = c->rnr_retry;
    a.sq_psn = c->local_psn;
    a.max_rd_atomic = 4;
    return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                                     IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

#endif
