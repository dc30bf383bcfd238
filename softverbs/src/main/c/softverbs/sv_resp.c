/* The responder: executes incoming requests (SEND into receive WQEs, RDMA WRITE/READ and
 * atomics through R_Keys), checks PSNs, opcode sequence, lengths and rights in the order rxe
 * does (PSN, sequence, QP rights, RNR, length, R_Key), and answers with ACKs, NAKs and READ
 * responses (rdma-facts §3.6). UC and UD are in sv_resp_uc_ud.c. qp->lock held. */
#include <string.h>

#include "sv_hdr.h"
#include "sv_loc.h"
#include "sv_pkt.h"

#define SV_MAX_RETH_LEN (1u << 31)

/* ---- answers ---- */

static void send_aeth(struct sv_qp *qp, uint8_t opcode, uint8_t syndrome, uint32_t psn, uint64_t orig)
{
    struct sv_pkt p;
    memset(&p, 0, sizeof p);
    p.opcode = opcode;
    p.pkey = SV_DEFAULT_PKEY;
    p.dest_qpn = qp->attr.dest_qp_num;
    p.psn = psn;
    p.aeth.syndrome = syndrome;
    p.aeth.msn = qp->resp.msn & SV_MSN_MASK;
    p.atmack_orig = orig;
    sv_qp_xmit(qp, &p, qp->dst_ip_be, qp->routable);
}

static void send_ack(struct sv_qp *qp, uint32_t psn)
{
    send_aeth(qp, SV_OP_RC_ACKNOWLEDGE, SV_AETH_ACK_SYNDROME, psn, 0);
}

/* A NAK that ends the connection: the responder QP goes to ERR as well (rxe "class C/D"
 * errors); the affiliated event says why (IBA 11.6.3.1), -1 when a completion says it. */
static void fatal_nak(struct sv_qp *qp, uint8_t code, uint32_t psn, int event)
{
    sv_log(qp->ctx->ep, "QP 0x%x: NAK 0x%02x for PSN 0x%06x, QP -> ERR", qp->ibqp.qp_num, code, psn);
    send_aeth(qp, SV_OP_RC_ACKNOWLEDGE, code, psn, 0);
    sv_qp_error(qp, event);
}

/* ---- receive WQEs ---- */

struct sv_pd *sv_resp_recv_pd(struct sv_qp *qp)
{
    return qp->srq ? qp->srq->pd : qp->pd;
}

bool sv_resp_take_wqe(struct sv_qp *qp)
{
    struct sv_resp_state *r = &qp->resp;
    bool ok = qp->srq ? sv_srq_pop(qp->srq, &r->wqe_id, r->wqe_sge, &r->wqe_nsge)
                      : sv_rq_pop(&qp->rq, &r->wqe_id, r->wqe_sge, &r->wqe_nsge);
    if (ok) {
        r->have_wqe = true;
        r->offset = 0;
    }
    return ok;
}

/* Completes the receive WQE in progress; false if the CQ overflowed (QP then in ERR). */
bool sv_resp_finish_wqe(struct sv_qp *qp, enum ibv_wc_status st, enum ibv_wc_opcode op, uint32_t byte_len,
                       uint32_t imm_be, unsigned int flags, uint32_t src_qp, bool solicited)
{
    qp->resp.have_wqe = false;
    if (sv_qp_complete_recv(qp, qp->resp.wqe_id, st, op, byte_len, imm_be, flags, src_qp, solicited))
        return true;
    /* receive CQ overrun: no ACK, QP to ERR (rxe); the CQ already raised CQ_ERR */
    sv_qp_error(qp, IBV_EVENT_QP_FATAL);
    return false;
}

uint32_t sv_resp_wqe_len(struct sv_qp *qp)
{
    return sv_sge_total(qp->resp.wqe_sge, qp->resp.wqe_nsge);
}

/* ---- RC ---- */

static uint32_t packets_for(uint32_t length, uint32_t mtu)
{
    return length == 0 ? 1 : (length + mtu - 1) / mtu;
}

