/* The extended verbs between two devices in one process: ibv_qp_ex (every builder and setter,
 * batches, wr_abort, the errors wr_complete returns), ibv_cq_ex (start/next/end_poll, every
 * read_* softverbs offers, the legacy poll on the same CQ) and the flags and masks they refuse
 * with EOPNOTSUPP. Every wait is bounded. */
#include "sv_check.h"
#include "sv_testpair_ex.h"

#define SV_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static void test_create_errors(void)
{
    struct ibv_pd *pd = ibv_alloc_pd(ctx_a);
    struct ibv_cq_init_attr_ex ca = {.cqe = 4, .wc_flags = ALL_WC_FLAGS};
    struct ibv_cq_ex *cqx = ibv_create_cq_ex(ctx_a, &ca);
    CHECK(cqx != NULL);
    CHECK_EQ(ibv_cq_ex_to_cq(cqx)->cqe, 7);   /* sized like ibv_create_cq: 2^k - 1 */
    /* no clock is advertised, so completion timestamps are refused (rc_pingpong -t checks the same) */
    struct ibv_device_attr_ex dx;
    CHECK_EQ(ibv_query_device_ex(ctx_a, NULL, &dx), 0);
    CHECK_EQ(dx.completion_timestamp_mask, 0);
    uint64_t refused_wc[] = {IBV_WC_EX_WITH_COMPLETION_TIMESTAMP, IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK,
                             IBV_WC_EX_WITH_CVLAN, IBV_WC_EX_WITH_FLOW_TAG, IBV_WC_EX_WITH_TM_INFO};
    for (size_t i = 0; i < SV_ARRAY_LEN(refused_wc); i++) {
        struct ibv_cq_init_attr_ex bad = {.cqe = 4, .wc_flags = IBV_WC_EX_WITH_BYTE_LEN | refused_wc[i]};
        errno = 0;
        CHECK(ibv_create_cq_ex(ctx_a, &bad) == NULL);
        CHECK_EQ(errno, EOPNOTSUPP);
    }
    struct ibv_cq_init_attr_ex bad = {.cqe = 4, .comp_mask = IBV_CQ_INIT_ATTR_MASK_FLAGS,
                                      .flags = IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN};
    errno = 0;
    CHECK(ibv_create_cq_ex(ctx_a, &bad) == NULL);
    CHECK_EQ(errno, EOPNOTSUPP);
    bad.flags = IBV_CREATE_CQ_ATTR_SINGLE_THREADED;   /* a hint: accepted */
    struct ibv_cq_ex *st = ibv_create_cq_ex(ctx_a, &bad);
    CHECK(st != NULL);
    if (st)
        ibv_destroy_cq(ibv_cq_ex_to_cq(st));
    bad.cqe = 40000;
    errno = 0;
    CHECK(ibv_create_cq_ex(ctx_a, &bad) == NULL);
    CHECK_EQ(errno, EINVAL);
    /* an empty CQ: start_poll says ENOENT and holds nothing */
    struct ibv_poll_cq_attr pa = {0};
    CHECK_EQ(ibv_start_poll(cqx, &pa), ENOENT);

    /* send_ops_flags the transport lacks (rxe's table; TSO, FLUSH, ATOMIC_WRITE nowhere) */
    struct {
        enum ibv_qp_type type;
        uint64_t ops;
        int err;
    } cases[] = {
        {IBV_QPT_RC, RC_SEND_OPS, 0},
        {IBV_QPT_RC, IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_TSO, EOPNOTSUPP},
        {IBV_QPT_RC, IBV_QP_EX_WITH_ATOMIC_WRITE, EOPNOTSUPP},
        {IBV_QPT_RC, 1u << 11, EOPNOTSUPP},   /* IBV_QP_EX_WITH_FLUSH in newer headers */
        {IBV_QPT_UC, IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM | IBV_QP_EX_WITH_BIND_MW, 0},
        {IBV_QPT_UC, IBV_QP_EX_WITH_RDMA_READ, EOPNOTSUPP},
        {IBV_QPT_UC, IBV_QP_EX_WITH_LOCAL_INV, EOPNOTSUPP},
        {IBV_QPT_UD, IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM, 0},
        {IBV_QPT_UD, IBV_QP_EX_WITH_RDMA_WRITE, EOPNOTSUPP},
    };
    for (size_t i = 0; i < SV_ARRAY_LEN(cases); i++) {
        struct ibv_qp_init_attr_ex ex = {.send_cq = ibv_cq_ex_to_cq(cqx), .recv_cq = ibv_cq_ex_to_cq(cqx),
                                         .qp_type = cases[i].type, .pd = pd, .send_ops_flags = cases[i].ops,
                                         .comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
                                         .cap = {.max_send_wr = 2, .max_recv_wr = 2, .max_send_sge = 1, .max_recv_sge = 1}};
        errno = 0;
        struct ibv_qp *qp = ibv_create_qp_ex(ctx_a, &ex);
        CHECK_EQ(qp == NULL, cases[i].err != 0);
        CHECK_EQ(errno, cases[i].err);
        if (!qp)
            continue;
        struct ibv_qp_ex *qpx = ibv_qp_to_qp_ex(qp);
        CHECK(qpx != NULL && &qpx->qp_base == qp);
        /* builders exist for the ops asked for, setters always */
        CHECK_EQ(qpx->wr_send != NULL, (cases[i].ops & IBV_QP_EX_WITH_SEND) != 0);
        CHECK_EQ(qpx->wr_rdma_read != NULL, (cases[i].ops & IBV_QP_EX_WITH_RDMA_READ) != 0);
        CHECK(qpx->wr_set_sge && qpx->wr_set_ud_addr && qpx->wr_start && qpx->wr_complete && qpx->wr_abort);
        CHECK(qpx->wr_send_tso == NULL);
        ibv_destroy_qp(qp);
    }
    /* a QP from ibv_create_qp has no ibv_qp_ex (libibverbs: NULL) */
    struct ibv_qp *plain = sv_test_make_qp(pd, ibv_cq_ex_to_cq(cqx), IBV_QPT_RC, 1);
    CHECK(plain && ibv_qp_to_qp_ex(plain) == NULL);
    ibv_destroy_qp(plain);
    ibv_destroy_cq(ibv_cq_ex_to_cq(cqx));
    ibv_dealloc_pd(pd);
}

