/* The completer: turns ACKs, NAKs and READ/atomic responses into send completions, and acts
 * when the retransmit or RNR timer expires (rdma-facts §3.4, §3.7). The timers themselves are in
 * sv_progress.c, completion building and the flush on error in sv_wc.c. Everything here runs
 * with qp->lock held. */
#include <string.h>

#include "sv_hdr.h"
#include "sv_loc.h"
#include "sv_pkt.h"

/* min_rnr_timer / RNR NAK timer codes in units of 10 us (IBA table 45; rdma-facts §3.4) */
static const uint32_t rnr_timer_10us[32] = {
    65536, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192,
    256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768, 49152,
};

static void retry(struct sv_qp *qp)
{
    sv_note(qp->ctx->ep, SV_CNT_COMPLETER_RETRY_ERR, "QP 0x%x: retry from PSN 0x%06x, %u retries left "
            "(requester %s, completer %s)", qp->ibqp.qp_num, qp->comp.psn, qp->comp.retry_left,
            sv_req_stage_name[sv_req_stage_of(qp)], sv_comp_stage_name[sv_comp_stage_of(qp)]);
    if (qp->comp.retry_left == 0) {
        sv_note(qp->ctx->ep, SV_CNT_RETRY_EXCEEDED_ERR, "QP 0x%x: retry_cnt %u exhausted", qp->ibqp.qp_num,
                qp->attr.retry_cnt);
        sv_qp_fail_at(qp, qp->sq.head, IBV_WC_RETRY_EXC_ERR);
        return;
    }
    /* IBA has no infinite retry_cnt; rxe never decrements 7 (personality retry7-infinite) */
    bool infinite = qp->comp.retry_left == 7 && (qp->ctx->dev->cfg.quirks & SV_QUIRK_RETRY7_INFINITE);
    if (!infinite)
        qp->comp.retry_left--;
    qp->comp.retrying = true;
    sv_req_schedule(qp, true);
}

static void retrans_timeout(struct sv_qp *qp)
{
    if (qp->comp.psn == qp->req.psn)
        return;   /* everything sent has been acknowledged */
    struct sv_endpoint *ep = qp->ctx->ep;
    const struct sv_send_wqe *w = sv_sq_at(qp, qp->req.idx);
    bool mid = qp->req.idx != qp->sq.tail && w->started && qp->req.offset > 0;
    sv_note(ep, SV_CNT_LOCAL_ACK_TIMEOUT_ERR, "QP 0x%x: no ACK for PSN 0x%06x within %llu us (%u PSNs out, "
            "last sent PSN 0x%06x%s; requester %s, completer %s; device %d of %d in flight)",
            qp->ibqp.qp_num, qp->comp.psn, (unsigned long long)(sv_qp_timeout_ns(qp) / 1000),
            (qp->req.psn - qp->comp.psn) & SV_PSN_MASK, (qp->req.psn - 1) & SV_PSN_MASK,
            mid ? ", inside a message" : "", sv_req_stage_name[sv_req_stage_of(qp)],
            sv_comp_stage_name[sv_comp_stage_of(qp)], atomic_load(&ep->tx_inflight), ep->tx_limit);
    retry(qp);
}

void sv_comp_task(void *arg)
{
    struct sv_qp *qp = arg;
    if (qp->comp.rnr_expired) {   /* the RNR wait is over: retry from the NAKed PSN */
        qp->comp.rnr_expired = false;
        sv_req_schedule(qp, true);
    }
    if (qp->comp.timed_out) {
        qp->comp.timed_out = false;
        retrans_timeout(qp);
    }
}

/* ---- acknowledgements ---- */

/* Completes, in order, the WQEs an acknowledgement through `psn` covers (ACKs are cumulative,
 * IBA 9.7.5.1.1); `inclusive` = the WQE ending at psn is covered too. A READ or atomic WQE
 * completes only through its response: if an ACK covers one, its response was lost, and true
 * is returned so the caller retries (rxe COMPST_ERROR_RETRY). */
static bool ack_through(struct sv_qp *qp, uint32_t psn, bool inclusive)
{
    while (qp->sq.head != qp->sq.tail) {
        struct sv_send_wqe *w = sv_sq_at(qp, qp->sq.head);
        if (!w->started)
            break;
        int cmp = sv_psn_compare(w->last_psn, psn);
        if (inclusive ? cmp > 0 : cmp >= 0)
            break;
        if (sv_wqe_is_rd_atomic(w))
            return true;
        sv_qp_complete_head(qp, IBV_WC_SUCCESS);
    }
    return false;
}

static void advance_psn(struct sv_qp *qp, uint32_t psn)
{
    if (sv_psn_compare(psn, qp->comp.psn) > 0)
        qp->comp.psn = psn;
}