static void read_responses(struct sv_qp *qp, uint32_t psn, uint64_t va, uint32_t rkey, uint32_t len)
{
    uint8_t buf[4096];
    uint32_t mtu = qp->mtu, n = packets_for(len, mtu);
    for (uint32_t i = 0; i < n && qp->state != IBV_QPS_ERR; i++) {
        uint32_t off = i * mtu, chunk = len - off < mtu ? len - off : mtu;
        struct sv_pkt p;
        memset(&p, 0, sizeof p);
        p.opcode = n == 1 ? SV_OP_RC_RDMA_READ_RESPONSE_ONLY
                 : i == 0 ? SV_OP_RC_RDMA_READ_RESPONSE_FIRST
                 : i == n - 1 ? SV_OP_RC_RDMA_READ_RESPONSE_LAST : SV_OP_RC_RDMA_READ_RESPONSE_MIDDLE;
        p.pkey = SV_DEFAULT_PKEY;
        p.dest_qpn = qp->attr.dest_qp_num;
        p.psn = sv_psn_add(psn, i);
        p.aeth.syndrome = SV_AETH_ACK_SYNDROME;
        p.aeth.msn = qp->resp.msn & SV_MSN_MASK;
        if (sv_rkey_read(qp, rkey, va + off, buf, chunk) != SV_MEM_OK) {
            fatal_nak(qp, SV_NAK_REM_ACCESS_ERR, p.psn, IBV_EVENT_QP_ACCESS_ERR);
            return;
        }
        p.payload = buf;
        p.payload_len = chunk;
        sv_qp_xmit(qp, &p, qp->dst_ip_be, qp->routable);
    }
}

/* IBA 9.7.5.1.2/9.7.5.2.6: duplicates are acknowledged again, READs re-executed, atomics
 * answered from the saved result - never executed twice. */
static void rc_duplicate(struct sv_qp *qp, const struct sv_pkt *pkt, sv_hdr_mask_t m)
{
    sv_note(qp->ctx->ep, SV_CNT_DUPLICATE_REQUEST, "QP 0x%x: duplicate %s PSN 0x%06x (ePSN 0x%06x)",
            qp->ibqp.qp_num, sv_opcode_name(pkt->opcode), pkt->psn, qp->resp.epsn);
    if (sv_mask_has(m, SV_HDR_READ)) {
        if (pkt->reth.len <= SV_MAX_RETH_LEN &&
            (pkt->reth.len == 0 || sv_rkey_check(qp, pkt->reth.rkey, pkt->reth.va,
                                                 pkt->reth.len, IBV_ACCESS_REMOTE_READ) == SV_MEM_OK))
            read_responses(qp, pkt->psn, pkt->reth.va, pkt->reth.rkey, pkt->reth.len);
        return;
    }
    if (sv_mask_has(m, SV_HDR_ATOMIC)) {
        for (int i = 0; i < SV_ATOMIC_SAVED; i++) {
            const struct sv_atomic_saved *s = &qp->resp.atomic[i];
            if (s->valid && s->psn == pkt->psn) {
                send_aeth(qp, SV_OP_RC_ATOMIC_ACKNOWLEDGE, SV_AETH_ACK_SYNDROME, s->psn, s->orig);
                return;
            }
        }
        return;   /* too old to replay: silently dropped */
    }
    send_ack(qp, sv_psn_add(qp->resp.epsn, SV_PSN_MASK));   /* ePSN - 1 */
}

bool sv_resp_sequence_ok(const struct sv_qp *qp, sv_hdr_mask_t m)
{
    switch (qp->resp.msg) {
    case SV_RESP_IDLE: return sv_mask_has(m, SV_HDR_START);
    case SV_RESP_IN_SEND: return !sv_mask_has(m, SV_HDR_START) && sv_mask_has(m, SV_HDR_SEND);
    case SV_RESP_IN_WRITE: return !sv_mask_has(m, SV_HDR_START) && sv_mask_has(m, SV_HDR_WRITE);
    case SV_RESP__COUNT: break;
    }
    return false;
}

bool sv_resp_qp_allows(const struct sv_qp *qp, sv_hdr_mask_t m)
{
    unsigned int acc = qp->attr.qp_access_flags;
    if (sv_mask_has(m, SV_HDR_WRITE))
        return acc & IBV_ACCESS_REMOTE_WRITE;
    if (sv_mask_has(m, SV_HDR_READ))
        return acc & IBV_ACCESS_REMOTE_READ;
    if (sv_mask_has(m, SV_HDR_ATOMIC))
        return acc & IBV_ACCESS_REMOTE_ATOMIC;
    return true;
}

