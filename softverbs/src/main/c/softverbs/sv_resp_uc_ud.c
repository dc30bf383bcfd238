/* The responder for the unreliable transports: UC (no ACKs; a broken message is dropped until
 * the next FIRST/ONLY, IBA 9.7.5.1.5) and UD (Q_Key check, GRH space, silent drops where RC
 * would NAK; rdma-facts §3.6). qp->lock held. */
#include <string.h>

#include "sv_hdr.h"
#include "sv_loc.h"
#include "sv_pkt.h"

#define SV_GRH_LEN      40
#define SV_MAX_RETH_LEN (1u << 31)

static void uc_abandon(struct sv_qp *qp)
{
    qp->resp.msg = SV_RESP_IDLE;
    qp->resp.offset = 0;   /* a receive WQE already taken is kept for the next message */
    qp->resp.uc_drop = true;
}

void sv_resp_uc(struct sv_qp *qp, const struct sv_pkt *pkt, sv_hdr_mask_t m)
{
    struct sv_resp_state *r = &qp->resp;
    bool start = sv_mask_has(m, SV_HDR_START), end = sv_mask_has(m, SV_HDR_END);
    if (pkt->psn != r->epsn || (start && r->msg != SV_RESP_IDLE))
        uc_abandon(qp);   /* lost packets: IBA 9.7.5.1.5, resynchronise on this PSN */
    r->epsn = sv_psn_add(pkt->psn, 1);
    if (start)
        r->uc_drop = false;
    if (r->uc_drop || !sv_resp_sequence_ok(qp, m) || !sv_resp_qp_allows(qp, m) || pkt->payload_len > qp->mtu ||
        (!end && pkt->payload_len != qp->mtu)) {
        sv_note(qp->ctx->ep, SV_CNT_RCVD_DROPPED, "UC QP 0x%x: %s PSN 0x%06x dropped (broken message, rights or length)",
                qp->ibqp.qp_num, sv_opcode_name(pkt->opcode), pkt->psn);
        uc_abandon(qp);
        return;
    }
    bool needs_wqe = sv_mask_has(m, SV_HDR_RWR) && !r->have_wqe && (start || sv_mask_has(m, SV_HDR_IMMDT));
    if (needs_wqe && !sv_resp_take_wqe(qp)) {
        sv_note(qp->ctx->ep, SV_CNT_RCVD_DROPPED, "UC QP 0x%x: no receive WQE, message dropped", qp->ibqp.qp_num);
        uc_abandon(qp);
        return;
    }
    if (sv_mask_has(m, SV_HDR_SEND)) {
        if (r->offset + pkt->payload_len > sv_resp_wqe_len(qp) ||
            sv_sge_scatter(qp->ctx, sv_resp_recv_pd(qp), r->wqe_sge, r->wqe_nsge, r->offset, pkt->payload,
                           pkt->payload_len) != SV_MEM_OK) {
            sv_note(qp->ctx->ep, SV_CNT_RCVD_DROPPED, "UC QP 0x%x: %s PSN 0x%06x dropped (broken message, rights or length)",
                qp->ibqp.qp_num, sv_opcode_name(pkt->opcode), pkt->psn);
            uc_abandon(qp);
            return;
        }
        r->offset += pkt->payload_len;
        r->msg = end ? SV_RESP_IDLE : SV_RESP_IN_SEND;
        if (end && sv_resp_finish_wqe(qp, IBV_WC_SUCCESS, IBV_WC_RECV, r->offset, pkt->imm_be,
                              sv_mask_has(m, SV_HDR_IMMDT) ? IBV_WC_WITH_IMM : 0, 0, pkt->flags & SV_BTH_SE))
            r->msn++;
        return;
    }
    if (start) {
        if (pkt->reth.len > SV_MAX_RETH_LEN ||
            (pkt->reth.len && sv_rkey_check(qp, pkt->reth.rkey, pkt->reth.va, pkt->reth.len,
                                            IBV_ACCESS_REMOTE_WRITE) != SV_MEM_OK)) {
            sv_note(qp->ctx->ep, SV_CNT_RCVD_DROPPED, "UC QP 0x%x: %s PSN 0x%06x dropped (broken message, rights or length)",
                qp->ibqp.qp_num, sv_opcode_name(pkt->opcode), pkt->psn);
            uc_abandon(qp);
            return;
        }
        r->va = pkt->reth.va;
        r->rkey = pkt->reth.rkey;
        r->resid = r->write_len = pkt->reth.len;
    }
    if (pkt->payload_len > r->resid || (end && pkt->payload_len != r->resid) ||
        (pkt->payload_len && sv_rkey_write(qp, r->rkey, r->va, pkt->payload, pkt->payload_len) != SV_MEM_OK)) {
        sv_note(qp->ctx->ep, SV_CNT_RCVD_DROPPED, "UC QP 0x%x: %s PSN 0x%06x dropped (broken message, rights or length)",
                qp->ibqp.qp_num, sv_opcode_name(pkt->opcode), pkt->psn);
        uc_abandon(qp);
        return;
    }
    r->va += pkt->payload_len;
    r->resid -= pkt->payload_len;
    r->msg = end ? SV_RESP_IDLE : SV_RESP_IN_WRITE;
    if (end && sv_mask_has(m, SV_HDR_IMMDT))
        sv_resp_finish_wqe(qp, IBV_WC_SUCCESS, IBV_WC_RECV_RDMA_WITH_IMM, r->write_len, pkt->imm_be, IBV_WC_WITH_IMM, 0,
                   pkt->flags & SV_BTH_SE);
}

