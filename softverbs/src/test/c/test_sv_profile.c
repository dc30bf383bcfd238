/* Device profiles (profile=NAME): every profile's limits are what ibv_query_device and
 * ibv_query_port report, and each is enforced at its edge (the limit is taken, one more is
 * EINVAL) for QP caps, CQ size, rd_atomic depths and the GID table; profile= comes first
 * whatever its place in the spec, and an unknown one names the known ones. */
#include "sv_check.h"
#include "sv_testdev.h"
#include "sv_loc.h"

static char ip[32];

static struct ibv_qp *make_qp(struct ibv_pd *pd, struct ibv_cq *cq, uint32_t swr, uint32_t ssge, uint32_t inl)
{
    struct ibv_qp_init_attr init = {.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
                                    .cap = {.max_send_wr = swr, .max_recv_wr = 1, .max_send_sge = ssge,
                                            .max_recv_sge = 1, .max_inline_data = inl}};
    return ibv_create_qp(pd, &init);
}

static void expect_qp(struct ibv_pd *pd, struct ibv_cq *cq, uint32_t swr, uint32_t ssge, uint32_t inl, bool ok)
{
    errno = 0;
    struct ibv_qp *qp = make_qp(pd, cq, swr, ssge, inl);
    CHECK_EQ(qp != NULL, ok);
    if (!ok)
        CHECK_EQ(errno, EINVAL);
    if (qp)
        CHECK_EQ(ibv_destroy_qp(qp), 0);
}