static void rc_send(struct sv_qp *qp, const struct sv_pkt *pkt, sv_hdr_mask_t m)
{
    struct sv_resp_state *r = &qp->resp;
    bool end = sv_mask_has(m, SV_HDR_END);
    if (r->offset + pkt->payload_len > sv_resp_wqe_len(qp)) {
        /* message longer than the receive buffer (IBA 9.7.5.2.4: Invalid Request) */
        if (sv_resp_finish_wqe(qp, IBV_WC_LOC_LEN_ERR, IBV_WC_RECV, 0, 0, 0, 0, false))
            fatal_nak(qp, SV_NAK_INVALID_REQ, pkt->psn, -1);
        return;
    }
    if (sv_sge_scatter(qp->ctx, sv_resp_recv_pd(qp), r->wqe_sge, r->wqe_nsge, r->offset, pkt->payload,
                       pkt->payload_len) != SV_MEM_OK) {
        /* a bad receive SGE: Remote Operational Error for the requester */
        if (sv_resp_finish_wqe(qp, IBV_WC_LOC_PROT_ERR, IBV_WC_RECV, 0, 0, 0, 0, false))
            fatal_nak(qp, SV_NAK_REM_OP_ERR, pkt->psn, -1);
        return;
    }
    r->offset += pkt->payload_len;
    r->msg = end ? SV_RESP_IDLE : SV_RESP_IN_SEND;
    if (!end)
        return;
    unsigned int flags = 0;
    enum ibv_wc_status st = IBV_WC_SUCCESS;
    if (sv_mask_has(m, SV_HDR_IMMDT))
        flags |= IBV_WC_WITH_IMM;
    if (sv_mask_has(m, SV_HDR_IETH)) {
        /* a bound type 2 window is freed; user MRs cannot be invalidated (rxe: class J error) */
        flags |= IBV_WC_WITH_INV;
        if (sv_mw_invalidate_remote(qp, pkt->ieth_rkey) != 0)
            st = IBV_WC_REM_INV_REQ_ERR;
    }
    uint32_t imm = sv_mask_has(m, SV_HDR_IETH) ? pkt->ieth_rkey : pkt->imm_be;
    if (!sv_resp_finish_wqe(qp, st, IBV_WC_RECV, r->offset, imm, flags, 0, pkt->flags & SV_BTH_SE))
        return;
    r->msn++;
    if (st != IBV_WC_SUCCESS)
        sv_qp_error(qp, -1);
}

static bool rc_write(struct sv_qp *qp, const struct sv_pkt *pkt, sv_hdr_mask_t m)
{
    struct sv_resp_state *r = &qp->resp;
    bool start = sv_mask_has(m, SV_HDR_START), end = sv_mask_has(m, SV_HDR_END);
    if (start) {
        if (pkt->reth.len > SV_MAX_RETH_LEN) {
            fatal_nak(qp, SV_NAK_INVALID_REQ, pkt->psn, IBV_EVENT_QP_REQ_ERR);
            return false;
        }
        /* a zero-length WRITE skips the R_Key check (IBA 9.7.5.1.4) */
        if (pkt->reth.len && sv_rkey_check(qp, pkt->reth.rkey, pkt->reth.va, pkt->reth.len,
                                           IBV_ACCESS_REMOTE_WRITE) != SV_MEM_OK) {
            fatal_nak(qp, SV_NAK_REM_ACCESS_ERR, pkt->psn, IBV_EVENT_QP_ACCESS_ERR);
            return false;
        }
        r->va = pkt->reth.va;
        r->rkey = pkt->reth.rkey;
        r->resid = r->write_len = pkt->reth.len;
        sv_count(qp->ctx->ep, SV_CNT_RDMA_RECVS);
    }
    if (pkt->payload_len > r->resid || (end && pkt->payload_len != r->resid)) {
        fatal_nak(qp, SV_NAK_INVALID_REQ, pkt->psn, IBV_EVENT_QP_REQ_ERR);   /* length mismatch */
        return false;
    }
    if (pkt->payload_len &&
        sv_rkey_write(qp, r->rkey, r->va, pkt->payload, pkt->payload_len) != SV_MEM_OK) {
        fatal_nak(qp, SV_NAK_REM_ACCESS_ERR, pkt->psn, IBV_EVENT_QP_ACCESS_ERR);
        return false;
    }
    r->va += pkt->payload_len;
    r->resid -= pkt->payload_len;
    r->msg = end ? SV_RESP_IDLE : SV_RESP_IN_WRITE;
    if (!end)
        return true;
    if (sv_mask_has(m, SV_HDR_IMMDT)) {
        if (!sv_resp_finish_wqe(qp, IBV_WC_SUCCESS, IBV_WC_RECV_RDMA_WITH_IMM, r->write_len, pkt->imm_be,
                        IBV_WC_WITH_IMM, 0, pkt->flags & SV_BTH_SE))
            return false;
    }
    r->msn++;
    return true;
}

