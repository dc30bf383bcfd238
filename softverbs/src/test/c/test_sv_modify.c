/* modify_qp through the public API: attribute checks with Linux's errnos, all-or-nothing
 * semantics (a refused modify leaves state and attributes as they were), live query values,
 * SQD and its drained event, flush on ERR, post-time state and limit checks, and the
 * personalities that change control-path behaviour. One device, no traffic. */
#include "sv_check.h"
#include "sv_testdev.h"

static char ip1[32], ip2[32], ip3[32];

static void fill_rtr(struct ibv_qp_attr *a, const char *peer)
{
    memset(a, 0, sizeof *a);
    a->qp_state = IBV_QPS_RTR;
    a->path_mtu = IBV_MTU_1024;
    a->dest_qp_num = 0x123;
    a->rq_psn = 0xabcdef;
    a->max_dest_rd_atomic = 1;
    a->min_rnr_timer = 12;
    a->ah_attr.is_global = 1;
    a->ah_attr.port_num = 1;
    a->ah_attr.grh.sgid_index = 3;
    a->ah_attr.grh.hop_limit = 1;
    sv_test_gid(&a->ah_attr.grh.dgid, peer);
}

#define RTR_MASK (IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | \
                  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER)
#define RTS_MASK (IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | \
                  IBV_QP_MAX_QP_RD_ATOMIC)