/* The head READ/atomic lost its response: the retry resumes at its first missing PSN. */
static void resume_at_head(struct sv_qp *qp)
{
    struct sv_send_wqe *w = sv_sq_at(qp, qp->sq.head);
    uint32_t got = w->opcode == IBV_WR_RDMA_READ ? qp->comp.read_rcvd / qp->mtu : 0;
    qp->comp.psn = sv_psn_add(w->first_psn, got);
}

static void progress(struct sv_qp *qp)
{
    qp->comp.retry_left = qp->attr.retry_cnt;   /* counters reload on forward progress */
    qp->comp.rnr_left = qp->attr.rnr_retry;
    qp->comp.retrying = false;
    sv_qp_restart_retrans(qp);
}

static enum ibv_wc_status nak_status(uint8_t syndrome)
{
    switch (syndrome) {
    case SV_NAK_INVALID_REQ: return IBV_WC_REM_INV_REQ_ERR;
    case SV_NAK_REM_ACCESS_ERR: return IBV_WC_REM_ACCESS_ERR;
    case SV_NAK_INVALID_RD_REQ: return IBV_WC_REM_INV_RD_REQ_ERR;
    default: return IBV_WC_REM_OP_ERR;   /* Remote Operational Error and reserved codes */
    }
}

static void handle_ack(struct sv_qp *qp, const struct sv_pkt *pkt)
{
    uint32_t psn = pkt->psn;
    uint8_t syn = pkt->aeth.syndrome;
    uint8_t type = sv_aeth_type(syn);

    if (type == SV_AETH_TYPE_ACK) {
        if (sv_psn_compare(psn, qp->comp.psn) < 0)
            return;   /* a re-ACK of something already complete */
        bool lost_response = ack_through(qp, psn, pkt->opcode != SV_OP_RC_ATOMIC_ACKNOWLEDGE);
        if (pkt->opcode == SV_OP_RC_ATOMIC_ACKNOWLEDGE && qp->sq.head != qp->sq.tail) {
            struct sv_send_wqe *w = sv_sq_at(qp, qp->sq.head);
            if (w->started && w->first_psn == psn &&
                (w->opcode == IBV_WR_ATOMIC_CMP_AND_SWP || w->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD)) {
                uint64_t orig = pkt->atmack_orig;
                if (sv_sge_scatter(qp->ctx, qp->pd, w->sge, w->num_sge, 0, &orig, 8) != SV_MEM_OK) {
                    sv_qp_fail_at(qp, qp->sq.head, IBV_WC_LOC_PROT_ERR);
                    return;
                }
                sv_qp_complete_head(qp, IBV_WC_SUCCESS);
            }
        }
        if (lost_response) {
            resume_at_head(qp);
            retry(qp);
            return;
        }
        advance_psn(qp, sv_psn_add(psn, 1));
        progress(qp);
        return;
    }
    if (type == SV_AETH_TYPE_RNR_NAK) {
        sv_note(qp->ctx->ep, SV_CNT_RCVD_RNR_ERR, "QP 0x%x: RNR NAK for PSN 0x%06x, timer code %u, %u RNR retries left",
                qp->ibqp.qp_num, psn, sv_aeth_value(syn), qp->comp.rnr_left);
        if (sv_psn_compare(psn, qp->comp.psn) < 0)
            return;
        if (qp->comp.rnr_at && psn == qp->comp.psn)
            return;   /* a second NAK for the PSN whose RNR wait already runs */
        ack_through(qp, psn, false);   /* everything before the NAKed PSN arrived */
        advance_psn(qp, psn);
        if (qp->comp.rnr_left == 0) {
            sv_note(qp->ctx->ep, SV_CNT_RETRY_RNR_EXCEEDED_ERR, "QP 0x%x: rnr_retry %u exhausted",
                    qp->ibqp.qp_num, qp->attr.rnr_retry);
            sv_qp_fail_at(qp, qp->sq.head, IBV_WC_RNR_RETRY_EXC_ERR);
            return;
        }
        if (qp->comp.rnr_left != 7)   /* rnr_retry 7 = retry forever (IBA 9.7.5.2.8) */
            qp->comp.rnr_left--;
        qp->comp.retrans_at = 0;
        qp->comp.retrying = true;   /* the RNR timer rewinds to psn: NAKs for it add nothing */
        sv_qp_arm_rnr(qp, sv_now_ns() + (uint64_t)rnr_timer_10us[sv_aeth_value(syn)] * 10000ull);
        /* what followed the NAKed PSN is dropped by the responder: the requester rewinds now, so
         * it stops counting against the device while the timer runs (it sends nothing in the RNR
         * wait; the timer rewinds again) */
        sv_req_schedule(qp, true);
        return;
    }
    if (syn == SV_NAK_PSN_SEQ_ERR) {
        sv_note(qp->ctx->ep, SV_CNT_RCVD_SEQ_ERR, "QP 0x%x: PSN sequence NAK, responder expects 0x%06x%s",
                qp->ibqp.qp_num, psn, sv_psn_compare(psn, qp->comp.psn) < 0 ? " (stale: ignored)" : "");
        if (sv_psn_compare(psn, qp->comp.psn) < 0)
            return;   /* stale: rxe ignores a NAK for a PSN already passed */
        if (qp->comp.retrying && psn == qp->comp.psn) {
            /* a retry from this PSN is already under way (after a timeout, an RNR NAK or an
             * earlier NAK for it): starting another would cost a retry for nothing (rxe) */
            sv_log(qp->ctx->ep, "QP 0x%x: sequence NAK for PSN 0x%06x ignored, retry already under way",
                   qp->ibqp.qp_num, psn);
            return;
        }
        if (ack_through(qp, psn, false))
            resume_at_head(qp);
        else
            advance_psn(qp, psn);
        retry(qp);    /* a sequence NAK consumes retry_cnt like a timeout (IBA 9.7.5.2.2) */
        return;
    }
    if (type == SV_AETH_TYPE_NAK) {
        if (sv_psn_compare(psn, qp->comp.psn) < 0)
            return;
        ack_through(qp, psn, false);
        sv_qp_fail_at(qp, qp->sq.head, nak_status(syn));
    }
    /* reserved syndromes (0x40-0x5F) are ignored */
}

