/* Memory windows between two devices in one process: type 1 bound with ibv_bind_mw, type 2
 * bound with BIND_MW work requests (legacy and wr API), invalidated locally (LOCAL_INV) and
 * remotely (SEND with Invalidate); the responder refuses an unbound, invalidated, stale-key,
 * out-of-range or rights-lacking window with a remote access error NAK, as rxe. Atomics through
 * a window. Each access error ends its QP pair, so every case gets a fresh pair. */
#include "sv_check.h"
#include "sv_testpair_ex.h"

/* b's buffer, LOCAL_WRITE | MW_BIND only: remote access is possible through windows alone */
#define MR_B (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_MW_BIND)
#define WIN_OFF 4096u
#define WIN_LEN 8192u

static int bind1(struct xside *b, struct ibv_mw *mw, uint64_t off, uint64_t len, unsigned int access)
{
    struct ibv_mw_bind bind = {.wr_id = 900, .send_flags = IBV_SEND_SIGNALED,
                               .bind_info = {.mr = len ? b->s.mr : NULL, .addr = len ? (uintptr_t)b->s.buf + off : 0,
                                             .length = len, .mw_access_flags = access}};
    return ibv_bind_mw(b->s.qp, mw, &bind);
}

/* a WRITEs 64 bytes at b's buffer + off through rkey; the completion status */
static enum ibv_wc_status write_via(struct xside *a, struct xside *b, uint32_t rkey, uint64_t off)
{
    struct ibv_wc wc;
    fill(a->s.buf, 64, (uint8_t)off);
    if (post_send(&a->s, 1, IBV_WR_RDMA_WRITE, 0, 64, (uintptr_t)b->s.buf + off, rkey, 0))
        return IBV_WC_GENERAL_ERR;
    if (!sv_test_wait_wc(a->s.cq, &wc, SV_TEST_WAIT_MS))
        return IBV_WC_RESP_TIMEOUT_ERR;
    if (wc.status == IBV_WC_SUCCESS && memcmp(a->s.buf, b->s.buf + off, 64))
        return IBV_WC_GENERAL_ERR;
    return wc.status;
}

static void test_alloc(void)
{
    struct ibv_pd *pd = ibv_alloc_pd(ctx_a);
    struct ibv_device_attr da;
    CHECK_EQ(ibv_query_device(ctx_a, &da), 0);
    CHECK(da.device_cap_flags & IBV_DEVICE_MEM_WINDOW);
    CHECK(da.device_cap_flags & IBV_DEVICE_MEM_WINDOW_TYPE_2B);
    CHECK(da.max_mw > 0);
    struct ibv_mw *m1 = ibv_alloc_mw(pd, IBV_MW_TYPE_1), *m2 = ibv_alloc_mw(pd, IBV_MW_TYPE_2);
    CHECK(m1 && m2);
    if (!m1 || !m2)
        return;
    CHECK_EQ(m1->type, IBV_MW_TYPE_1);
    CHECK_EQ(m2->type, IBV_MW_TYPE_2);
    CHECK(m1->rkey != m2->rkey && m1->pd == pd && m1->context == ctx_a);
    errno = 0;
    CHECK(ibv_alloc_mw(pd, (enum ibv_mw_type)3) == NULL);
    CHECK_EQ(errno, EINVAL);
    CHECK_EQ(ibv_dealloc_pd(pd), EBUSY);   /* windows are PD objects */
    CHECK_EQ(ibv_dealloc_mw(m1), 0);
    CHECK_EQ(ibv_dealloc_mw(m2), 0);
    CHECK_EQ(ibv_dealloc_pd(pd), 0);
}

