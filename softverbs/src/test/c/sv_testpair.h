/* Two softverbs devices in one process with a QP each ("a" requester side, "b" responder
 * side), buffers registered with every right, and short post helpers. */
#ifndef SV_TESTPAIR_H
#define SV_TESTPAIR_H

#include <arpa/inet.h>

#include "sv_testdev.h"

#define BUF_LEN (64 * 1024)

struct side {
    struct ibv_context *ctx;
    struct ibv_pd *pd;
    struct ibv_cq *cq;
    struct ibv_qp *qp;
    struct ibv_mr *mr;
    uint8_t *buf;
    const char *ip;
};

static char ip_a[32], ip_b[32];
static struct ibv_context *ctx_a, *ctx_b;

static inline void side_init(struct side *s, struct ibv_context *ctx, const char *ip, enum ibv_qp_type type, int cqe,
                      unsigned int mr_access)
{
    memset(s, 0, sizeof *s);
    s->ctx = ctx;
    s->ip = ip;
    s->pd = ibv_alloc_pd(ctx);
    s->cq = ibv_create_cq(ctx, cqe, NULL, NULL, 0);
    s->buf = calloc(1, BUF_LEN);
    s->mr = ibv_reg_mr(s->pd, s->buf, BUF_LEN, mr_access);
    struct ibv_qp_init_attr init = {.send_cq = s->cq, .recv_cq = s->cq, .qp_type = type,
                                    .cap = {.max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 2, .max_recv_sge = 2}};
    s->qp = ibv_create_qp(s->pd, &init);
}

static inline void side_fini(struct side *s)
{
    if (s->qp)
        ibv_destroy_qp(s->qp);
    if (s->mr)
        ibv_dereg_mr(s->mr);
    if (s->cq)
        ibv_destroy_cq(s->cq);
    if (s->pd)
        ibv_dealloc_pd(s->pd);
    free(s->buf);
}

#define ALL_ACCESS (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC)

/* Two connected RC (or UC) QPs; ca/cb tweak each side's connection. */
static inline int pair_up(struct side *a, struct side *b, enum ibv_qp_type type, struct sv_test_conn ca,
                   struct sv_test_conn cb, int cqe_b, unsigned int access_b)
{
    side_init(a, ctx_a, ip_a, type, 64, ALL_ACCESS);
    side_init(b, ctx_b, ip_b, type, cqe_b, access_b);
    if (!a->qp || !b->qp)
        return -1;
    ca.remote_qpn = b->qp->qp_num;
    ca.remote_ip = ip_b;
    cb.remote_qpn = a->qp->qp_num;
    cb.remote_ip = ip_a;
    if (!ca.local_psn)
        ca.local_psn = 0x10;
    if (!cb.local_psn)
        cb.local_psn = 0x20;
    if (!ca.remote_psn)
        ca.remote_psn = cb.local_psn;
    if (!cb.remote_psn)
        cb.remote_psn = ca.local_psn;
    int rc = sv_test_connect(a->qp, &ca);
    return rc ? rc : sv_test_connect(b->qp, &cb);
}

static inline int post_recv(struct side *s, uint64_t id, uint32_t off, uint32_t len)
{
    struct ibv_sge sge = {.addr = (uintptr_t)(s->buf + off), .length = len, .lkey = s->mr->lkey};
    struct ibv_recv_wr wr = {.wr_id = id, .sg_list = &sge, .num_sge = 1}, *bad;
    return ibv_post_recv(s->qp, &wr, &bad);
}

static inline int post_send(struct side *s, uint64_t id, enum ibv_wr_opcode op, uint32_t off, uint32_t len,
                     uint64_t raddr, uint32_t rkey, uint32_t imm)
{
    struct ibv_sge sge = {.addr = (uintptr_t)(s->buf + off), .length = len, .lkey = s->mr->lkey};
    struct ibv_send_wr wr = {.wr_id = id, .sg_list = &sge, .num_sge = 1, .opcode = op,
                             .send_flags = IBV_SEND_SIGNALED, .imm_data = htonl(imm)}, *bad;
    wr.wr.rdma.remote_addr = raddr;
    wr.wr.rdma.rkey = rkey;
    return ibv_post_send(s->qp, &wr, &bad);
}

static inline void fill(uint8_t *p, uint32_t len, uint8_t seed)
{
    for (uint32_t i = 0; i < len; i++)
        p[i] = (uint8_t)(seed + i * 7);
}

/* Opens devices da@127.X.Y.1 and db@127.X.Y.2 into ctx_a/ctx_b; 0 or -1. */
static inline int pair_open(void)
{
    sv_test_ip(ip_a, sizeof ip_a, 1);
    sv_test_ip(ip_b, sizeof ip_b, 2);
    char spec[128];
    snprintf(spec, sizeof spec, "da@%s,db@%s", ip_a, ip_b);
    ctx_a = sv_test_open(spec, "da");
    ctx_b = sv_test_open(spec, "db");
    return ctx_a && ctx_b ? 0 : -1;
}

static inline void pair_close(void)
{
    ibv_close_device(ctx_a);
    ibv_close_device(ctx_b);
    softverbs_configure(NULL);
}

#endif