/* One batch with every RC builder; each message lands and completes with the right values. */
static void test_rc_builders(void)
{
    struct xside a, b;
    CHECK_EQ(xpair_up(&a, &b, IBV_QPT_RC, RC_SEND_OPS, 0, ALL_ACCESS), 0);
    if (!a.qpx)
        return;
    struct ibv_qp_ex *q = a.qpx;
    uint64_t rb = (uintptr_t)b.s.buf;
    fill(a.s.buf, 4096, 1);
    fill(b.s.buf + 8192, 3000, 2);
    uint64_t *word = (uint64_t *)(void *)(b.s.buf + 16384);
    *word = 100;
    CHECK_EQ(post_recv(&b.s, 50, 20000, 2000), 0);
    CHECK_EQ(post_recv(&b.s, 51, 22000, 2000), 0);
    CHECK_EQ(post_recv(&b.s, 52, 24000, 2000), 0);

    ibv_wr_start(q);
    q->wr_id = 1;
    q->wr_flags = IBV_SEND_SIGNALED;
    ibv_wr_send(q);
    ibv_wr_set_sge(q, a.s.mr->lkey, (uintptr_t)a.s.buf, 1500);              /* 2 packets */
    q->wr_id = 2;
    ibv_wr_send_imm(q, htonl(0xABCD));
    char text[] = "inline through the wr API";
    ibv_wr_set_inline_data(q, text, sizeof text);
    q->wr_id = 3;
    ibv_wr_rdma_write(q, b.s.mr->rkey, rb + 4000);
    struct ibv_sge two[2] = {{(uintptr_t)a.s.buf, 100, a.s.mr->lkey}, {(uintptr_t)a.s.buf + 1000, 200, a.s.mr->lkey}};
    ibv_wr_set_sge_list(q, 2, two);
    q->wr_id = 4;
    ibv_wr_rdma_write_imm(q, b.s.mr->rkey, rb + 6000, htonl(77));
    struct ibv_data_buf bufs[2] = {{text, 6}, {text + 10, 4}};
    ibv_wr_set_inline_data_list(q, 2, bufs);
    q->wr_id = 5;
    ibv_wr_rdma_read(q, b.s.mr->rkey, rb + 8192);
    ibv_wr_set_sge(q, a.s.mr->lkey, (uintptr_t)a.s.buf + 30000, 3000);
    q->wr_id = 6;
    ibv_wr_atomic_fetch_add(q, b.s.mr->rkey, rb + 16384, 5);
    ibv_wr_set_sge(q, a.s.mr->lkey, (uintptr_t)a.s.buf + 40000, 8);
    q->wr_id = 7;
    ibv_wr_atomic_cmp_swp(q, b.s.mr->rkey, rb + 16384, 105, 9);
    ibv_wr_set_sge(q, a.s.mr->lkey, (uintptr_t)a.s.buf + 40008, 8);
    q->wr_id = 8;
    q->wr_flags = 0;   /* unsignaled: completes silently */
    ibv_wr_send(q);
    ibv_wr_set_sge(q, a.s.mr->lkey, (uintptr_t)a.s.buf, 0);                 /* zero-length */
    CHECK_EQ(ibv_wr_complete(q), 0);

    struct {
        uint64_t wr_id;
        enum ibv_wc_opcode op;
        uint32_t len;
    } want[] = {{1, IBV_WC_SEND, 1500}, {2, IBV_WC_SEND, sizeof text}, {3, IBV_WC_RDMA_WRITE, 300},
                {4, IBV_WC_RDMA_WRITE, 10}, {5, IBV_WC_RDMA_READ, 3000}, {6, IBV_WC_FETCH_ADD, 8},
                {7, IBV_WC_COMP_SWAP, 8}};
    struct ibv_wc wc;
    for (size_t i = 0; i < SV_ARRAY_LEN(want); i++) {
        CHECK(xwait(&a, &wc));
        CHECK_EQ(wc.status, IBV_WC_SUCCESS);
        CHECK_EQ(wc.wr_id, want[i].wr_id);
        CHECK_EQ(wc.opcode, want[i].op);
        CHECK_EQ(wc.byte_len, want[i].len);
        CHECK_EQ(wc.qp_num, a.s.qp->qp_num);
        CHECK_EQ(wc.vendor_err, 0);
        CHECK_EQ(wc.wc_flags, 0);
    }
    /* the receiver: SEND, SEND with immediate (inline), WRITE with immediate, zero-length SEND */
    CHECK(xwait(&b, &wc));
    CHECK_EQ(wc.wr_id, 50);
    CHECK_EQ(wc.opcode, IBV_WC_RECV);
    CHECK_EQ(wc.byte_len, 1500);
    CHECK(!memcmp(b.s.buf + 20000, a.s.buf, 1500));
    CHECK(xwait(&b, &wc));
    CHECK_EQ(wc.wr_id, 51);
    CHECK_EQ(wc.wc_flags, IBV_WC_WITH_IMM);
    CHECK_EQ(ntohl(wc.imm_data), 0xABCD);
    CHECK_EQ(wc.byte_len, sizeof text);
    CHECK(!memcmp(b.s.buf + 22000, text, sizeof text));
    CHECK_EQ(wc.qp_num, b.s.qp->qp_num);
    CHECK_EQ(wc.src_qp, 0);   /* RC: only UD fills it */
    CHECK_EQ(wc.slid, 0);     /* RoCE: no LIDs */
    CHECK_EQ(wc.sl, 0);
    CHECK_EQ(wc.dlid_path_bits, 0);
    CHECK(xwait(&b, &wc));
    CHECK_EQ(wc.wr_id, 52);
    CHECK_EQ(wc.opcode, IBV_WC_RECV_RDMA_WITH_IMM);
    CHECK_EQ(ntohl(wc.imm_data), 77);
    CHECK_EQ(wc.byte_len, 10);
    CHECK(!memcmp(b.s.buf + 6000, "inline", 6) && !memcmp(b.s.buf + 6006, text + 10, 4));
    CHECK(!memcmp(b.s.buf + 4000, a.s.buf, 100) && !memcmp(b.s.buf + 4100, a.s.buf + 1000, 200));
    CHECK(!memcmp(a.s.buf + 30000, b.s.buf + 8192, 3000));
    uint64_t orig[2];
    memcpy(orig, a.s.buf + 40000, 16);
    CHECK_EQ(orig[0], 100);   /* fetch-add saw 100 and left 105 */
    CHECK_EQ(orig[1], 105);   /* compare-swap matched 105 and left 9 */
    CHECK_EQ(*word, 9);

    /* the zero-length unsignaled SEND took a receive; the legacy poll reads the same CQ */
    CHECK_EQ(post_recv(&b.s, 53, 0, 16), 0);
    CHECK(sv_test_wait_wc(b.s.cq, &wc, SV_TEST_WAIT_MS));
    CHECK_EQ(wc.wr_id, 53);
    CHECK_EQ(wc.byte_len, 0);
    CHECK_EQ(ibv_poll_cq(a.s.cq, 1, &wc), 0);   /* nothing for wr_id 8 */

    /* next_poll walks several completions inside one start/end */
    for (int i = 0; i < 3; i++)
        CHECK_EQ(post_send(&a.s, 60 + i, IBV_WR_RDMA_WRITE, 0, 8, rb, b.s.mr->rkey, 0), 0);
    int seen = 0;
    for (uint64_t until = sv_test_ms() + SV_TEST_WAIT_MS; seen < 3 && sv_test_ms() < until; usleep(1000)) {
        struct ibv_poll_cq_attr pa = {0};
        if (ibv_start_poll(a.cqx, &pa) != 0)
            continue;
        do {
            CHECK_EQ(a.cqx->wr_id, 60 + seen);
            CHECK_EQ(a.cqx->status, IBV_WC_SUCCESS);
            CHECK_EQ(ibv_wc_read_opcode(a.cqx), IBV_WC_RDMA_WRITE);
            seen++;
        } while (ibv_next_poll(a.cqx) == 0);
        ibv_end_poll(a.cqx);
    }
    CHECK_EQ(seen, 3);
    CHECK_EQ(ibv_poll_cq(a.s.cq, 1, &wc), 0);
    xside_fini(&a);
    xside_fini(&b);
}