static void test_modify(struct ibv_context *ctx, struct ibv_pd *pd, struct ibv_cq *cq)
{
    struct ibv_qp *qp = sv_test_make_qp(pd, cq, IBV_QPT_RC, 8);
    struct ibv_qp_attr a, q;
    struct ibv_qp_init_attr qi;

    memset(&a, 0, sizeof a);
    a.qp_state = IBV_QPS_INIT;
    a.port_num = 1;
    a.pkey_index = 1;   /* past the one-entry P_Key table */
    CHECK_EQ(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS), EINVAL);
    CHECK_EQ(sv_test_qp_state(qp), IBV_QPS_RESET);
    a.pkey_index = 0;
    a.port_num = 2;
    CHECK_EQ(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS), EINVAL);
    a.port_num = 1;
    a.qp_access_flags = 1u << 12;   /* not an access flag */
    CHECK_EQ(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS), EINVAL);
    a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE;
    CHECK_EQ(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT), EINVAL);   /* required missing */
    CHECK_EQ(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS), 0);
    CHECK_EQ(sv_test_qp_state(qp), IBV_QPS_INIT);
    CHECK_EQ(qp->state, IBV_QPS_INIT);   /* the cached state, as libibverbs keeps it */

    /* posting: receives from INIT on, sends only from RTS */
    char buf[64];
    struct ibv_mr *mr = ibv_reg_mr(pd, buf, sizeof buf, IBV_ACCESS_LOCAL_WRITE);
    struct ibv_sge sge = {.addr = (uintptr_t)buf, .length = 8, .lkey = mr->lkey};
    struct ibv_send_wr swr = {.wr_id = 7, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND}, *bad_s = NULL;
    CHECK_EQ(ibv_post_send(qp, &swr, &bad_s), EINVAL);
    CHECK(bad_s == &swr);
    struct ibv_recv_wr rwr = {.wr_id = 1, .sg_list = &sge, .num_sge = 1}, *bad_r = NULL;
    CHECK_EQ(ibv_post_recv(qp, &rwr, &bad_r), 0);
    struct ibv_sge two[2] = {sge, sge};
    struct ibv_recv_wr rwr2 = {.wr_id = 2, .sg_list = two, .num_sge = 2};
    CHECK_EQ(ibv_post_recv(qp, &rwr2, &bad_r), EINVAL);   /* max_recv_sge is 1 */
    CHECK(bad_r == &rwr2);

    /* INIT->RTR: attribute checks, each leaving the QP exactly as it was */
    fill_rtr(&a, ip2);
    a.ah_attr.is_global = 0;   /* RoCE needs a GRH */
    CHECK_EQ(ibv_modify_qp(qp, &a, RTR_MASK), EINVAL);
    fill_rtr(&a, ip2);
    a.ah_attr.grh.sgid_index = 4;   /* empty GID slot */
    CHECK_EQ(ibv_modify_qp(qp, &a, RTR_MASK), ENODATA);
    a.ah_attr.grh.sgid_index = 255;
    CHECK_EQ(ibv_modify_qp(qp, &a, RTR_MASK), ENODATA);
    fill_rtr(&a, ip2);
    a.path_mtu = (enum ibv_mtu)6;
    CHECK_EQ(ibv_modify_qp(qp, &a, RTR_MASK), EINVAL);
    fill_rtr(&a, ip2);
    a.max_dest_rd_atomic = 200;
    CHECK_EQ(ibv_modify_qp(qp, &a, RTR_MASK), EINVAL);
    fill_rtr(&a, ip2);
    CHECK_EQ(ibv_modify_qp(qp, &a, RTR_MASK | IBV_QP_TIMEOUT), EINVAL);   /* not an INIT->RTR attribute */
    CHECK_EQ(ibv_query_qp(qp, &q, 0, &qi), 0);
    CHECK_EQ(q.qp_state, IBV_QPS_INIT);
    CHECK_EQ(q.dest_qp_num, 0);   /* all or nothing: no attribute of the failed modifies stuck */
    CHECK_EQ(q.rq_psn, 0);
    CHECK_EQ(q.path_mtu, IBV_MTU_256);
    CHECK_EQ(q.qp_access_flags, IBV_ACCESS_REMOTE_WRITE);

    fill_rtr(&a, ip2);
    a.rq_psn = 0x1abcdef;   /* masked to 24 bits */
    CHECK_EQ(ibv_modify_qp(qp, &a, RTR_MASK), 0);
    CHECK_EQ(ibv_query_qp(qp, &q, 0, &qi), 0);
    CHECK_EQ(q.qp_state, IBV_QPS_RTR);
    CHECK_EQ(q.dest_qp_num, 0x123);
    CHECK_EQ(q.rq_psn, 0xabcdef);
    CHECK_EQ(q.path_mtu, IBV_MTU_1024);
    CHECK_EQ(q.min_rnr_timer, 12);
    CHECK_EQ(ibv_modify_qp(qp, &a, 0), EINVAL);   /* no RTR->RTR row */

    memset(&a, 0, sizeof a);
    a.qp_state = IBV_QPS_RTS;
    a.timeout = 32;
    a.retry_cnt = 7;
    a.rnr_retry = 7;
    a.sq_psn = 0x100;
    a.max_rd_atomic = 3;
    CHECK_EQ(ibv_modify_qp(qp, &a, RTS_MASK), EINVAL);
    a.timeout = 14;
    a.max_rd_atomic = 129;
    CHECK_EQ(ibv_modify_qp(qp, &a, RTS_MASK), EINVAL);
    a.max_rd_atomic = 3;
    a.cur_qp_state = IBV_QPS_RTS;   /* wrong idea of the current state */
    CHECK_EQ(ibv_modify_qp(qp, &a, RTS_MASK | IBV_QP_CUR_STATE), EINVAL);
    CHECK_EQ(ibv_modify_qp(qp, &a, RTS_MASK | IBV_QP_RATE_LIMIT), EOPNOTSUPP);
    CHECK_EQ(sv_test_qp_state(qp), IBV_QPS_RTR);
    CHECK_EQ(ibv_modify_qp(qp, &a, RTS_MASK), 0);
    CHECK_EQ(ibv_query_qp(qp, &q, 0, &qi), 0);
    CHECK_EQ(q.qp_state, IBV_QPS_RTS);
    CHECK_EQ(q.sq_psn, 0x100);
    CHECK_EQ(q.max_rd_atomic, 4);   /* rounded up to a power of two */
    CHECK_EQ(q.timeout, 14);
    CHECK_EQ(ibv_modify_qp(qp, &a, 0), 0);   /* RTS->RTS with nothing is fine */

    /* SQD and back; nothing in flight so the drained event comes at once */
    memset(&a, 0, sizeof a);
    a.qp_state = IBV_QPS_SQD;
    a.en_sqd_async_notify = 1;
    CHECK_EQ(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_EN_SQD_ASYNC_NOTIFY), 0);
    struct ibv_async_event ev;
    CHECK_EQ(sv_test_wait_async(ctx, &ev, SV_TEST_WAIT_MS), 0);
    CHECK_EQ(ev.event_type, IBV_EVENT_SQ_DRAINED);
    CHECK(ev.element.qp == qp);
    ibv_ack_async_event(&ev);
    a.qp_state = IBV_QPS_RTS;
    CHECK_EQ(ibv_modify_qp(qp, &a, IBV_QP_STATE), 0);

    /* ERR flushes: the receive posted in INIT comes back as WR_FLUSH_ERR */
    a.qp_state = IBV_QPS_ERR;
    CHECK_EQ(ibv_modify_qp(qp, &a, IBV_QP_STATE), 0);
    struct ibv_wc wc;
    CHECK_EQ(ibv_poll_cq(cq, 1, &wc), 1);
    CHECK_EQ(wc.wr_id, 1);
    CHECK_EQ(wc.status, IBV_WC_WR_FLUSH_ERR);
    CHECK_EQ(wc.qp_num, qp->qp_num);
    CHECK_EQ(wc.vendor_err, 0);   /* rxe reports none; see the vendor-err personality */
    /* WRs posted in ERR are flushed too, even unsignaled ones */
    CHECK_EQ(ibv_post_send(qp, &swr, &bad_s), 0);
    CHECK_EQ(ibv_poll_cq(cq, 1, &wc), 1);
    CHECK_EQ(wc.wr_id, 7);
    CHECK_EQ(wc.status, IBV_WC_WR_FLUSH_ERR);
    CHECK_EQ(ibv_post_recv(qp, &rwr, &bad_r), 0);
    CHECK_EQ(ibv_poll_cq(cq, 1, &wc), 1);
    CHECK_EQ(wc.status, IBV_WC_WR_FLUSH_ERR);
    CHECK_EQ(ibv_poll_cq(cq, 1, &wc), 0);
    a.qp_state = IBV_QPS_RESET;
    CHECK_EQ(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PORT), EINVAL);   /* ->RESET takes nothing else */
    CHECK_EQ(ibv_modify_qp(qp, &a, IBV_QP_STATE), 0);
    CHECK_EQ(ibv_post_recv(qp, &rwr, &bad_r), EINVAL);   /* not in RESET */
    CHECK_EQ(ibv_destroy_qp(qp), 0);
    CHECK_EQ(ibv_dereg_mr(mr), 0);

    /* UD: privileged Q_Key */
    qp = sv_test_make_qp(pd, cq, IBV_QPT_UD, 4);
    memset(&a, 0, sizeof a);
    a.qp_state = IBV_QPS_INIT;
    a.port_num = 1;
    a.qkey = 0x80010000;
    CHECK_EQ(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY), EPERM);
    a.qkey = 0x11111111;
    CHECK_EQ(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY), 0);
    CHECK_EQ(ibv_destroy_qp(qp), 0);
}