/* INIT, then RTR with max_dest_rd_atomic = dest, then RTS with max_rd_atomic = init: 0 or errno. */
static int connect_depths(struct ibv_qp *qp, uint8_t sgid, uint32_t dest, uint32_t init)
{
    struct ibv_qp_attr a = {.qp_state = IBV_QPS_INIT, .port_num = 1};
    int rc = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
    if (rc)
        return rc;
    memset(&a, 0, sizeof a);
    a.qp_state = IBV_QPS_RTR;
    a.path_mtu = IBV_MTU_1024;
    a.dest_qp_num = qp->qp_num;
    a.max_dest_rd_atomic = (uint8_t)dest;
    a.min_rnr_timer = 1;
    a.ah_attr.is_global = 1;
    a.ah_attr.port_num = 1;
    a.ah_attr.grh.hop_limit = 1;
    a.ah_attr.grh.sgid_index = sgid;
    sv_test_gid(&a.ah_attr.grh.dgid, ip);
    rc = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                                   IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
    if (rc)
        return rc;
    memset(&a, 0, sizeof a);
    a.qp_state = IBV_QPS_RTS;
    a.timeout = 14;
    a.retry_cnt = 7;
    a.rnr_retry = 7;
    a.max_rd_atomic = (uint8_t)init;
    return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                                     IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

static void test_depths(struct ibv_pd *pd, struct ibv_cq *cq, uint8_t sgid, const struct sv_limits *l)
{
    struct { uint32_t dest, init; int rc; } cases[] = {
        {l->max_qp_rd_atom, l->max_qp_init_rd_atom, 0},
        {l->max_qp_rd_atom + 1, 1, EINVAL},        /* refused at RTR */
        {1, l->max_qp_init_rd_atom + 1, EINVAL},   /* refused at RTS: perftest#114 */
    };
    for (size_t i = 0; i < SV_ARRAY_SIZE(cases); i++) {
        if (cases[i].dest > 255 || cases[i].init > 255)
            continue;   /* past the u8 field: not expressible */
        struct ibv_qp *qp = make_qp(pd, cq, 1, 1, 0);
        CHECK(qp != NULL);
        if (!qp)
            continue;
        CHECK_EQ(connect_depths(qp, sgid, cases[i].dest, cases[i].init), cases[i].rc);
        CHECK_EQ(ibv_destroy_qp(qp), 0);
    }
}

static void test_profile(const char *name)
{
    char spec[96];
    snprintf(spec, sizeof spec, "p@%s:profile=%s", ip, name);
    struct sv_devcfg_list cfg;
    char err[256] = "";
    CHECK_EQ(sv_config_parse(spec, &cfg, err, sizeof err), 0);
    const struct sv_limits *l = &cfg.dev[0].lim;
    struct ibv_context *ctx = sv_test_open(spec, "p");
    CHECK(ctx != NULL);
    if (!ctx)
        return;
    struct ibv_device_attr a;
    CHECK_EQ(ibv_query_device(ctx, &a), 0);
    CHECK_EQ(a.vendor_id, cfg.dev[0].vendor_id);
    CHECK_EQ(a.vendor_part_id, cfg.dev[0].vendor_part_id);
    CHECK_EQ(a.max_qp_wr, l->max_qp_wr);
    CHECK_EQ(a.max_sge, l->max_sge);
    CHECK_EQ(a.max_cqe, l->max_cqe);
    CHECK_EQ(a.max_qp_rd_atom, l->max_qp_rd_atom);
    CHECK_EQ(a.max_qp_init_rd_atom, l->max_qp_init_rd_atom);
    CHECK_EQ(a.max_res_rd_atom, l->max_res_rd_atom);
    struct ibv_port_attr pa;
    CHECK_EQ(ibv_query_port(ctx, 1, &pa), 0);
    CHECK_EQ(pa.gid_tbl_len, l->gid_tbl_len);
    /* no softverbs allocation ceiling is below a profile's limit */
    CHECK(l->max_sge <= SV_MAX_SGE && l->max_qp_wr <= SV_MAX_QP_WR && l->max_qp_rd_atom <= 255);

    struct ibv_pd *pd = ibv_alloc_pd(ctx);
    struct ibv_cq *cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
    CHECK(pd && cq);
    if (pd && cq) {
        expect_qp(pd, cq, l->max_qp_wr, 1, 0, true);
        expect_qp(pd, cq, l->max_qp_wr + 1, 1, 0, false);
        expect_qp(pd, cq, 1, l->max_sge, 0, true);
        expect_qp(pd, cq, 1, l->max_sge + 1, 0, false);
        expect_qp(pd, cq, 1, 1, l->max_inline, true);
        expect_qp(pd, cq, 1, 1, l->max_inline + 1, false);
        errno = 0;
        CHECK(ibv_create_cq(ctx, (int)l->max_cqe + 1, NULL, NULL, 0) == NULL);
        CHECK_EQ(errno, EINVAL);
        CHECK_EQ(ibv_resize_cq(cq, (int)l->max_cqe + 1), EINVAL);
        test_depths(pd, cq, cfg.dev[0].gid_layout == SV_GID_LAYOUT_RXE ? 1 : 3, l);
        union ibv_gid gid;
        CHECK_EQ(ibv_query_gid(ctx, 1, (int)l->gid_tbl_len - 1, &gid), 0);   /* last slot (empty) */
        errno = 0;
        CHECK_EQ(ibv_query_gid(ctx, 1, (int)l->gid_tbl_len, &gid), -1);     /* past the table */
        CHECK_EQ(errno, EINVAL);
    }
    if (cq)
        CHECK_EQ(ibv_destroy_cq(cq), 0);
    if (pd)
        CHECK_EQ(ibv_dealloc_pd(pd), 0);
    ibv_close_device(ctx);
}

static void test_spec(void)
{
    struct sv_devcfg_list cfg;
    char err[256] = "";
    /* profile= applies first: the explicit key after or before it wins */
    CHECK_EQ(sv_config_parse("a@127.0.0.9:vendor_part=4129:profile=mlx5", &cfg, err, sizeof err), 0);
    CHECK_EQ(cfg.dev[0].vendor_id, 0x02c9);
    CHECK_EQ(cfg.dev[0].vendor_part_id, 4129);
    CHECK_EQ(cfg.dev[0].lim.max_qp_wr, 32768);   /* the table is what the device is checked against */
    CHECK(!strcmp(cfg.dev[0].profile, "mlx5"));
    CHECK_EQ(sv_config_parse("a@127.0.0.9:profile=irdma:gid=mlx5", &cfg, err, sizeof err), 0);
    CHECK_EQ(cfg.dev[0].gid_layout, SV_GID_LAYOUT_MLX5);
    CHECK_EQ(cfg.dev[0].lim.max_sge, 6);
    /* no profile: rxe's limits with the default identity */
    CHECK_EQ(sv_config_parse("a@127.0.0.9", &cfg, err, sizeof err), 0);
    CHECK_EQ(cfg.dev[0].lim.max_qp_wr, SV_MAX_QP_WR);
    CHECK_EQ(cfg.dev[0].lim.max_inline, SV_MAX_INLINE);
    CHECK_EQ(cfg.dev[0].vendor_id, 0xFFFFFF);
    CHECK_EQ(cfg.dev[0].profile[0], '\0');
    CHECK_EQ(sv_config_parse("a@127.0.0.9:profile=cx9", &cfg, err, sizeof err), EINVAL);
    CHECK_CONTAINS(err, "unknown profile 'cx9' (known: rxe, mlx5, irdma, bnxt_re)");
    CHECK_EQ(sv_config_parse("a@127.0.0.9:profile=rxe:profile=mlx5", &cfg, err, sizeof err), EINVAL);
    CHECK_CONTAINS(err, "profile given twice");
}

int main(void)
{
    sv_test_ip(ip, sizeof ip, 1);
    test_spec();
    for (size_t i = 0; sv_profile_name(i); i++)
        test_profile(sv_profile_name(i));
    softverbs_configure(NULL);
    return sv_check_report("test_sv_profile");
}
