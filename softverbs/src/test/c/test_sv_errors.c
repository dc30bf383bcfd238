/* Transport errors between two devices in one process: remote access and invalid request
 * NAKs, RNR retry exhausted and recovered, PSN mismatch both ways, CQ overflow, link-MTU drop,
 * a wrong GID index. Timeouts are small (timeout 8 = 1 ms) so each case takes milliseconds. */
#include "sv_check.h"
#include "sv_testpair.h"

static void test_remote_access_error(void)
{
    struct side a, b;
    /* b's MR lacks REMOTE_WRITE (its QP allows it): the R_Key check fails */
    CHECK_EQ(pair_up(&a, &b, IBV_QPT_RC, sv_test_conn_defaults(), sv_test_conn_defaults(), 64,
                     IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ), 0);
    CHECK_EQ(post_recv(&b, 50, 0, 64), 0);
    CHECK_EQ(post_send(&a, 1, IBV_WR_RDMA_WRITE, 0, 64, (uintptr_t)b.buf, b.mr->rkey, 0), 0);
    CHECK_EQ(post_send(&a, 2, IBV_WR_SEND, 0, 64, 0, 0, 0), 0);
    struct ibv_wc wc;
    CHECK(sv_test_wait_wc(a.cq, &wc, SV_TEST_WAIT_MS));
    CHECK_EQ(wc.wr_id, 1);
    CHECK_EQ(wc.status, IBV_WC_REM_ACCESS_ERR);
    CHECK(sv_test_wait_wc(a.cq, &wc, SV_TEST_WAIT_MS));
    CHECK_EQ(wc.wr_id, 2);
    CHECK_EQ(wc.status, IBV_WC_WR_FLUSH_ERR);   /* the rest of the SQ is flushed */
    struct ibv_qp_attr q;
    struct ibv_qp_init_attr qi;
    ibv_query_qp(a.qp, &q, IBV_QP_STATE, &qi);
    CHECK_EQ(q.qp_state, IBV_QPS_ERR);
    /* the responder went to ERR too, with the access-violation event, and flushed its receive */
    struct ibv_async_event ev;
    CHECK_EQ(sv_test_wait_async(ctx_b, &ev, SV_TEST_WAIT_MS), 0);
    CHECK_EQ(ev.event_type, IBV_EVENT_QP_ACCESS_ERR);
    CHECK(ev.element.qp == b.qp);
    ibv_ack_async_event(&ev);
    CHECK(sv_test_wait_wc(b.cq, &wc, SV_TEST_WAIT_MS));
    CHECK_EQ(wc.wr_id, 50);
    CHECK_EQ(wc.status, IBV_WC_WR_FLUSH_ERR);
    /* a write to b's QP that does not permit remote writes is an Invalid Request instead */
    side_fini(&a);
    side_fini(&b);
    struct sv_test_conn cb = sv_test_conn_defaults();
    cb.access = 0;
    CHECK_EQ(pair_up(&a, &b, IBV_QPT_RC, sv_test_conn_defaults(), cb, 64, ALL_ACCESS), 0);
    CHECK_EQ(post_send(&a, 3, IBV_WR_RDMA_WRITE, 0, 64, (uintptr_t)b.buf, b.mr->rkey, 0), 0);
    CHECK(sv_test_wait_wc(a.cq, &wc, SV_TEST_WAIT_MS));
    CHECK_EQ(wc.status, IBV_WC_REM_INV_REQ_ERR);
    CHECK_EQ(sv_test_wait_async(ctx_b, &ev, SV_TEST_WAIT_MS), 0);
    CHECK_EQ(ev.event_type, IBV_EVENT_QP_REQ_ERR);
    ibv_ack_async_event(&ev);
    side_fini(&a);
    side_fini(&b);
}