static void test_type1(void)
{
    struct xside a, b;
    struct ibv_wc wc;
    CHECK_EQ(xpair_up(&a, &b, IBV_QPT_RC, 0, 0, MR_B), 0);
    struct ibv_mw *mw = ibv_alloc_mw(b.s.pd, IBV_MW_TYPE_1);
    uint32_t unbound = mw->rkey;
    CHECK_EQ(bind1(&b, mw, WIN_OFF, WIN_LEN, IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ), 0);
    CHECK_EQ(mw->rkey, ibv_inc_rkey(unbound));   /* the new key is the application's at once */
    CHECK(sv_test_wait_wc(b.s.cq, &wc, SV_TEST_WAIT_MS));
    CHECK_EQ(wc.status, IBV_WC_SUCCESS);
    CHECK_EQ(wc.opcode, IBV_WC_BIND_MW);
    CHECK_EQ(wc.wr_id, 900);
    CHECK_EQ(write_via(&a, &b, mw->rkey, WIN_OFF + 100), IBV_WC_SUCCESS);
    /* the MR stays while a window is bound to it (IBA 10.6.7.2.6) */
    CHECK_EQ(ibv_dereg_mr(b.s.mr), EINVAL);
    /* bad binds: ZERO_BASED type 1 (EINVAL at the verb, as rxe), another PD's MR (EPERM) */
    CHECK_EQ(bind1(&b, mw, WIN_OFF, WIN_LEN, IBV_ACCESS_REMOTE_READ | IBV_ACCESS_ZERO_BASED), EINVAL);
    struct ibv_pd *other = ibv_alloc_pd(ctx_b);
    struct ibv_mr *omr = ibv_reg_mr(other, b.s.buf, BUF_LEN, MR_B);
    struct ibv_mw_bind ob = {.bind_info = {.mr = omr, .addr = (uintptr_t)b.s.buf, .length = 64,
                                           .mw_access_flags = IBV_ACCESS_REMOTE_READ}};
    CHECK_EQ(ibv_bind_mw(b.s.qp, mw, &ob), EPERM);
    /* unbind (length 0): the key stops working */
    CHECK_EQ(bind1(&b, mw, 0, 0, 0), 0);
    CHECK(sv_test_wait_wc(b.s.cq, &wc, SV_TEST_WAIT_MS));
    CHECK_EQ(wc.status, IBV_WC_SUCCESS);
    CHECK_EQ(ibv_dereg_mr(omr), 0);
    CHECK_EQ(ibv_dealloc_pd(other), 0);
    CHECK_EQ(write_via(&a, &b, mw->rkey, WIN_OFF), IBV_WC_REM_ACCESS_ERR);
    CHECK_EQ(sv_test_qp_state(b.s.qp), IBV_QPS_ERR);
    ibv_dealloc_mw(mw);
    xside_fini(&a);
    xside_fini(&b);

    /* refusals, one fresh pair each: outside the window, a right it lacks, a stale key */
    for (int k = 0; k < 3; k++) {
        CHECK_EQ(xpair_up(&a, &b, IBV_QPT_RC, 0, 0, MR_B), 0);
        mw = ibv_alloc_mw(b.s.pd, IBV_MW_TYPE_1);
        CHECK_EQ(bind1(&b, mw, WIN_OFF, WIN_LEN, k == 1 ? IBV_ACCESS_REMOTE_READ : IBV_ACCESS_REMOTE_WRITE), 0);
        CHECK(sv_test_wait_wc(b.s.cq, &wc, SV_TEST_WAIT_MS) && wc.status == IBV_WC_SUCCESS);
        uint32_t key = mw->rkey;
        if (k == 2) {   /* rebinding changed the key; the first one is dead */
            CHECK_EQ(bind1(&b, mw, WIN_OFF, WIN_LEN, IBV_ACCESS_REMOTE_WRITE), 0);
            CHECK(sv_test_wait_wc(b.s.cq, &wc, SV_TEST_WAIT_MS) && wc.status == IBV_WC_SUCCESS);
            CHECK(key != mw->rkey);
            CHECK_EQ(write_via(&a, &b, mw->rkey, WIN_OFF), IBV_WC_SUCCESS);
        }
        CHECK_EQ(write_via(&a, &b, key, k == 0 ? WIN_OFF + WIN_LEN - 32 : WIN_OFF), IBV_WC_REM_ACCESS_ERR);
        ibv_dealloc_mw(mw);
        xside_fini(&a);
        xside_fini(&b);
    }
}

/* Type 2: bound by a work request (legacy post on b), used for READ and atomics, freed by a
 * SEND with Invalidate from a; bound again through the wr API and freed by LOCAL_INV. */
