/* ibv_query_device_ex: the extended fields agree with the legacy ones (phys_port_cnt_ex,
 * device_cap_flags_ex), capabilities softverbs does not have are not advertised, and a caller
 * with an older (shorter) struct gets only what fits. */
#include "sv_check.h"
#include "sv_testdev.h"

static void test_values(struct ibv_context *ctx)
{
    struct ibv_device_attr legacy;
    CHECK_EQ(ibv_query_device(ctx, &legacy), 0);
    struct ibv_device_attr_ex ex;
    memset(&ex, 0xA5, sizeof ex);
    CHECK_EQ(ibv_query_device_ex(ctx, NULL, &ex), 0);
    CHECK(memcmp(&ex.orig_attr, &legacy, sizeof legacy) == 0);
    CHECK_EQ(ex.phys_port_cnt_ex, legacy.phys_port_cnt);
    CHECK_EQ(ex.phys_port_cnt_ex, 1);
    CHECK_EQ(ex.device_cap_flags_ex, (uint32_t)legacy.device_cap_flags);
    CHECK_EQ(ex.comp_mask, 0);
    /* not modelled, so not advertised */
    CHECK_EQ(ex.odp_caps.general_caps, 0);
    CHECK_EQ(ex.odp_caps.per_transport_caps.rc_odp_caps, 0);
    CHECK_EQ(ex.xrc_odp_caps, 0);
    CHECK_EQ(ex.tso_caps.max_tso, 0);
    CHECK_EQ(ex.rss_caps.max_rwq_indirection_tables, 0);
    CHECK_EQ(ex.max_wq_type_rq, 0);
    CHECK_EQ(ex.packet_pacing_caps.qp_rate_limit_max, 0);
    CHECK_EQ(ex.raw_packet_caps, 0);
    CHECK_EQ(ex.tm_caps.max_num_tags, 0);
    CHECK_EQ(ex.cq_mod_caps.max_cq_count, 0);
    CHECK_EQ(ex.max_dm_size, 0);
    CHECK_EQ(ex.pci_atomic_caps.fetch_add, 0);
    /* flags and limits tell one story */
    CHECK(legacy.atomic_cap != IBV_ATOMIC_NONE);
    bool mw_flag = (legacy.device_cap_flags & IBV_DEVICE_MEM_WINDOW) != 0;
    CHECK_EQ(mw_flag, legacy.max_mw > 0);
    if (legacy.device_cap_flags & (IBV_DEVICE_MEM_WINDOW_TYPE_2A | IBV_DEVICE_MEM_WINDOW_TYPE_2B))
        CHECK(legacy.max_mw > 0);
    CHECK(!(legacy.device_cap_flags & (IBV_DEVICE_XRC | IBV_DEVICE_RAW_MULTI | IBV_DEVICE_UD_IP_CSUM |
                                       IBV_DEVICE_MANAGED_FLOW_STEERING | IBV_DEVICE_AUTO_PATH_MIG)));
    if (ex.completion_timestamp_mask)
        CHECK(ex.hca_core_clock > 0);

    /* an input comp_mask softverbs does not know is refused */
    struct ibv_query_device_ex_input in = {.comp_mask = 1};
    CHECK_EQ(ibv_query_device_ex(ctx, &in, &ex), EINVAL);
}

static void test_short_struct(struct ibv_context *ctx)
{
    /* a program built against an older verbs.h: its struct ends before phys_port_cnt_ex */
    size_t size = offsetof(struct ibv_device_attr_ex, phys_port_cnt_ex);
    unsigned char buf[sizeof(struct ibv_device_attr_ex) + 16];
    memset(buf, 0x5A, sizeof buf);
    struct verbs_context *vctx = verbs_get_ctx_op(ctx, query_device_ex);
    CHECK(vctx != NULL);
    if (!vctx)
        return;
    CHECK_EQ(vctx->query_device_ex(ctx, NULL, (struct ibv_device_attr_ex *)(void *)buf, size), 0);
    struct ibv_device_attr_ex *ex = (struct ibv_device_attr_ex *)(void *)buf;
    CHECK_EQ(ex->orig_attr.phys_port_cnt, 1);
    CHECK_EQ(ex->device_cap_flags_ex, (uint32_t)ex->orig_attr.device_cap_flags);
    bool untouched = true;
    for (size_t i = size; i < sizeof buf; i++)
        untouched &= buf[i] == 0x5A;
    CHECK(untouched);
    /* shorter than the legacy attributes: refused */
    CHECK_EQ(vctx->query_device_ex(ctx, NULL, ex, sizeof ex->orig_attr - 1), EINVAL);
}

int main(void)
{
    char ip[32], spec[64];
    sv_test_ip(ip, sizeof ip, 1);
    snprintf(spec, sizeof spec, "qx@%s", ip);
    struct ibv_context *ctx = sv_test_open(spec, "qx");
    CHECK(ctx != NULL);
    if (ctx) {
        test_values(ctx);
        test_short_struct(ctx);
        CHECK_EQ(ibv_close_device(ctx), 0);
    }
    softverbs_configure(NULL);
    return sv_check_report("test_sv_query_ex");
}
