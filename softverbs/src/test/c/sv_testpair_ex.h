/* A side of sv_testpair.h built with the extended verbs: an ibv_cq_ex (every wc flag softverbs
 * offers) and a QP from ibv_create_qp_ex with the given send_ops_flags. */
#ifndef SV_TESTPAIR_EX_H
#define SV_TESTPAIR_EX_H

#include "sv_testpair.h"

#define ALL_WC_FLAGS (IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_IMM | IBV_WC_EX_WITH_QP_NUM | \
                      IBV_WC_EX_WITH_SRC_QP | IBV_WC_EX_WITH_SLID | IBV_WC_EX_WITH_SL | \
                      IBV_WC_EX_WITH_DLID_PATH_BITS)
#define RC_SEND_OPS (IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM | IBV_QP_EX_WITH_SEND_WITH_INV | \
                     IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM | IBV_QP_EX_WITH_RDMA_READ | \
                     IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP | IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD | \
                     IBV_QP_EX_WITH_LOCAL_INV | IBV_QP_EX_WITH_BIND_MW)

struct xside {
    struct side s;                   /* s.cq is ibv_cq_ex_to_cq(cqx) */
    struct ibv_cq_ex *cqx;
    struct ibv_qp_ex *qpx;           /* NULL for a QP made with ibv_create_qp */
};

/* ops == 0: a plain ibv_create_qp QP on the extended CQ. */
static inline void xside_init(struct xside *x, struct ibv_context *ctx, const char *ip, enum ibv_qp_type type,
                              uint64_t ops, unsigned int mr_access)
{
    struct side *s = &x->s;
    memset(x, 0, sizeof *x);
    s->ctx = ctx;
    s->ip = ip;
    s->pd = ibv_alloc_pd(ctx);
    struct ibv_cq_init_attr_ex ca = {.cqe = 64, .wc_flags = ALL_WC_FLAGS};
    x->cqx = ibv_create_cq_ex(ctx, &ca);
    s->cq = x->cqx ? ibv_cq_ex_to_cq(x->cqx) : NULL;
    s->buf = calloc(1, BUF_LEN);
    s->mr = ibv_reg_mr(s->pd, s->buf, BUF_LEN, mr_access);
    struct ibv_qp_cap cap = {.max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 2, .max_recv_sge = 2,
                             .max_inline_data = 64};
    if (!ops) {
        struct ibv_qp_init_attr init = {.send_cq = s->cq, .recv_cq = s->cq, .qp_type = type, .cap = cap};
        s->qp = ibv_create_qp(s->pd, &init);
        return;
    }
    struct ibv_qp_init_attr_ex ex = {.send_cq = s->cq, .recv_cq = s->cq, .qp_type = type, .cap = cap,
                                     .pd = s->pd, .send_ops_flags = ops,
                                     .comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS};
    s->qp = ibv_create_qp_ex(ctx, &ex);
    x->qpx = s->qp ? ibv_qp_to_qp_ex(s->qp) : NULL;
}

/* Two connected QPs on extended CQs; a gets ops_a, b ops_b (0 = plain QP). */
static inline int xpair_up(struct xside *a, struct xside *b, enum ibv_qp_type type, uint64_t ops_a, uint64_t ops_b,
                           unsigned int access_b)
{
    xside_init(a, ctx_a, ip_a, type, ops_a, ALL_ACCESS | IBV_ACCESS_MW_BIND);
    xside_init(b, ctx_b, ip_b, type, ops_b, access_b);
    if (!a->s.qp || !b->s.qp || !a->cqx || !b->cqx)
        return -1;
    struct sv_test_conn ca = sv_test_conn_defaults(), cb = sv_test_conn_defaults();
    ca.remote_qpn = b->s.qp->qp_num;
    ca.remote_ip = ip_b;
    ca.local_psn = cb.remote_psn = 0x10;
    cb.remote_qpn = a->s.qp->qp_num;
    cb.remote_ip = ip_a;
    cb.local_psn = ca.remote_psn = 0x20;
    int rc = sv_test_connect(a->s.qp, &ca);
    return rc ? rc : sv_test_connect(b->s.qp, &cb);
}

/* Waits (bounded) for one completion through start_poll/end_poll and copies what the ex
 * accessors read into wc (fields softverbs offers); 1 or 0. */
static inline int xwait(struct xside *x, struct ibv_wc *wc)
{
    struct ibv_cq_ex *c = x->cqx;
    struct ibv_poll_cq_attr pa = {0};
    uint64_t end = sv_test_ms() + SV_TEST_WAIT_MS;
    while (ibv_start_poll(c, &pa) == ENOENT) {
        if (sv_test_ms() > end)
            return 0;
        usleep(100);
    }
    memset(wc, 0, sizeof *wc);
    wc->wr_id = c->wr_id;
    wc->status = c->status;
    wc->opcode = ibv_wc_read_opcode(c);
    wc->vendor_err = ibv_wc_read_vendor_err(c);
    wc->byte_len = ibv_wc_read_byte_len(c);
    wc->imm_data = ibv_wc_read_imm_data(c);
    wc->qp_num = ibv_wc_read_qp_num(c);
    wc->src_qp = ibv_wc_read_src_qp(c);
    wc->wc_flags = ibv_wc_read_wc_flags(c);
    wc->slid = (uint16_t)ibv_wc_read_slid(c);
    wc->sl = ibv_wc_read_sl(c);
    wc->dlid_path_bits = ibv_wc_read_dlid_path_bits(c);
    ibv_end_poll(c);
    return 1;
}

static inline void xside_fini(struct xside *x)
{
    side_fini(&x->s);   /* ibv_destroy_cq takes the ibv_cq of an extended CQ */
}

#endif