/* wr_complete's errors: nothing of a failed or aborted batch is queued. */
static void test_batch_errors(void)
{
    struct xside a, b;
    CHECK_EQ(xpair_up(&a, &b, IBV_QPT_RC, RC_SEND_OPS, 0, ALL_ACCESS), 0);
    if (!a.qpx)
        return;
    struct ibv_qp_ex *q = a.qpx;
    struct ibv_qp_attr qa;
    struct ibv_qp_init_attr qi;
    ibv_query_qp(a.s.qp, &qa, IBV_QP_CAP, &qi);
    uint64_t rb = (uintptr_t)b.s.buf;
    struct ibv_sge many[8];
    for (int i = 0; i < 8; i++)
        many[i] = (struct ibv_sge){(uintptr_t)a.s.buf + 64 * i, 8, a.s.mr->lkey};
    char big[1024] = {0};
    ibv_wr_start(q);
    q->wr_flags = IBV_SEND_SIGNALED;
    ibv_wr_rdma_write(q, b.s.mr->rkey, rb);
    ibv_wr_set_sge_list(q, qa.cap.max_send_sge + 1, many);   /* more SGEs than the QP has */
    CHECK_EQ(ibv_wr_complete(q), ENOSPC);
    ibv_wr_start(q);
    ibv_wr_send(q);
    ibv_wr_set_inline_data(q, big, qa.cap.max_inline_data + 1);
    CHECK_EQ(ibv_wr_complete(q), ENOSPC);
    ibv_wr_start(q);   /* one more WQE than the send queue holds */
    for (uint32_t i = 0; i <= qa.cap.max_send_wr; i++) {
        ibv_wr_rdma_write(q, b.s.mr->rkey, rb);
        ibv_wr_set_sge(q, a.s.mr->lkey, (uintptr_t)a.s.buf, 8);
    }
    CHECK_EQ(ibv_wr_complete(q), ENOSPC);
    ibv_wr_start(q);
    q->wr_id = 99;
    ibv_wr_rdma_write(q, b.s.mr->rkey, rb);
    ibv_wr_set_sge(q, a.s.mr->lkey, (uintptr_t)a.s.buf, 8);
    ibv_wr_abort(q);
    struct ibv_wc wc;
    usleep(20000);
    CHECK_EQ(ibv_poll_cq(a.s.cq, 1, &wc), 0);   /* none of them was sent */
    CHECK_EQ(sv_test_counter(ctx_a, "sent_pkts"), 0);

    /* a full batch of max_send_wr goes through */
    ibv_wr_start(q);
    for (uint32_t i = 0; i < qa.cap.max_send_wr; i++) {
        q->wr_id = i;
        ibv_wr_rdma_write(q, b.s.mr->rkey, rb + 8 * i);
        ibv_wr_set_sge(q, a.s.mr->lkey, (uintptr_t)a.s.buf, 8);
    }
    CHECK_EQ(ibv_wr_complete(q), 0);
    for (uint32_t i = 0; i < qa.cap.max_send_wr; i++) {
        CHECK(xwait(&a, &wc));
        CHECK_EQ(wc.wr_id, i);
        CHECK_EQ(wc.status, IBV_WC_SUCCESS);
    }
    /* the legacy post works on the same QP between batches */
    CHECK_EQ(post_send(&a.s, 500, IBV_WR_RDMA_WRITE, 0, 8, rb, b.s.mr->rkey, 0), 0);
    CHECK(sv_test_wait_wc(a.s.cq, &wc, SV_TEST_WAIT_MS));
    CHECK_EQ(wc.wr_id, 500);

    /* a misaligned atomic: ibv_post_send refuses it (EINVAL); through the wr API it reaches the
     * responder, which NAKs an invalid request (rxe) */
    struct ibv_sge s8 = {(uintptr_t)a.s.buf, 8, a.s.mr->lkey}, s4 = {(uintptr_t)a.s.buf, 4, a.s.mr->lkey};
    struct ibv_send_wr w = {.wr_id = 600, .sg_list = &s8, .num_sge = 1, .opcode = IBV_WR_ATOMIC_FETCH_AND_ADD}, *bad;
    w.wr.atomic.remote_addr = rb + 4;
    w.wr.atomic.rkey = b.s.mr->rkey;
    CHECK_EQ(ibv_post_send(a.s.qp, &w, &bad), EINVAL);
    CHECK(bad == &w);
    w.wr.atomic.remote_addr = rb + 8;
    w.sg_list = &s4;   /* shorter than the 8 bytes of the result */
    CHECK_EQ(ibv_post_send(a.s.qp, &w, &bad), EINVAL);
    ibv_wr_start(q);
    q->wr_id = 601;
    ibv_wr_atomic_cmp_swp(q, b.s.mr->rkey, rb + 4, 0, 1);
    ibv_wr_set_sge(q, a.s.mr->lkey, (uintptr_t)a.s.buf, 8);
    CHECK_EQ(ibv_wr_complete(q), 0);
    CHECK(xwait(&a, &wc));
    CHECK_EQ(wc.wr_id, 601);
    CHECK_EQ(wc.status, IBV_WC_REM_INV_REQ_ERR);
    CHECK_EQ(sv_test_qp_state(b.s.qp), IBV_QPS_ERR);

    /* below RTS a batch is refused (EINVAL) and nothing is queued */
    struct ibv_qp_attr rst = {.qp_state = IBV_QPS_RESET};
    CHECK_EQ(ibv_modify_qp(a.s.qp, &rst, IBV_QP_STATE), 0);
    ibv_wr_start(q);
    ibv_wr_send(q);
    CHECK_EQ(ibv_wr_complete(q), EINVAL);
    xside_fini(&a);
    xside_fini(&b);
}

