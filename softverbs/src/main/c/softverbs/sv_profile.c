/* Device profiles: SOFTVERBS_DEVICES=NAME@ADDR:profile=PROFILE gives a device the identity and
 * the published limits of a common RoCE NIC, so a program replayed on softverbs meets the
 * limits of the NIC its user has (a create or modify above one fails with EINVAL, as that
 * NIC's kernel driver or provider refuses it). One row per profile, written once here; each
 * value's source is in SOFTVERBS.md ("Device profiles"). Without a profile a device has rxe's
 * limits (the SV_MAX_* defaults) and keeps the default identity. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sv_loc.h"

struct sv_profile {
    const char *name;
    const char *nic;                /* what it models, for messages and docs */
    uint32_t vendor_id, vendor_part_id, hw_ver;
    enum sv_gid_layout gid_layout;
    struct sv_limits lim;
};

static const struct sv_profile g_profiles[] = {
    {"rxe", "Soft-RoCE (rdma_rxe)", 0xFFFFFF, 0, 0, SV_GID_LAYOUT_RXE,
     {.max_qp_wr = SV_MAX_QP_WR, .max_sge = SV_MAX_SGE, .max_inline = SV_MAX_INLINE,
      .max_cqe = SV_MAX_CQE, .max_qp_rd_atom = SV_MAX_RD_ATOM, .max_qp_init_rd_atom = SV_MAX_RD_ATOM,
      .max_res_rd_atom = SV_MAX_RES_RD_ATOM, .gid_tbl_len = SV_GID_TBL_LEN}},
    {"mlx5", "NVIDIA ConnectX-6 (mlx5)", 0x02C9, 4123, 0, SV_GID_LAYOUT_MLX5,
     {.max_qp_wr = 32768, .max_sge = 30, .max_inline = 912, .max_cqe = 4194303,
      .max_qp_rd_atom = 16, .max_qp_init_rd_atom = 16, .max_res_rd_atom = 4194304, .gid_tbl_len = 256}},
    {"irdma", "Intel E810 (irdma)", 0x8086, 5522, 2, SV_GID_LAYOUT_RXE,
     {.max_qp_wr = 8127, .max_sge = 6, .max_inline = 101, .max_cqe = 1048574,
      .max_qp_rd_atom = 8, .max_qp_init_rd_atom = 8, .max_res_rd_atom = 0, .gid_tbl_len = 32}},
    {"bnxt_re", "Broadcom BCM57608 (bnxt_re, variable-size WQEs)", 0x14E4, 0x1760, 0, SV_GID_LAYOUT_MLX5,
     {.max_qp_wr = 4351, .max_sge = 13, .max_inline = 480, .max_cqe = 8388607,
      .max_qp_rd_atom = 126, .max_qp_init_rd_atom = 126, .max_res_rd_atom = 0, .gid_tbl_len = 256}},
};

const char *sv_profile_name(size_t i)
{
    return i < SV_ARRAY_SIZE(g_profiles) ? g_profiles[i].name : NULL;
}

void sv_profile_default_limits(struct sv_limits *lim)
{
    *lim = g_profiles[0].lim;   /* rxe */
}

int sv_profile_apply(struct sv_devcfg *d, const char *name, char *why, size_t whylen)
{
    if (!d || !name)
        return EINVAL;
    for (size_t i = 0; i < SV_ARRAY_SIZE(g_profiles); i++) {
        const struct sv_profile *p = &g_profiles[i];
        if (strcmp(p->name, name) != 0)
            continue;
        snprintf(d->profile, sizeof d->profile, "%s", p->name);
        d->vendor_id = p->vendor_id;
        d->vendor_part_id = p->vendor_part_id;
        d->hw_ver = p->hw_ver;
        d->gid_layout = p->gid_layout;
        d->lim = p->lim;
        return 0;
    }
    int n = snprintf(why, whylen, "unknown profile '%s' (known:", name);
    for (size_t i = 0; i < SV_ARRAY_SIZE(g_profiles) && n > 0 && (size_t)n < whylen; i++)
        n += snprintf(why + n, whylen - (size_t)n, "%s %s", i ? "," : "", g_profiles[i].name);
    if (n > 0 && (size_t)n < whylen)
        snprintf(why + n, whylen - (size_t)n, ")");
    return EINVAL;
}