/* ---- UD ---- */

/* The 40 bytes in front of a UD payload: for RoCE v2 over IPv4, 20 zero bytes and the IPv4
 * header of the datagram (rdma-facts §3.6). */
static void make_grh(uint8_t grh[SV_GRH_LEN], uint32_t src_ip_be, uint32_t dst_ip_be, uint32_t udp_payload)
{
    memset(grh, 0, SV_GRH_LEN);
    uint8_t *ip = grh + 20;
    uint16_t total = (uint16_t)(20 + 8 + udp_payload);
    ip[0] = 0x45;
    sv_st_be16(ip + 2, total);
    ip[6] = 0x40;      /* DF */
    ip[8] = 64;        /* TTL */
    ip[9] = 17;        /* UDP */
    memcpy(ip + 12, &src_ip_be, 4);
    memcpy(ip + 16, &dst_ip_be, 4);
    uint32_t sum = 0;
    for (int i = 0; i < 20; i += 2)
        sum += (uint32_t)(ip[i] << 8 | ip[i + 1]);
    while (sum >> 16)
        sum = (sum & 0xFFFF) + (sum >> 16);
    sv_st_be16(ip + 10, (uint16_t)~sum);
}

void sv_resp_ud(struct sv_qp *qp, const struct sv_pkt *pkt, sv_hdr_mask_t m, uint32_t src_ip_be)
{
    if (pkt->deth.qkey != qp->attr.qkey) {
        /* port qkey_viol_cntr (IBA 10.2.4) */
        sv_note(qp->ctx->ep, SV_CNT_QKEY_VIOLATION, "UD QP 0x%x: Q_Key 0x%08x, expected 0x%08x", qp->ibqp.qp_num,
                pkt->deth.qkey, qp->attr.qkey);
        return;
    }
    struct sv_rq *rq = qp->srq ? &qp->srq->rq : &qp->rq;
    uint32_t room;
    if (!sv_rq_front_len(rq, &room) || room < SV_GRH_LEN + pkt->payload_len) {
        /* no WQE, or too small: silently dropped */
        sv_note(qp->ctx->ep, SV_CNT_RCVD_DROPPED, "UD QP 0x%x: no receive WQE of %u bytes (payload + GRH)",
                qp->ibqp.qp_num, SV_GRH_LEN + pkt->payload_len);
        return;
    }
    if (!sv_resp_take_wqe(qp))
        return;
    uint8_t grh[SV_GRH_LEN];
    make_grh(grh, src_ip_be, qp->ctx->ep->ip_be, (uint32_t)sv_pkt_wire_len(pkt->opcode, pkt->payload_len));
    struct sv_resp_state *r = &qp->resp;
    if (sv_sge_scatter(qp->ctx, sv_resp_recv_pd(qp), r->wqe_sge, r->wqe_nsge, 0, grh, SV_GRH_LEN) != SV_MEM_OK ||
        sv_sge_scatter(qp->ctx, sv_resp_recv_pd(qp), r->wqe_sge, r->wqe_nsge, SV_GRH_LEN, pkt->payload,
                       pkt->payload_len) != SV_MEM_OK) {
        if (sv_resp_finish_wqe(qp, IBV_WC_LOC_PROT_ERR, IBV_WC_RECV, 0, 0, 0, 0, false))
            sv_qp_error(qp, -1);
        return;
    }
    unsigned int flags = IBV_WC_GRH | (sv_mask_has(m, SV_HDR_IMMDT) ? IBV_WC_WITH_IMM : 0);
    sv_resp_finish_wqe(qp, IBV_WC_SUCCESS, IBV_WC_RECV, SV_GRH_LEN + pkt->payload_len, pkt->imm_be, flags,
               pkt->deth.src_qpn, pkt->flags & SV_BTH_SE);
}