static void test_rnr(void)
{
    struct side a, b;
    struct ibv_wc wc;
    for (int retries = 0; retries <= 2; retries += 2) {
        struct sv_test_conn ca = sv_test_conn_defaults();
        ca.rnr_retry = (uint8_t)retries;
        ca.timeout = 16;   /* 268 ms: a loaded machine must not turn the RNR NAKs' wait into RETRY_EXC */
        CHECK_EQ(pair_up(&a, &b, IBV_QPT_RC, ca, sv_test_conn_defaults(), 64, ALL_ACCESS), 0);
        uint64_t before = sv_test_counter(ctx_a, "rcvd_rnr_err");
        CHECK_EQ(post_send(&a, 1, IBV_WR_SEND, 0, 32, 0, 0, 0), 0);   /* b posted no receive */
        CHECK(sv_test_wait_wc(a.cq, &wc, SV_TEST_WAIT_MS));
        CHECK_EQ(wc.status, IBV_WC_RNR_RETRY_EXC_ERR);
        CHECK_EQ(sv_test_counter(ctx_a, "rcvd_rnr_err") - before, (uint64_t)retries + 1);
        side_fini(&a);
        side_fini(&b);
    }
    /* rnr_retry 7 retries forever: a receive posted later lets the SEND through; b's NAKs ask
     * for 0.64 ms pauses (min_rnr_timer 12, rc_pingpong's value) */
    struct sv_test_conn cb = sv_test_conn_defaults();
    cb.min_rnr_timer = 12;
    CHECK_EQ(pair_up(&a, &b, IBV_QPT_RC, sv_test_conn_defaults(), cb, 64, ALL_ACCESS), 0);
    CHECK_EQ(post_send(&a, 1, IBV_WR_SEND, 0, 32, 0, 0, 0), 0);
    usleep(20 * 1000);
    CHECK(ibv_poll_cq(a.cq, 1, &wc) == 0);
    CHECK_EQ(post_recv(&b, 9, 0, 64), 0);
    CHECK(sv_test_wait_wc(a.cq, &wc, SV_TEST_WAIT_MS));
    CHECK_EQ(wc.status, IBV_WC_SUCCESS);
    CHECK(sv_test_wait_wc(b.cq, &wc, SV_TEST_WAIT_MS));
    CHECK_EQ(wc.wr_id, 9);
    CHECK(sv_test_counter(ctx_b, "send_rnr_err") >= 1);
    side_fini(&a);
    side_fini(&b);
}

static void test_psn_mismatch(void)
{
    struct side a, b;
    struct ibv_wc wc;
    /* b expects a PSN below what a sends: one sequence NAK that a ignores as stale, then only
     * timeouts - retries exhausted */
    struct sv_test_conn ca = sv_test_conn_defaults(), cb = sv_test_conn_defaults();
    ca.local_psn = 0x100;
    cb.remote_psn = 0x0ff;
    ca.timeout = 8;
    ca.retry_cnt = 2;
    CHECK_EQ(pair_up(&a, &b, IBV_QPT_RC, ca, cb, 64, ALL_ACCESS), 0);
    CHECK_EQ(post_recv(&b, 1, 0, 64), 0);
    uint64_t t0 = sv_test_counter(ctx_a, "local_ack_timeout_err");
    CHECK_EQ(post_send(&a, 1, IBV_WR_SEND, 0, 32, 0, 0, 0), 0);
    CHECK(sv_test_wait_wc(a.cq, &wc, SV_TEST_WAIT_MS));
    CHECK_EQ(wc.status, IBV_WC_RETRY_EXC_ERR);
    CHECK_EQ(sv_test_counter(ctx_a, "local_ack_timeout_err") - t0, 3);   /* first try + 2 retries */
    CHECK(sv_test_counter(ctx_b, "out_of_seq_request") >= 1);
    CHECK_EQ(ibv_poll_cq(b.cq, 1, &wc), 0);
    side_fini(&a);
    side_fini(&b);

    /* b expects a PSN above: the SEND looks like a duplicate, is re-ACKed and dropped, so the
     * sender sees success and the receiver nothing (IBA 9.7.5.1.2) */
    ca = sv_test_conn_defaults();
    cb = sv_test_conn_defaults();
    ca.local_psn = 0x100;
    cb.remote_psn = 0x101;
    CHECK_EQ(pair_up(&a, &b, IBV_QPT_RC, ca, cb, 64, ALL_ACCESS), 0);
    CHECK_EQ(post_recv(&b, 1, 0, 64), 0);
    uint64_t d0 = sv_test_counter(ctx_b, "duplicate_request");
    CHECK_EQ(post_send(&a, 1, IBV_WR_SEND, 0, 32, 0, 0, 0), 0);
    CHECK(sv_test_wait_wc(a.cq, &wc, SV_TEST_WAIT_MS));
    CHECK_EQ(wc.status, IBV_WC_SUCCESS);
    CHECK_EQ(sv_test_counter(ctx_b, "duplicate_request") - d0, 1);
    CHECK_EQ(ibv_poll_cq(b.cq, 1, &wc), 0);
    side_fini(&a);
    side_fini(&b);
}