static void test_type2(void)
{
    struct xside a, b;
    struct ibv_wc wc;
    CHECK_EQ(xpair_up(&a, &b, IBV_QPT_RC, RC_SEND_OPS, RC_SEND_OPS, MR_B), 0);
    struct ibv_mw *mw = ibv_alloc_mw(b.s.pd, IBV_MW_TYPE_2);
    uint32_t key = ibv_inc_rkey(mw->rkey);
    struct ibv_send_wr w = {.wr_id = 10, .opcode = IBV_WR_BIND_MW, .send_flags = IBV_SEND_SIGNALED}, *bad;
    w.bind_mw.mw = mw;
    w.bind_mw.rkey = key;
    w.bind_mw.bind_info = (struct ibv_mw_bind_info){.mr = b.s.mr, .addr = (uintptr_t)b.s.buf + WIN_OFF,
                                                    .length = WIN_LEN,
                                                    .mw_access_flags = IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC};
    CHECK_EQ(ibv_post_send(b.s.qp, &w, &bad), 0);
    CHECK(xwait(&b, &wc));
    CHECK_EQ(wc.status, IBV_WC_SUCCESS);
    CHECK_EQ(wc.opcode, IBV_WC_BIND_MW);
    CHECK_EQ(wc.byte_len, 0);
    fill(b.s.buf + WIN_OFF, 2000, 4);
    CHECK_EQ(post_send(&a.s, 11, IBV_WR_RDMA_READ, 100, 2000, (uintptr_t)b.s.buf + WIN_OFF, key, 0), 0);
    CHECK(xwait(&a, &wc));
    CHECK_EQ(wc.status, IBV_WC_SUCCESS);
    CHECK(!memcmp(a.s.buf + 100, b.s.buf + WIN_OFF, 2000));
    uint64_t *word = (uint64_t *)(void *)(b.s.buf + WIN_OFF + 64);
    *word = 1000;
    ibv_wr_start(a.qpx);
    a.qpx->wr_id = 12;
    a.qpx->wr_flags = IBV_SEND_SIGNALED;
    ibv_wr_atomic_fetch_add(a.qpx, key, (uintptr_t)word, 24);
    ibv_wr_set_sge(a.qpx, a.s.mr->lkey, (uintptr_t)a.s.buf + 8000, 8);
    CHECK_EQ(ibv_wr_complete(a.qpx), 0);
    CHECK(xwait(&a, &wc));
    CHECK_EQ(wc.status, IBV_WC_SUCCESS);
    CHECK_EQ(wc.opcode, IBV_WC_FETCH_ADD);
    CHECK_EQ(*(uint64_t *)(void *)(a.s.buf + 8000), 1000);
    CHECK_EQ(*word, 1024);
    /* SEND with Invalidate: the receive completes with the key, the window is free again */
    CHECK_EQ(post_recv(&b.s, 13, 0, 64), 0);
    ibv_wr_start(a.qpx);
    a.qpx->wr_id = 14;
    ibv_wr_send_inv(a.qpx, key);
    ibv_wr_set_sge(a.qpx, a.s.mr->lkey, (uintptr_t)a.s.buf, 16);
    CHECK_EQ(ibv_wr_complete(a.qpx), 0);
    CHECK(xwait(&b, &wc));
    CHECK_EQ(wc.wr_id, 13);
    CHECK_EQ(wc.status, IBV_WC_SUCCESS);
    CHECK_EQ(wc.wc_flags, IBV_WC_WITH_INV);
    CHECK_EQ(wc.imm_data, key);   /* invalidated_rkey */
    CHECK(xwait(&a, &wc));
    CHECK_EQ(wc.status, IBV_WC_SUCCESS);

    /* bound again through the wr API with a new key, then LOCAL_INV on b */
    uint32_t key2 = ibv_inc_rkey(key);
    struct ibv_mw_bind_info info = {.mr = b.s.mr, .addr = (uintptr_t)b.s.buf, .length = 64,
                                    .mw_access_flags = IBV_ACCESS_REMOTE_WRITE};
    mw->rkey = key;   /* for type 2 the application keeps the window's current key (rxe) */
    ibv_wr_start(b.qpx);
    b.qpx->wr_id = 15;
    b.qpx->wr_flags = IBV_SEND_SIGNALED;
    ibv_wr_bind_mw(b.qpx, mw, key2, &info);
    CHECK_EQ(ibv_wr_complete(b.qpx), 0);
    CHECK(xwait(&b, &wc));
    CHECK_EQ(wc.status, IBV_WC_SUCCESS);
    CHECK_EQ(wc.opcode, IBV_WC_BIND_MW);
    CHECK_EQ(write_via(&a, &b, key2, 0), IBV_WC_SUCCESS);
    CHECK_EQ(write_via(&a, &b, key, 0), IBV_WC_REM_ACCESS_ERR);   /* the invalidated key */
    ibv_dealloc_mw(mw);
    xside_fini(&a);
    xside_fini(&b);

    /* LOCAL_INV then an access: refused */
    CHECK_EQ(xpair_up(&a, &b, IBV_QPT_RC, 0, RC_SEND_OPS, MR_B), 0);
    mw = ibv_alloc_mw(b.s.pd, IBV_MW_TYPE_2);
    key = ibv_inc_rkey(mw->rkey);
    ibv_wr_start(b.qpx);
    b.qpx->wr_flags = IBV_SEND_SIGNALED;
    b.qpx->wr_id = 20;
    ibv_wr_bind_mw(b.qpx, mw, key, &info);
    b.qpx->wr_id = 21;
    ibv_wr_local_inv(b.qpx, key);
    CHECK_EQ(ibv_wr_complete(b.qpx), 0);
    CHECK(xwait(&b, &wc));
    CHECK_EQ(wc.wr_id, 20);
    CHECK(xwait(&b, &wc));
    CHECK_EQ(wc.wr_id, 21);
    CHECK_EQ(wc.status, IBV_WC_SUCCESS);
    CHECK_EQ(wc.opcode, IBV_WC_LOCAL_INV);
    CHECK_EQ(write_via(&a, &b, key, 0), IBV_WC_REM_ACCESS_ERR);
    ibv_dealloc_mw(mw);
    xside_fini(&a);
    xside_fini(&b);
}