static void test_ud_builders(void)
{
    struct xside a, b;
    xside_init(&a, ctx_a, ip_a, IBV_QPT_UD, IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM, IBV_ACCESS_LOCAL_WRITE);
    xside_init(&b, ctx_b, ip_b, IBV_QPT_UD, 0, IBV_ACCESS_LOCAL_WRITE);
    struct side *s[2] = {&a.s, &b.s};
    for (int i = 0; i < 2; i++) {
        struct ibv_qp_attr at = {.qp_state = IBV_QPS_INIT, .port_num = 1, .qkey = 0x1234};
        CHECK_EQ(ibv_modify_qp(s[i]->qp, &at, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY), 0);
        at.qp_state = IBV_QPS_RTR;
        CHECK_EQ(ibv_modify_qp(s[i]->qp, &at, IBV_QP_STATE), 0);
        at.qp_state = IBV_QPS_RTS;
        CHECK_EQ(ibv_modify_qp(s[i]->qp, &at, IBV_QP_STATE | IBV_QP_SQ_PSN), 0);
    }
    struct ibv_ah_attr aa = {.is_global = 1, .port_num = 1, .grh = {.sgid_index = 3, .hop_limit = 64}};
    sv_test_gid(&aa.grh.dgid, ip_b);
    struct ibv_ah *ah = ibv_create_ah(a.s.pd, &aa);
    CHECK(ah != NULL && a.qpx != NULL);
    if (!ah || !a.qpx)
        return;
    CHECK_EQ(post_recv(&b.s, 7, 0, 40 + 64), 0);
    ibv_wr_start(a.qpx);
    a.qpx->wr_id = 8;
    a.qpx->wr_flags = IBV_SEND_SIGNALED;
    ibv_wr_send_imm(a.qpx, htonl(5));
    ibv_wr_set_ud_addr(a.qpx, ah, b.s.qp->qp_num, 0x1234);
    ibv_wr_set_inline_data(a.qpx, "ud inline", 10);
    CHECK_EQ(ibv_wr_complete(a.qpx), 0);
    struct ibv_wc wc;
    CHECK(xwait(&a, &wc));
    CHECK_EQ(wc.wr_id, 8);
    CHECK_EQ(wc.status, IBV_WC_SUCCESS);
    CHECK(xwait(&b, &wc));
    CHECK_EQ(wc.status, IBV_WC_SUCCESS);
    CHECK_EQ(wc.byte_len, 40 + 10);
    CHECK_EQ(wc.src_qp, a.s.qp->qp_num);
    CHECK_EQ(wc.wc_flags, IBV_WC_GRH | IBV_WC_WITH_IMM);
    CHECK_EQ(ntohl(wc.imm_data), 5);
    CHECK(!memcmp(b.s.buf + 40, "ud inline", 10));
    ibv_destroy_ah(ah);
    xside_fini(&a);
    xside_fini(&b);
}

int main(void)
{
    CHECK_EQ(pair_open(), 0);
    if (!ctx_a || !ctx_b)
        return sv_check_report("test_sv_qp_ex");
    test_create_errors();
    test_batch_errors();
    test_rc_builders();
    test_ud_builders();
    pair_close();
    return sv_check_report("test_sv_qp_ex");
}