static void test_post_limits(struct ibv_pd *pd, struct ibv_cq *cq)
{
    struct ibv_qp *qp = sv_test_make_qp(pd, cq, IBV_QPT_RC, 1);
    struct sv_test_conn c = sv_test_conn_defaults();
    c.remote_ip = ip2;
    c.remote_qpn = 0x999;   /* nobody: the sends just sit unacknowledged */
    c.timeout = 0;          /* no retransmit timer */
    CHECK_EQ(sv_test_connect(qp, &c), 0);
    char buf[600];
    struct ibv_mr *mr = ibv_reg_mr(pd, buf, sizeof buf, IBV_ACCESS_LOCAL_WRITE);
    struct ibv_sge sge = {.addr = (uintptr_t)buf, .length = 8, .lkey = mr->lkey};
    struct ibv_sge two[2] = {sge, sge};
    struct ibv_send_wr w = {.sg_list = two, .num_sge = 2, .opcode = IBV_WR_SEND}, *bad = NULL;
    CHECK_EQ(ibv_post_send(qp, &w, &bad), EINVAL);   /* max_send_sge 1 */
    CHECK(bad == &w);
    w.num_sge = 1;
    w.sg_list = &sge;
    w.send_flags = IBV_SEND_INLINE;
    sge.length = 17;   /* max_inline_data is 16 */
    CHECK_EQ(ibv_post_send(qp, &w, &bad), EINVAL);
    sge.length = 8;
    w.send_flags = 0;
    w.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
    w.wr.atomic.remote_addr = 4;   /* not 8-aligned */
    CHECK_EQ(ibv_post_send(qp, &w, &bad), EINVAL);
    w.opcode = IBV_WR_BIND_MW;
    CHECK_EQ(ibv_post_send(qp, &w, &bad), EINVAL);
    w.opcode = IBV_WR_SEND;
    struct ibv_send_wr list[8];
    for (int i = 0; i < 8; i++) {
        list[i] = w;
        list[i].wr_id = (uint64_t)i;
        list[i].next = i < 7 ? &list[i + 1] : NULL;
    }
    CHECK_EQ(ibv_post_send(qp, list, &bad), ENOMEM);   /* max_send_wr 4 was rounded to 7 */
    CHECK(bad == &list[7]);
    CHECK_EQ(ibv_destroy_qp(qp), 0);
    CHECK_EQ(ibv_dereg_mr(mr), 0);
}