static void handle_read_response(struct sv_qp *qp, const struct sv_pkt *pkt, sv_hdr_mask_t m)
{
    uint32_t psn = pkt->psn;
    if (psn != qp->comp.psn)
        return;   /* duplicate, or a gap: the retransmit timer asks again */
    ack_through(qp, psn, false);   /* a response implies every earlier request arrived */
    if (qp->sq.head == qp->sq.tail)
        return;
    struct sv_send_wqe *w = sv_sq_at(qp, qp->sq.head);
    if (!w->started || w->opcode != IBV_WR_RDMA_READ || sv_psn_compare(psn, w->first_psn) < 0 ||
        sv_psn_compare(psn, w->last_psn) > 0)
        return;
    bool last = sv_mask_has(m, SV_HDR_END);
    uint32_t expect = w->length - qp->comp.read_rcvd;
    if (expect > qp->mtu)
        expect = qp->mtu;
    /* FIRST/MIDDLE carry exactly the path MTU, LAST/ONLY the rest (IBA 9.7.5.1.3) */
    if (pkt->payload_len != expect || (last != (qp->comp.read_rcvd + expect == w->length))) {
        sv_qp_fail_at(qp, qp->sq.head, IBV_WC_BAD_RESP_ERR);
        return;
    }
    if (sv_sge_scatter(qp->ctx, qp->pd, w->sge, w->num_sge, qp->comp.read_rcvd, pkt->payload,
                       pkt->payload_len) != SV_MEM_OK) {
        sv_qp_fail_at(qp, qp->sq.head, IBV_WC_LOC_PROT_ERR);
        return;
    }
    qp->comp.read_rcvd += pkt->payload_len;
    qp->comp.psn = sv_psn_add(psn, 1);
    if (last)
        sv_qp_complete_head(qp, IBV_WC_SUCCESS);
    progress(qp);
}

void sv_comp_handle(struct sv_qp *qp, const struct sv_pkt *pkt)
{
    /* responses are accepted from RTS on (rdma-facts §3.6); an ERR QP ignores them */
    if (qp->state != IBV_QPS_RTS && qp->state != IBV_QPS_SQD && qp->state != IBV_QPS_SQE) {
        sv_note(qp->ctx->ep, SV_CNT_RCVD_DROPPED, "QP 0x%x: %s dropped in state %s", qp->ibqp.qp_num,
                sv_opcode_name(pkt->opcode), sv_qp_state_name[qp->state]);
        return;
    }
    if (sv_psn_compare(pkt->psn, qp->req.psn) >= 0) {
        sv_note(qp->ctx->ep, SV_CNT_RCVD_DROPPED, "QP 0x%x: %s for PSN 0x%06x, which was never sent",
                qp->ibqp.qp_num, sv_opcode_name(pkt->opcode), pkt->psn);
        return;
    }
    const struct sv_opcode_info *info = sv_opcode_info(pkt->opcode);
    if (sv_mask_has(info->mask, SV_HDR_READ))
        handle_read_response(qp, pkt, info->mask);
    else
        handle_ack(qp, pkt);
    sv_qp_tx_sync(qp);   /* acknowledged PSNs no longer count against the device */
    if (qp->state == IBV_QPS_ERR)
        return;
    sv_qp_complete_local_heads(qp);
    sv_comp_check_drained(qp);
    sv_req_schedule(qp, false);   /* acknowledged PSNs open the window */
}
