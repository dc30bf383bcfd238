/* A QP moved to RESET loses its completions still in its CQs (as mlx5 purges them), other
 * QPs' completions on the same CQ stay in order, and a reset-and-reused QP polls only what it
 * does in its new life, not the flush errors of the old one. */
#include "sv_check.h"
#include "sv_testpair.h"

static int to_state(struct ibv_qp *qp, enum ibv_qp_state s)
{
    struct ibv_qp_attr a = {.qp_state = s};
    return ibv_modify_qp(qp, &a, IBV_QP_STATE);
}

static int drain(struct ibv_cq *cq, struct ibv_wc *wc, int max)
{
    int n = 0, got;
    while (n < max && (got = ibv_poll_cq(cq, max - n, wc + n)) > 0)
        n += got;
    return n;
}

static void test_purge_on_reset(void)
{
    struct side a, b;
    CHECK_EQ(pair_up(&a, &b, IBV_QPT_RC, sv_test_conn_defaults(), sv_test_conn_defaults(), 64, ALL_ACCESS), 0);
    if (!a.qp || !b.qp)
        return;
    /* a second QP on b's CQ, which keeps its completions */
    struct ibv_qp *other = sv_test_make_qp(b.pd, b.cq, IBV_QPT_RC, 4);
    CHECK(other != NULL);
    if (!other)
        return;
    struct ibv_qp_attr init = {.qp_state = IBV_QPS_INIT, .port_num = 1};
    CHECK_EQ(ibv_modify_qp(other, &init, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS), 0);
    struct ibv_sge sge = {.addr = (uintptr_t)b.buf, .length = 64, .lkey = b.mr->lkey};
    struct ibv_recv_wr rwr = {.wr_id = 100, .sg_list = &sge, .num_sge = 1}, *bad;
    CHECK_EQ(ibv_post_recv(other, &rwr, &bad), 0);

    for (uint64_t id = 1; id <= 3; id++)
        CHECK_EQ(post_recv(&b, id, 0, 64), 0);
    CHECK_EQ(to_state(b.qp, IBV_QPS_ERR), 0);      /* 3 flush errors of b.qp ... */
    CHECK_EQ(to_state(other, IBV_QPS_ERR), 0);     /* ... then 1 of the other QP */
    rwr.wr_id = 101;
    CHECK_EQ(to_state(b.qp, IBV_QPS_RESET), 0);
    CHECK_EQ(ibv_post_recv(other, &rwr, &bad), 0);  /* posted in ERR: flushed at once */

    struct ibv_wc wc[8];
    int n = drain(b.cq, wc, 8);
    CHECK_EQ(n, 2);
    for (int i = 0; i < n; i++) {
        CHECK_EQ(wc[i].qp_num, other->qp_num);
        CHECK_EQ(wc[i].status, IBV_WC_WR_FLUSH_ERR);
    }
    if (n == 2) {
        CHECK_EQ(wc[0].wr_id, 100);
        CHECK_EQ(wc[1].wr_id, 101);
    }

    /* reuse: both QPs reset and reconnected; the first completions are the new SEND's */
    CHECK_EQ(to_state(a.qp, IBV_QPS_RESET), 0);
    struct sv_test_conn ca = sv_test_conn_defaults(), cb = sv_test_conn_defaults();
    ca.remote_qpn = b.qp->qp_num;
    ca.remote_ip = ip_b;
    ca.local_psn = 0x500;
    ca.remote_psn = 0x600;
    cb.remote_qpn = a.qp->qp_num;
    cb.remote_ip = ip_a;
    cb.local_psn = 0x600;
    cb.remote_psn = 0x500;
    CHECK_EQ(sv_test_connect(a.qp, &ca), 0);
    CHECK_EQ(sv_test_connect(b.qp, &cb), 0);
    CHECK_EQ(post_recv(&b, 7, 0, 64), 0);
    fill(a.buf, 32, 3);
    CHECK_EQ(post_send(&a, 8, IBV_WR_SEND, 0, 32, 0, 0, 0), 0);
    CHECK_EQ(sv_test_wait_wc(b.cq, &wc[0], SV_TEST_WAIT_MS), 1);
    CHECK_EQ(wc[0].status, IBV_WC_SUCCESS);
    CHECK_EQ(wc[0].wr_id, 7);
    CHECK_EQ(wc[0].qp_num, b.qp->qp_num);
    CHECK_EQ(sv_test_wait_wc(a.cq, &wc[0], SV_TEST_WAIT_MS), 1);
    CHECK_EQ(wc[0].status, IBV_WC_SUCCESS);
    CHECK_EQ(wc[0].wr_id, 8);

    CHECK_EQ(ibv_destroy_qp(other), 0);
    side_fini(&a);
    side_fini(&b);
}

/* Separate send and receive CQs are both purged; a CQ that was full accepts again. */
static void test_purge_both_cqs(void)
{
    struct ibv_pd *pd = ibv_alloc_pd(ctx_a);
    struct ibv_cq *scq = ibv_create_cq(ctx_a, 1, NULL, NULL, 0);
    struct ibv_cq *rcq = ibv_create_cq(ctx_a, 4, NULL, NULL, 0);
    CHECK(pd && scq && rcq);
    if (!pd || !scq || !rcq)
        return;
    struct ibv_qp_init_attr init = {.send_cq = scq, .recv_cq = rcq, .qp_type = IBV_QPT_RC,
                                    .cap = {.max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1, .max_recv_sge = 1}};
    struct ibv_qp *qp = ibv_create_qp(pd, &init);
    CHECK(qp != NULL);
    if (qp) {
        struct ibv_qp_attr a = {.qp_state = IBV_QPS_INIT, .port_num = 1};
        CHECK_EQ(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS), 0);
        uint8_t buf[16];
        struct ibv_mr *mr = ibv_reg_mr(pd, buf, sizeof buf, IBV_ACCESS_LOCAL_WRITE);
        struct ibv_sge sge = {.addr = (uintptr_t)buf, .length = sizeof buf, .lkey = mr ? mr->lkey : 0};
        struct ibv_recv_wr rwr = {.wr_id = 1, .sg_list = &sge, .num_sge = 1}, *rbad;
        CHECK_EQ(ibv_post_recv(qp, &rwr, &rbad), 0);
        CHECK_EQ(to_state(qp, IBV_QPS_ERR), 0);
        struct ibv_send_wr swr = {.wr_id = 2, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND}, *sbad;
        for (int i = 0; i < 3; i++)   /* the 1-entry send CQ overflows */
            CHECK_EQ(ibv_post_send(qp, &swr, &sbad), 0);
        CHECK_EQ(to_state(qp, IBV_QPS_RESET), 0);
        struct ibv_wc wc;
        CHECK_EQ(ibv_poll_cq(scq, 1, &wc), 0);
        CHECK_EQ(ibv_poll_cq(rcq, 1, &wc), 0);
        CHECK_EQ(ibv_destroy_qp(qp), 0);
        if (mr)
            CHECK_EQ(ibv_dereg_mr(mr), 0);
    }
    CHECK_EQ(ibv_destroy_cq(scq), 0);
    CHECK_EQ(ibv_destroy_cq(rcq), 0);
    CHECK_EQ(ibv_dealloc_pd(pd), 0);
}

int main(void)
{
    CHECK_EQ(pair_open(), 0);
    if (ctx_a && ctx_b) {
        test_purge_on_reset();
        test_purge_both_cqs();
    }
    pair_close();
    return sv_check_report("test_sv_cq_purge");
}