static void test_personalities(void)
{
    char spec[160];
    snprintf(spec, sizeof spec, "p@%s:fw=2.7.1:vendor_id=0x02c9:vendor_part=4123:quirk=caps-pow2"
             ":quirk=accept-reset-to-rts:quirk=vendor-err=0x81:mtu=9000", ip3);
    struct ibv_context *ctx = sv_test_open(spec, "p");
    CHECK(ctx != NULL);
    if (!ctx)
        return;
    struct ibv_device_attr da;
    ibv_query_device(ctx, &da);
    CHECK(!strcmp(da.fw_ver, "2.7.1"));
    CHECK_EQ(da.vendor_id, 0x02c9);
    CHECK_EQ(da.vendor_part_id, 4123);
    struct ibv_port_attr pa;
    ibv_query_port(ctx, 1, &pa);
    CHECK_EQ(pa.active_mtu, IBV_MTU_4096);
    struct ibv_cq *cq = ibv_create_cq(ctx, 501, NULL, NULL, 0);
    CHECK_EQ(cq->cqe, 512);   /* caps-pow2 */
    struct ibv_pd *pd = ibv_alloc_pd(ctx);
    struct ibv_qp_init_attr init = {.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
                                    .cap = {.max_send_wr = 1, .max_recv_wr = 500, .max_send_sge = 1, .max_recv_sge = 3}};
    struct ibv_qp *qp = ibv_create_qp(pd, &init);
    CHECK_EQ(init.cap.max_recv_wr, 512);
    CHECK_EQ(init.cap.max_recv_sge, 4);
    /* accept-reset-to-rts: one modify with everything INIT, RTR and RTS need */
    struct ibv_qp_attr a;
    fill_rtr(&a, ip2);
    a.qp_state = IBV_QPS_RTS;
    a.port_num = 1;
    a.timeout = 14;
    a.retry_cnt = 7;
    a.rnr_retry = 7;
    a.max_rd_atomic = 1;
    CHECK_EQ(ibv_modify_qp(qp, &a, RTR_MASK | RTS_MASK | IBV_QP_PORT | IBV_QP_PKEY_INDEX | IBV_QP_ACCESS_FLAGS), 0);
    CHECK_EQ(sv_test_qp_state(qp), IBV_QPS_RTS);
    /* vendor-err: error completions carry the personality's vendor_err */
    static char mem[64];
    struct ibv_mr *mr = ibv_reg_mr(pd, mem, sizeof mem, IBV_ACCESS_LOCAL_WRITE);
    struct ibv_sge sge = {.addr = (uintptr_t)mem, .length = 8, .lkey = mr->lkey};
    struct ibv_recv_wr rwr = {.wr_id = 5, .sg_list = &sge, .num_sge = 1}, *bad;
    CHECK_EQ(ibv_post_recv(qp, &rwr, &bad), 0);
    a.qp_state = IBV_QPS_ERR;
    CHECK_EQ(ibv_modify_qp(qp, &a, IBV_QP_STATE), 0);
    struct ibv_wc wc;
    CHECK_EQ(ibv_poll_cq(cq, 1, &wc), 1);
    CHECK_EQ(wc.status, IBV_WC_WR_FLUSH_ERR);
    CHECK_EQ(wc.vendor_err, 0x81);
    ibv_destroy_qp(qp);
    ibv_dereg_mr(mr);
    ibv_destroy_cq(cq);
    ibv_dealloc_pd(pd);
    ibv_close_device(ctx);
}

int main(void)
{
    sv_test_ip(ip1, sizeof ip1, 1);
    sv_test_ip(ip2, sizeof ip2, 2);
    sv_test_ip(ip3, sizeof ip3, 3);
    char spec[128];
    snprintf(spec, sizeof spec, "mod@%s", ip1);
    struct ibv_context *ctx = sv_test_open(spec, "mod");
    CHECK(ctx != NULL);
    if (!ctx)
        return sv_check_report("test_sv_modify");
    struct ibv_pd *pd = ibv_alloc_pd(ctx);
    struct ibv_cq *cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
    test_modify(ctx, pd, cq);
    test_post_limits(pd, cq);
    CHECK_EQ(ibv_destroy_cq(cq), 0);
    CHECK_EQ(ibv_dealloc_pd(pd), 0);
    CHECK_EQ(ibv_close_device(ctx), 0);
    test_personalities();
    softverbs_configure(NULL);
    return sv_check_report("test_sv_modify");
}
