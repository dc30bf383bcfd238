/* GID table personalities: the default mlx5-like table (link-local v1/v2, IPv4-mapped v1/v2)
 * and gid=rxe (RoCE v2 only: link-local at 0, IPv4-mapped at 1), through every query that
 * shows the table, and RC traffic over index 1 between two rxe-layout devices. */
#include "sv_check.h"
#include "sv_testpair.h"

int ibv_query_gid_type(struct ibv_context *context, uint8_t port_num, unsigned int index, int *type);
int ibv_read_sysfs_file(const char *dir, const char *file, char *buf, size_t size);

static void expect_gid(struct ibv_context *ctx, int index, const char *ip, bool link_local)
{
    union ibv_gid gid, want;
    CHECK_EQ(ibv_query_gid(ctx, 1, index, &gid), 0);
    if (link_local) {
        CHECK_EQ(gid.raw[0], 0xfe);
        CHECK_EQ(gid.raw[1], 0x80);
        CHECK_EQ(gid.raw[11], 0xff);   /* EUI-64 of the MAC: ..ff:fe.. */
        CHECK_EQ(gid.raw[12], 0xfe);
    } else {
        sv_test_gid(&want, ip);
        CHECK(memcmp(gid.raw, want.raw, 16) == 0);
    }
}

static void test_rxe_table(struct ibv_context *ctx, const char *ip)
{
    expect_gid(ctx, 0, ip, true);
    expect_gid(ctx, 1, ip, false);
    union ibv_gid gid, zero = {0};
    CHECK_EQ(ibv_query_gid(ctx, 1, 2, &gid), 0);        /* empty slot: the zero GID */
    CHECK(memcmp(&gid, &zero, sizeof gid) == 0);
    int type = -1;
    CHECK_EQ(ibv_query_gid_type(ctx, 1, 0, &type), 0);
    CHECK_EQ(type, 1);                                   /* RoCE v2 */
    CHECK_EQ(ibv_query_gid_type(ctx, 1, 1, &type), 0);
    CHECK_EQ(type, 1);

    struct ibv_gid_entry e[8];
    CHECK_EQ(ibv_query_gid_table(ctx, e, 8, 0), 2);
    CHECK_EQ(e[0].gid_type, IBV_GID_TYPE_ROCE_V2);
    CHECK_EQ(e[1].gid_type, IBV_GID_TYPE_ROCE_V2);
    CHECK_EQ(e[1].gid_index, 1);
    CHECK_EQ(ibv_query_gid_ex(ctx, 1, 1, &e[2], 0), 0);
    CHECK(memcmp(&e[2], &e[1], sizeof e[1]) == 0);
    CHECK_EQ(ibv_query_gid_ex(ctx, 1, 2, &e[2], 0), ENODATA);

    char dir[128], buf[64];
    snprintf(dir, sizeof dir, "/sys/class/infiniband/%s", ibv_get_device_name(ctx->device));
    CHECK(ibv_read_sysfs_file(dir, "ports/1/gid_attrs/types/0", buf, sizeof buf) > 0);
    CHECK(strcmp(buf, "RoCE v2") == 0);
    CHECK(ibv_read_sysfs_file(dir, "ports/1/gid_attrs/types/2", buf, sizeof buf) < 0);

    /* an AV from index 3 (the default layout's IPv4-mapped v2) names an empty slot here */
    struct ibv_pd *pd = ibv_alloc_pd(ctx);
    struct ibv_ah_attr av = {.is_global = 1, .port_num = 1, .grh = {.sgid_index = 3, .hop_limit = 1}};
    sv_test_gid(&av.grh.dgid, ip);
    errno = 0;
    CHECK(ibv_create_ah(pd, &av) == NULL);
    CHECK_EQ(errno, ENODATA);
    av.grh.sgid_index = 1;
    struct ibv_ah *ah = ibv_create_ah(pd, &av);
    CHECK(ah != NULL);
    if (ah)
        CHECK_EQ(ibv_destroy_ah(ah), 0);
    CHECK_EQ(ibv_dealloc_pd(pd), 0);
}

static void test_default_table(const char *spec_ip)
{
    char spec[64];
    snprintf(spec, sizeof spec, "dflt@%s", spec_ip);
    struct ibv_context *ctx = sv_test_open(spec, "dflt");
    CHECK(ctx != NULL);
    if (!ctx)
        return;
    expect_gid(ctx, 0, spec_ip, true);
    expect_gid(ctx, 1, spec_ip, true);
    expect_gid(ctx, 2, spec_ip, false);
    expect_gid(ctx, 3, spec_ip, false);
    struct ibv_gid_entry e[8];
    CHECK_EQ(ibv_query_gid_table(ctx, e, 8, 0), 4);
    CHECK_EQ(e[0].gid_type, IBV_GID_TYPE_ROCE_V1);
    CHECK_EQ(e[3].gid_type, IBV_GID_TYPE_ROCE_V2);
    CHECK_EQ(ibv_close_device(ctx), 0);
}

static void test_rxe_traffic(void)
{
    struct sv_test_conn c = sv_test_conn_defaults();
    c.sgid_index = 1;
    struct side a, b;
    CHECK_EQ(pair_up(&a, &b, IBV_QPT_RC, c, c, 64, ALL_ACCESS), 0);
    if (a.qp && b.qp) {
        CHECK_EQ(post_recv(&b, 1, 0, 256), 0);
        fill(a.buf, 200, 9);
        CHECK_EQ(post_send(&a, 2, IBV_WR_SEND, 0, 200, 0, 0, 0), 0);
        struct ibv_wc wc;
        CHECK_EQ(sv_test_wait_wc(b.cq, &wc, SV_TEST_WAIT_MS), 1);
        CHECK_EQ(wc.status, IBV_WC_SUCCESS);
        CHECK_EQ(wc.byte_len, 200);
        CHECK(memcmp(a.buf, b.buf, 200) == 0);
        CHECK_EQ(sv_test_wait_wc(a.cq, &wc, SV_TEST_WAIT_MS), 1);
        CHECK_EQ(wc.status, IBV_WC_SUCCESS);
    }
    side_fini(&a);
    side_fini(&b);
}

int main(void)
{
    sv_test_ip(ip_a, sizeof ip_a, 1);
    sv_test_ip(ip_b, sizeof ip_b, 2);
    char spec[160];
    snprintf(spec, sizeof spec, "ra@%s:gid=rxe,rb@%s:gid=rxe", ip_a, ip_b);
    ctx_a = sv_test_open(spec, "ra");
    ctx_b = sv_test_open(spec, "rb");
    CHECK(ctx_a && ctx_b);
    if (ctx_a && ctx_b) {
        test_rxe_table(ctx_a, ip_a);
        test_rxe_traffic();
    }
    if (ctx_a)
        ibv_close_device(ctx_a);
    if (ctx_b)
        ibv_close_device(ctx_b);
    char ip_c[32];
    sv_test_ip(ip_c, sizeof ip_c, 3);
    test_default_table(ip_c);

    CHECK_EQ(softverbs_configure("x@127.0.0.9:gid=ib"), EINVAL);
    CHECK_CONTAINS(softverbs_last_error(), "bad gid 'ib'");
    CHECK_EQ(softverbs_configure("x@127.0.0.9:gid=mlx5"), 0);
    softverbs_configure(NULL);
    return sv_check_report("test_sv_gid_rxe");
}