/* Local errors: the WQE completes with rxe's status and the QP goes to ERR. */
static void test_local_errors(void)
{
    struct xside a, b;
    struct ibv_wc wc;
    struct {
        int kind;
        enum ibv_wc_status st;
    } cases[] = {
        {0, IBV_WC_MW_BIND_ERR},     /* type 2 window bound twice (o10-37.2.30) */
        {1, IBV_WC_MW_BIND_ERR},     /* an MR without IBV_ACCESS_MW_BIND */
        {2, IBV_WC_LOC_QP_OP_ERR},   /* LOCAL_INV of a user MR's key */
        {3, IBV_WC_LOC_QP_OP_ERR},   /* LOCAL_INV of a type 1 window */
        {4, IBV_WC_MW_BIND_ERR},     /* range outside the MR */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK_EQ(xpair_up(&a, &b, IBV_QPT_RC, 0, RC_SEND_OPS, MR_B), 0);
        struct ibv_mw *mw = ibv_alloc_mw(b.s.pd, cases[i].kind == 3 ? IBV_MW_TYPE_1 : IBV_MW_TYPE_2);
        struct ibv_mr *nobind = ibv_reg_mr(b.s.pd, b.s.buf, 4096, IBV_ACCESS_LOCAL_WRITE);
        struct ibv_mw_bind_info info = {.mr = cases[i].kind == 1 ? nobind : b.s.mr, .addr = (uintptr_t)b.s.buf,
                                        .length = cases[i].kind == 4 ? BUF_LEN + 1 : 64,
                                        .mw_access_flags = IBV_ACCESS_REMOTE_READ};
        if (cases[i].kind == 0) {   /* a first bind that works */
            ibv_wr_start(b.qpx);
            b.qpx->wr_flags = IBV_SEND_SIGNALED;
            ibv_wr_bind_mw(b.qpx, mw, ibv_inc_rkey(mw->rkey), &info);
            CHECK_EQ(ibv_wr_complete(b.qpx), 0);
            CHECK(xwait(&b, &wc));
            CHECK_EQ(wc.status, IBV_WC_SUCCESS);
            mw->rkey = ibv_inc_rkey(mw->rkey);
        }
        ibv_wr_start(b.qpx);
        b.qpx->wr_flags = IBV_SEND_SIGNALED;
        b.qpx->wr_id = 1;
        if (cases[i].kind == 2 || cases[i].kind == 3)
            ibv_wr_local_inv(b.qpx, cases[i].kind == 2 ? b.s.mr->rkey : mw->rkey);
        else
            ibv_wr_bind_mw(b.qpx, mw, ibv_inc_rkey(mw->rkey), &info);
        CHECK_EQ(ibv_wr_complete(b.qpx), 0);
        CHECK(xwait(&b, &wc));
        CHECK_EQ(wc.status, cases[i].st);
        CHECK_EQ(sv_test_qp_state(b.s.qp), IBV_QPS_ERR);
        ibv_dereg_mr(nobind);
        ibv_dealloc_mw(mw);
        xside_fini(&a);
        xside_fini(&b);
    }
    /* a bind carries no data; a UD QP has no windows (EINVAL at post) */
    CHECK_EQ(xpair_up(&a, &b, IBV_QPT_RC, 0, 0, MR_B), 0);
    struct ibv_mw *mw = ibv_alloc_mw(b.s.pd, IBV_MW_TYPE_2);
    struct ibv_sge sge = {(uintptr_t)b.s.buf, 8, b.s.mr->lkey};
    struct ibv_send_wr w = {.opcode = IBV_WR_BIND_MW, .sg_list = &sge, .num_sge = 1}, *bad;
    w.bind_mw.mw = mw;
    w.bind_mw.bind_info.mr = b.s.mr;
    CHECK_EQ(ibv_post_send(b.s.qp, &w, &bad), EINVAL);
    ibv_dealloc_mw(mw);
    xside_fini(&a);
    xside_fini(&b);
}

int main(void)
{
    CHECK_EQ(pair_open(), 0);
    if (!ctx_a || !ctx_b)
        return sv_check_report("test_sv_mw");
    test_alloc();
    test_type1();
    test_type2();
    test_local_errors();
    pair_close();
    return sv_check_report("test_sv_mw");
}
