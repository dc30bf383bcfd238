/* Address vectors and address handles. On a RoCE port every AV needs a GRH (is_global) and a
 * populated source GID, as rdma_check_ah_attr enforces. softverbs carries RoCE v2 over IPv4
 * only: a path whose source GID is RoCE v1 or link-local IPv6, or whose destination GID is
 * not IPv4-mapped, is accepted (as hardware would) but its packets reach nobody - the
 * symptom of a wrong GID index on a real fabric. So is a source GID of another address of the
 * bound interface: the device sends from its own address only. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sv_loc.h"

static bool is_loopback(uint32_t ip_be)
{
    return (ntohl(ip_be) >> 24) == 127;
}

int sv_av_check(struct sv_context *ctx, const struct ibv_ah_attr *av, uint32_t *dst_ip_be, bool *routable)
{
    if (av->port_num != SV_PORT_NUM || !av->is_global)
        return EINVAL;
    union ibv_gid sgid;
    int v2 = 0;
    int rc = sv_device_gid(ctx->dev, av->grh.sgid_index, &sgid, &v2);
    if (rc)
        return rc;   /* EINVAL past the table, ENODATA for an empty slot (rdma_get_gid_attr) */
    uint32_t src_ip, dst_ip = 0;
    bool ok = v2 && sv_gid_to_ipv4(&sgid, &src_ip) && sv_gid_to_ipv4(&av->grh.dgid, &dst_ip);
    /* a bound interface's other addresses are in the table, but packets leave from the device's */
    if (ok && src_ip != ctx->dev->cfg.ip_be)
        ok = false;
    /* a loopback device reaches loopback addresses only: nothing leaves this machine */
    if (ok && is_loopback(src_ip) && !is_loopback(dst_ip))
        ok = false;
    *dst_ip_be = dst_ip;
    *routable = ok;
    return 0;
}

struct ibv_ah *ibv_create_ah(struct ibv_pd *ibpd, struct ibv_ah_attr *attr)
{
    struct sv_context *ctx = ibpd ? sv_ctx_checked(ibpd->context) : NULL;
    if (!ctx || !attr) {
        errno = EINVAL;
        return NULL;
    }
    uint32_t dst;
    bool routable;
    int rc = sv_av_check(ctx, attr, &dst, &routable);
    if (rc) {
        errno = rc;
        return NULL;
    }
    struct sv_ah *ah = calloc(1, sizeof *ah);
    if (!ah) {
        errno = ENOMEM;
        return NULL;
    }
    ah->ibah.context = ibpd->context;
    ah->ibah.pd = ibpd;
    ah->pd = sv_pd(ibpd);
    ah->attr = *attr;
    ah->dst_ip_be = dst;
    ah->routable = routable;
    pthread_mutex_lock(&ctx->obj_lock);
    ah->ibah.handle = sv_ctx_new_handle(ctx);
    pthread_mutex_unlock(&ctx->obj_lock);
    atomic_fetch_add(&ah->pd->users, 1);
    return &ah->ibah;
}

int ibv_destroy_ah(struct ibv_ah *ibah)
{
    if (!ibah || !sv_ctx_checked(ibah->context))
        return EINVAL;
    struct sv_ah *ah = sv_ah(ibah);
    atomic_fetch_sub(&ah->pd->users, 1);
    free(ah);
    return 0;
}

/* A UD receive buffer starts with 40 bytes of GRH space; for RoCE v2 over IPv4 that is 20
 * zero bytes and then the IPv4 header (rdma-facts §3.6). */
int ibv_init_ah_from_wc(struct ibv_context *context, uint8_t port_num, struct ibv_wc *wc,
                        struct ibv_grh *grh, struct ibv_ah_attr *ah_attr)
{
    struct sv_context *ctx = sv_ctx_checked(context);
    if (!ctx || !wc || !grh || !ah_attr || port_num != SV_PORT_NUM || !(wc->wc_flags & IBV_WC_GRH))
        return EINVAL;
    const uint8_t *raw = (const uint8_t *)grh;
    const uint8_t *ip = raw + 20;
    if (ip[0] != 0x45)
        return EINVAL;
    memset(ah_attr, 0, sizeof *ah_attr);
    ah_attr->is_global = 1;
    ah_attr->grh.dgid.raw[10] = 0xFF;
    ah_attr->grh.dgid.raw[11] = 0xFF;
    memcpy(&ah_attr->grh.dgid.raw[12], ip + 12, 4);   /* the sender's address */
    ah_attr->grh.sgid_index = 3;                      /* our IPv4-mapped RoCE v2 GID */
    ah_attr->grh.hop_limit = 0xFF;
    ah_attr->dlid = wc->slid;
    ah_attr->sl = wc->sl;
    ah_attr->port_num = port_num;
    return 0;
}

struct ibv_ah *ibv_create_ah_from_wc(struct ibv_pd *pd, struct ibv_wc *wc, struct ibv_grh *grh,
                                     uint8_t port_num)
{
    struct ibv_ah_attr attr;
    int rc = pd ? ibv_init_ah_from_wc(pd->context, port_num, wc, grh, &attr) : EINVAL;
    if (rc) {
        errno = rc;
        return NULL;
    }
    return ibv_create_ah(pd, &attr);
}