static void rc_read(struct sv_qp *qp, const struct sv_pkt *pkt)
{
    if (pkt->reth.len > SV_MAX_RETH_LEN) {
        fatal_nak(qp, SV_NAK_INVALID_REQ, pkt->psn, IBV_EVENT_QP_REQ_ERR);
        return;
    }
    if (pkt->reth.len && sv_rkey_check(qp, pkt->reth.rkey, pkt->reth.va, pkt->reth.len,
                                       IBV_ACCESS_REMOTE_READ) != SV_MEM_OK) {
        fatal_nak(qp, SV_NAK_REM_ACCESS_ERR, pkt->psn, IBV_EVENT_QP_ACCESS_ERR);
        return;
    }
    sv_count(qp->ctx->ep, SV_CNT_RDMA_RECVS);
    qp->resp.msn++;
    uint32_t n = packets_for(pkt->reth.len, qp->mtu);
    qp->resp.epsn = sv_psn_add(pkt->psn, n);   /* the request consumed one PSN per response */
    read_responses(qp, pkt->psn, pkt->reth.va, pkt->reth.rkey, pkt->reth.len);
}

static void rc_atomic(struct sv_qp *qp, const struct sv_pkt *pkt)
{
    if (pkt->atmeth.va & 7) {
        fatal_nak(qp, SV_NAK_INVALID_REQ, pkt->psn, IBV_EVENT_QP_REQ_ERR);   /* misaligned */
        return;
    }
    uint64_t orig = 0;
    if (sv_rkey_atomic(qp, pkt->atmeth.rkey, pkt->atmeth.va, pkt->opcode == SV_OP_RC_COMPARE_SWAP,
                       pkt->atmeth.swap_add, pkt->atmeth.compare, &orig) != SV_MEM_OK) {
        fatal_nak(qp, SV_NAK_REM_ACCESS_ERR, pkt->psn, IBV_EVENT_QP_ACCESS_ERR);
        return;
    }
    struct sv_atomic_saved *s = &qp->resp.atomic[qp->resp.atomic_next++ % SV_ATOMIC_SAVED];
    s->psn = pkt->psn;
    s->orig = orig;
    s->valid = true;
    qp->resp.msn++;
    qp->resp.epsn = sv_psn_add(pkt->psn, 1);
    send_aeth(qp, SV_OP_RC_ATOMIC_ACKNOWLEDGE, SV_AETH_ACK_SYNDROME, pkt->psn, orig);
}