static void test_cq_overflow(void)
{
    struct side a, b;
    struct sv_test_conn ca = sv_test_conn_defaults();
    ca.timeout = 8;
    ca.retry_cnt = 1;
    /* b's CQ holds 1 completion; three receives complete into it */
    CHECK_EQ(pair_up(&a, &b, IBV_QPT_RC, ca, sv_test_conn_defaults(), 1, ALL_ACCESS), 0);
    CHECK_EQ(b.cq->cqe, 1);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(post_recv(&b, (uint64_t)i, (uint32_t)i * 64, 64), 0);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(post_send(&a, (uint64_t)i, IBV_WR_SEND, 0, 16, 0, 0, 0), 0);
    struct ibv_async_event ev;
    CHECK_EQ(sv_test_wait_async(ctx_b, &ev, SV_TEST_WAIT_MS), 0);
    CHECK_EQ(ev.event_type, IBV_EVENT_CQ_ERR);
    CHECK(ev.element.cq == b.cq);
    ibv_ack_async_event(&ev);
    CHECK_EQ(sv_test_wait_async(ctx_b, &ev, SV_TEST_WAIT_MS), 0);
    CHECK_EQ(ev.event_type, IBV_EVENT_QP_FATAL);   /* the responder QP could not complete */
    ibv_ack_async_event(&ev);
    CHECK(sv_test_counter(ctx_b, "cq_overflow") >= 1);
    /* no ACK for the lost completion: the requester runs out of retries */
    struct ibv_wc wc;
    int got_error = 0;
    for (int i = 0; i < 3 && sv_test_wait_wc(a.cq, &wc, SV_TEST_WAIT_MS); i++)
        if (wc.status == IBV_WC_RETRY_EXC_ERR)
            got_error = 1;
    CHECK(got_error);
    side_fini(&a);
    side_fini(&b);
}

static void test_link_mtu_drop(void)
{
    struct side a, b;
    struct sv_test_conn ca = sv_test_conn_defaults(), cb = sv_test_conn_defaults();
    ca.mtu = cb.mtu = IBV_MTU_4096;   /* legal (<= max_mtu) but larger than the 1500-byte link */
    ca.timeout = 8;
    ca.retry_cnt = 2;
    CHECK_EQ(pair_up(&a, &b, IBV_QPT_RC, ca, cb, 64, ALL_ACCESS), 0);
    CHECK_EQ(post_recv(&b, 1, 0, 8192), 0);
    uint64_t d0 = sv_test_counter(ctx_a, "sent_link_mtu_drop");
    CHECK_EQ(post_send(&a, 1, IBV_WR_SEND, 0, 2000, 0, 0, 0), 0);   /* one 2000-byte packet */
    struct ibv_wc wc;
    CHECK(sv_test_wait_wc(a.cq, &wc, SV_TEST_WAIT_MS));
    CHECK_EQ(wc.status, IBV_WC_RETRY_EXC_ERR);
    CHECK_EQ(sv_test_counter(ctx_a, "sent_link_mtu_drop") - d0, 3);   /* first try + 2 retries */
    side_fini(&a);
    side_fini(&b);

    /* path MTU set on one side only: the responder refuses a packet above its own path MTU */
    ca = sv_test_conn_defaults();
    ca.mtu = IBV_MTU_2048;
    CHECK_EQ(pair_up(&a, &b, IBV_QPT_RC, ca, sv_test_conn_defaults(), 64, ALL_ACCESS), 0);
    CHECK_EQ(post_recv(&b, 1, 0, 8192), 0);
    CHECK_EQ(post_send(&a, 1, IBV_WR_SEND, 0, 1400, 0, 0, 0), 0);
    CHECK(sv_test_wait_wc(a.cq, &wc, SV_TEST_WAIT_MS));
    CHECK_EQ(wc.status, IBV_WC_REM_INV_REQ_ERR);
    side_fini(&a);
    side_fini(&b);
}

static void test_wrong_gid_index(void)
{
    struct side a, b;
    struct sv_test_conn ca = sv_test_conn_defaults();
    ca.sgid_index = 1;   /* link-local RoCE v2: softverbs cannot route it */
    ca.timeout = 8;
    ca.retry_cnt = 1;
    CHECK_EQ(pair_up(&a, &b, IBV_QPT_RC, ca, sv_test_conn_defaults(), 64, ALL_ACCESS), 0);
    CHECK_EQ(post_recv(&b, 1, 0, 64), 0);
    uint64_t u0 = sv_test_counter(ctx_a, "sent_unroutable");
    CHECK_EQ(post_send(&a, 1, IBV_WR_SEND, 0, 16, 0, 0, 0), 0);
    struct ibv_wc wc;
    CHECK(sv_test_wait_wc(a.cq, &wc, SV_TEST_WAIT_MS));
    CHECK_EQ(wc.status, IBV_WC_RETRY_EXC_ERR);
    CHECK_EQ(sv_test_counter(ctx_a, "sent_unroutable") - u0, 2);
    side_fini(&a);
    side_fini(&b);
}

int main(void)
{
    CHECK_EQ(pair_open(), 0);
    if (!ctx_a || !ctx_b)
        return sv_check_report("test_sv_errors");
    test_remote_access_error();
    test_rnr();
    test_psn_mismatch();
    test_cq_overflow();
    test_link_mtu_drop();
    test_wrong_gid_index();
    pair_close();
    return sv_check_report("test_sv_errors");
}
