/* QP1, the General Services Interface, for an RDMA CM in user space (SOFTVERBS_1.0 extras).
 * softverbs has no GSI QP object: a MAD arriving for QPN 1 (UD SEND only, Q_Key 0x80010000,
 * IBA 13.5.1) goes to the one handler attached to the device in this process, and a MAD is sent
 * as a UD SEND from QP1 to QP1 of the peer device, so captures show CM traffic as on RoCE NICs. */
#include <errno.h>
#include <string.h>

#include "softverbs.h"
#include "sv_loc.h"
#include "sv_pkt.h"

#define SV_GSI_QKEY 0x80010000u   /* IBA 13.5.1: the well-known Q_Key of QP1 */

struct gsi_slot {
    uint32_t ip_be;                /* device address; 0 = free */
    softverbs_gsi_handler fn;
    void *arg;
    uint32_t psn;                  /* next PSN of our QP1 sends */
};

static pthread_mutex_t g_gsi_lock = PTHREAD_MUTEX_INITIALIZER;
static struct gsi_slot g_gsi[SV_MAX_DEVICES];

static struct gsi_slot *slot_of(uint32_t ip_be, bool create)   /* g_gsi_lock held */
{
    struct gsi_slot *free_slot = NULL;
    for (size_t i = 0; i < SV_ARRAY_SIZE(g_gsi); i++) {
        if (g_gsi[i].ip_be == ip_be)
            return &g_gsi[i];
        if (!g_gsi[i].ip_be && !free_slot)
            free_slot = &g_gsi[i];
    }
    if (create && free_slot)
        free_slot->ip_be = ip_be;
    return create ? free_slot : NULL;
}

int softverbs_gsi_attach(struct ibv_context *context, softverbs_gsi_handler fn, void *arg)
{
    struct sv_context *ctx = sv_ctx_checked(context);
    if (!ctx)
        return EINVAL;
    pthread_mutex_lock(&g_gsi_lock);
    struct gsi_slot *s = slot_of(ctx->ep->ip_be, fn != NULL);
    int rc = 0;
    if (s && fn && s->fn && (s->fn != fn || s->arg != arg))
        rc = EBUSY;                /* one CM per device per process, as one rdma_cm per host */
    else if (s) {
        s->fn = fn;
        s->arg = arg;
    } else if (fn)
        rc = ENOMEM;
    pthread_mutex_unlock(&g_gsi_lock);
    return rc;
}

int softverbs_gsi_send(struct ibv_context *context, uint32_t dst_ip_be, const void *mad, size_t len)
{
    struct sv_context *ctx = sv_ctx_checked(context);
    if (!ctx || !mad || len == 0 || len > SV_GSI_MAD_MAX)
        return EINVAL;
    struct sv_endpoint *ep = ctx->ep;
    pthread_mutex_lock(&g_gsi_lock);
    struct gsi_slot *s = slot_of(ep->ip_be, true);
    uint32_t psn = s ? s->psn : 0;
    if (s)
        s->psn = (s->psn + 1) & 0xFFFFFFu;
    pthread_mutex_unlock(&g_gsi_lock);
    struct sv_pkt p = {.opcode = SV_OP_UD_SEND_ONLY, .pkey = SV_DEFAULT_PKEY, .dest_qpn = 1, .psn = psn,
                       .deth = {.qkey = SV_GSI_QKEY, .src_qpn = 1},
                       .payload = mad, .payload_len = (uint32_t)len};
    struct sv_flow f = {.src_ip_be = ep->ip_be, .dst_ip_be = dst_ip_be,
                        .src_port = SV_ROCE_UDP_PORT, .dst_port = SV_ROCE_UDP_PORT};
    uint8_t buf[SV_GSI_MAD_MAX + 64];
    ssize_t n = sv_pkt_encode(&p, &f, buf, sizeof buf);
    if (n < 0) {
        sv_note(ep, SV_CNT_SEND_ERR, "QP 0x1: cannot encode a %zu-byte MAD (%zd)", len, n);
        return EINVAL;
    }
    sv_udp_send(ep, dst_ip_be, buf, (size_t)n);
    return 0;
}

void sv_gsi_dispatch(struct sv_endpoint *ep, const struct sv_pkt *pkt, uint32_t src_ip_be)
{
    if (pkt->opcode != SV_OP_UD_SEND_ONLY) {
        sv_note(ep, SV_CNT_RCVD_DROPPED, "QP 0x1: %s is not a MAD (QP1 takes UD SEND only)",
                sv_opcode_name(pkt->opcode));
        return;
    }
    if (pkt->deth.qkey != SV_GSI_QKEY) {
        sv_note(ep, SV_CNT_QKEY_VIOLATION, "QP 0x1: Q_Key 0x%08x is not 0x%08x", pkt->deth.qkey, SV_GSI_QKEY);
        return;
    }
    pthread_mutex_lock(&g_gsi_lock);
    struct gsi_slot *s = slot_of(ep->ip_be, false);
    softverbs_gsi_handler fn = s ? s->fn : NULL;
    void *arg = s ? s->arg : NULL;
    pthread_mutex_unlock(&g_gsi_lock);
    if (!fn) {
        sv_note(ep, SV_CNT_RCVD_UNKNOWN_QPN, "QP 0x1: MAD dropped, no connection manager in this process");
        return;
    }
    fn(arg, pkt->payload, pkt->payload_len, src_ip_be, pkt->deth.src_qpn);
}