static void rc_request(struct sv_qp *qp, const struct sv_pkt *pkt, sv_hdr_mask_t m)
{
    struct sv_resp_state *r = &qp->resp;
    int cmp = sv_psn_compare(pkt->psn, r->epsn);
    if (cmp > 0) {
        /* a gap: one PSN Sequence Error NAK carrying ePSN, then silence until it arrives */
        sv_note(qp->ctx->ep, SV_CNT_OUT_OF_SEQ_REQUEST, "QP 0x%x: PSN 0x%06x ahead of ePSN 0x%06x (%s)%s",
                qp->ibqp.qp_num, pkt->psn, r->epsn, sv_resp_msg_name[r->msg],
                r->nak_sent ? ", dropped behind the NAK already sent" : ", sequence NAK sent");
        if (!r->nak_sent) {
            r->nak_sent = true;
            send_aeth(qp, SV_OP_RC_ACKNOWLEDGE, SV_NAK_PSN_SEQ_ERR, r->epsn, 0);
        }
        return;
    }
    if (cmp < 0) {
        rc_duplicate(qp, pkt, m);
        return;
    }
    r->nak_sent = false;
    if (!sv_resp_sequence_ok(qp, m) || !sv_resp_qp_allows(qp, m) ||
        ((sv_mask_has(m, SV_HDR_READ) || sv_mask_has(m, SV_HDR_ATOMIC)) && qp->attr.max_dest_rd_atomic == 0)) {
        /* broken FIRST/MIDDLE/LAST order, an operation the QP does not permit, or a READ/atomic
         * with no responder resources: Invalid Request (rxe) */
        fatal_nak(qp, SV_NAK_INVALID_REQ, pkt->psn, IBV_EVENT_QP_REQ_ERR);
        return;
    }
    /* FIRST/MIDDLE carry exactly the path MTU, LAST/ONLY at most that (C9-88/C9-89) */
    bool end = sv_mask_has(m, SV_HDR_END);
    if (pkt->payload_len > qp->mtu || (!end && pkt->payload_len != qp->mtu)) {
        fatal_nak(qp, SV_NAK_INVALID_REQ, pkt->psn, IBV_EVENT_QP_REQ_ERR);
        return;
    }
    /* a receive WQE is needed before anything is placed; none posted means RNR NAK */
    bool needs_wqe = sv_mask_has(m, SV_HDR_RWR) && !r->have_wqe &&
                     (sv_mask_has(m, SV_HDR_START) || sv_mask_has(m, SV_HDR_IMMDT));
    if (needs_wqe && !sv_resp_take_wqe(qp)) {
        sv_note(qp->ctx->ep, SV_CNT_SEND_RNR_ERR, "QP 0x%x: no receive WQE for %s PSN 0x%06x, RNR NAK",
                qp->ibqp.qp_num, sv_opcode_name(pkt->opcode), pkt->psn);
        send_aeth(qp, SV_OP_RC_ACKNOWLEDGE, sv_aeth_rnr_syndrome(qp->attr.min_rnr_timer), pkt->psn, 0);
        /* ePSN unchanged: the requester retries this PSN. An RNR NAK is a class B error like a
         * sequence NAK (IBA 9.7.5.2.8): the packets already in flight behind it are dropped
         * silently until the retry arrives, so they cost the requester no transport retry. */
        r->nak_sent = true;
        return;
    }
    if (sv_mask_has(m, SV_HDR_READ)) {
        rc_read(qp, pkt);
        return;
    }
    if (sv_mask_has(m, SV_HDR_ATOMIC)) {
        rc_atomic(qp, pkt);
        return;
    }
    if (sv_mask_has(m, SV_HDR_SEND))
        rc_send(qp, pkt, m);
    else if (!rc_write(qp, pkt, m))
        return;
    if (qp->state == IBV_QPS_ERR)
        return;
    r->epsn = sv_psn_add(pkt->psn, 1);
    if (pkt->flags & SV_BTH_ACKREQ)
        send_ack(qp, pkt->psn);
}

void sv_resp_handle(struct sv_qp *qp, const struct sv_pkt *pkt, uint32_t src_ip_be)
{
    /* requests are accepted from RTR on (rdma-facts §3.6); below RTR and in ERR dropped */
    if (qp->state < IBV_QPS_RTR || qp->state == IBV_QPS_ERR) {
        sv_note(qp->ctx->ep, SV_CNT_RCVD_DROPPED, "QP 0x%x: %s dropped in state %s", qp->ibqp.qp_num,
                sv_opcode_name(pkt->opcode), sv_qp_state_name[qp->state]);
        return;
    }
    sv_hdr_mask_t m = sv_opcode_info(pkt->opcode)->mask;
    if (qp->ibqp.qp_type == IBV_QPT_UD) {
        sv_resp_ud(qp, pkt, m, src_ip_be);
        return;
    }
    /* a connected QP takes packets from its peer's address only */
    if (!qp->routable || src_ip_be != qp->dst_ip_be) {
        sv_note(qp->ctx->ep, SV_CNT_RCVD_DROPPED, "QP 0x%x: %s from an address that is not this QP's peer",
                qp->ibqp.qp_num, sv_opcode_name(pkt->opcode));
        return;
    }
    if (qp->state == IBV_QPS_RTR && !qp->resp.comm_est_sent) {
        qp->resp.comm_est_sent = true;   /* IBA 11.6.3.1: first packet received in RTR */
        sv_ctx_async_event(qp->ctx, IBV_EVENT_COMM_EST, SV_EVOBJ_QP, qp->uid);
    }
    if (qp->ibqp.qp_type == IBV_QPT_RC)
        rc_request(qp, pkt, m);
    else
        sv_resp_uc(qp, pkt, m);
}
