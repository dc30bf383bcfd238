/* The completer: turns ACKs, NAKs and READ/atomic responses into send completions, runs the
 * retransmit and RNR timers (rdma-facts §3.4, §3.7), and moves a QP to ERR with its queues
 * flushed. Everything here runs with qp->lock held. */
#include <string.h>

#include "sv_hdr.h"
#include "sv_loc.h"
#include "sv_pkt.h"

/* min_rnr_timer / RNR NAK timer codes in units of 10 us (IBA table 45; rdma-facts §3.4) */
static const uint32_t rnr_timer_10us[32] = {
    65536, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192,
    256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768, 49152,
};

static struct sv_send_wqe *sq_at(struct sv_qp *qp, uint32_t idx)
{
    return &qp->sq.wqe[idx % qp->sq.slots];
}

static bool is_rd_atomic(const struct sv_send_wqe *w)
{
    return w->opcode == IBV_WR_RDMA_READ || w->opcode == IBV_WR_ATOMIC_CMP_AND_SWP ||
           w->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD;
}

/* ---- completions ---- */

static enum ibv_wc_opcode wc_opcode(enum ibv_wr_opcode op)
{
    switch (op) {
    case IBV_WR_RDMA_WRITE:
    case IBV_WR_RDMA_WRITE_WITH_IMM: return IBV_WC_RDMA_WRITE;
    case IBV_WR_RDMA_READ: return IBV_WC_RDMA_READ;
    case IBV_WR_ATOMIC_CMP_AND_SWP: return IBV_WC_COMP_SWAP;
    case IBV_WR_ATOMIC_FETCH_AND_ADD: return IBV_WC_FETCH_ADD;
    default: return IBV_WC_SEND;
    }
}

static uint32_t vendor_err(const struct sv_qp *qp, enum ibv_wc_status st)
{
    const struct sv_devcfg *cfg = &qp->ctx->dev->cfg;
    return (st != IBV_WC_SUCCESS && (cfg->quirks & SV_QUIRK_VENDOR_ERR)) ? cfg->vendor_err : 0;
}

void sv_qp_complete_send(struct sv_qp *qp, const struct sv_send_wqe *wqe, enum ibv_wc_status st)
{
    /* IBA 10.7.3.1: unsignaled WRs complete silently, errors are always reported */
    if (st == IBV_WC_SUCCESS && !qp->sq_sig_all && !(wqe->send_flags & IBV_SEND_SIGNALED))
        return;
    struct ibv_wc wc = {
        .wr_id = wqe->wr_id, .status = st, .opcode = wc_opcode(wqe->opcode),
        .vendor_err = vendor_err(qp, st), .byte_len = st == IBV_WC_SUCCESS ? wqe->length : 0,
        .qp_num = qp->ibqp.qp_num,
    };
    /* a send-CQ overrun raises CQ_ERR but leaves the QP alone (rxe) */
    sv_cq_push(qp->scq, &wc, false);
}

bool sv_qp_complete_recv(struct sv_qp *qp, uint64_t wr_id, enum ibv_wc_status st, enum ibv_wc_opcode op,
                         uint32_t byte_len, uint32_t imm_be, unsigned int wc_flags, uint32_t src_qp,
                         bool solicited)
{
    struct ibv_wc wc = {
        .wr_id = wr_id, .status = st, .opcode = op, .vendor_err = vendor_err(qp, st),
        .byte_len = byte_len, .imm_data = imm_be, .qp_num = qp->ibqp.qp_num, .src_qp = src_qp,
        .wc_flags = wc_flags,
    };
    return sv_cq_push(qp->rcq, &wc, solicited);
}

/* Completes the head send WQE in order and drops it from the SQ. */
static void complete_head(struct sv_qp *qp, enum ibv_wc_status st)
{
    struct sv_send_wqe *w = sq_at(qp, qp->sq.head);
    if (w->started && is_rd_atomic(w) && qp->req.reads_outstanding)
        qp->req.reads_outstanding--;
    sv_qp_complete_send(qp, w, st);
    qp->sq.head++;
    qp->comp.read_rcvd = 0;
    if (qp->req.idx - qp->sq.head > qp->sq.tail - qp->sq.head) {   /* req.idx fell behind head */
        qp->req.idx = qp->sq.head;
        qp->req.offset = 0;
    }
}

void sv_qp_flush(struct sv_qp *qp)
{
    /* IBA 10.3.1: in ERR every outstanding and newly posted WR completes with WR_FLUSH_ERR */
    while (qp->sq.head != qp->sq.tail)
        complete_head(qp, IBV_WC_WR_FLUSH_ERR);
    qp->req.idx = qp->sq.head;
    qp->req.offset = 0;
    qp->req.reads_outstanding = 0;
    qp->comp.retrans_at = 0;
    qp->comp.rnr_at = 0;
    if (qp->resp.have_wqe) {
        qp->resp.have_wqe = false;
        sv_qp_complete_recv(qp, qp->resp.wqe_id, IBV_WC_WR_FLUSH_ERR, IBV_WC_RECV, 0, 0, 0, 0, false);
    }
    if (!qp->srq) {
        uint64_t wr_id;
        uint32_t nsge;
        for (uint32_t n = sv_rq_count(&qp->rq); n > 0 && sv_rq_pop(&qp->rq, &wr_id, NULL, &nsge); n--)
            sv_qp_complete_recv(qp, wr_id, IBV_WC_WR_FLUSH_ERR, IBV_WC_RECV, 0, 0, 0, 0, false);
    }
    qp->sq_draining = false;
}

void sv_qp_error(struct sv_qp *qp, int event)
{
    if (qp->state == IBV_QPS_ERR)
        return;
    qp->state = IBV_QPS_ERR;
    qp->attr.qp_state = IBV_QPS_ERR;
    if (event >= 0)
        sv_ctx_async_event(qp->ctx, (enum ibv_event_type)event, SV_EVOBJ_QP, qp->uid);
    sv_qp_flush(qp);
    if (qp->srq)
        sv_ctx_async_event(qp->ctx, IBV_EVENT_QP_LAST_WQE_REACHED, SV_EVOBJ_QP, qp->uid);
}

/* The WQE at idx failed with st: earlier ones are flushed, it reports st, the QP goes to ERR. */
void sv_qp_fail_at(struct sv_qp *qp, uint32_t idx, enum ibv_wc_status st)
{
    while (qp->sq.head != idx && qp->sq.head != qp->sq.tail)
        complete_head(qp, IBV_WC_WR_FLUSH_ERR);
    if (qp->sq.head != qp->sq.tail)
        complete_head(qp, st);
    sv_qp_error(qp, -1);   /* reported through the completion, no async event (IBA 10.8.3) */
}

void sv_comp_check_drained(struct sv_qp *qp)
{
    if (!qp->sq_draining)
        return;
    bool head_started = qp->sq.head != qp->sq.tail && sq_at(qp, qp->sq.head)->started;
    if (head_started)
        return;
    qp->sq_draining = false;
    if (qp->attr.en_sqd_async_notify)
        sv_ctx_async_event(qp->ctx, IBV_EVENT_SQ_DRAINED, SV_EVOBJ_QP, qp->uid);
}

void sv_comp_unreliable(struct sv_qp *qp)
{
    /* UC/UD: a message is done once its last packet is on the wire */
    while (qp->sq.head != qp->req.idx)
        complete_head(qp, IBV_WC_SUCCESS);
    sv_comp_check_drained(qp);
}

/* ---- timers ---- */

uint64_t sv_qp_timeout_ns(const struct sv_qp *qp)
{
    /* local ACK timeout: 4.096 us * 2^timeout, 0 = wait forever (IBA 11.2.4.2) */
    return qp->attr.timeout ? 4096ull << qp->attr.timeout : 0;
}

void sv_qp_arm_retrans(struct sv_qp *qp, uint64_t now)
{
    uint64_t t = sv_qp_timeout_ns(qp);
    if (!t || qp->comp.retrans_at)
        return;
    qp->comp.retrans_at = now + t;
    sv_ctx_wake(qp->ctx);
}

static void restart_retrans(struct sv_qp *qp)
{
    uint64_t t = sv_qp_timeout_ns(qp);
    bool outstanding = qp->comp.psn != qp->req.psn;
    qp->comp.retrans_at = (t && outstanding) ? sv_now_ns() + t : 0;
}

static void retry(struct sv_qp *qp)
{
    sv_count(qp->ctx->ep, SV_CNT_COMPLETER_RETRY_ERR);
    if (qp->comp.retry_left == 0) {
        sv_count(qp->ctx->ep, SV_CNT_RETRY_EXCEEDED_ERR);
        sv_qp_fail_at(qp, qp->sq.head, IBV_WC_RETRY_EXC_ERR);
        return;
    }
    /* IBA has no infinite retry_cnt; rxe never decrements 7 (personality retry7-infinite) */
    bool infinite = qp->comp.retry_left == 7 && (qp->ctx->dev->cfg.quirks & SV_QUIRK_RETRY7_INFINITE);
    if (!infinite)
        qp->comp.retry_left--;
    sv_req_rewind(qp);
    sv_req_run(qp);
}

void sv_comp_retrans_timeout(struct sv_qp *qp)
{
    if (qp->comp.psn == qp->req.psn)
        return;   /* everything sent has been acknowledged */
    sv_count(qp->ctx->ep, SV_CNT_LOCAL_ACK_TIMEOUT_ERR);
    retry(qp);
}

void sv_comp_rnr_expired(struct sv_qp *qp)
{
    sv_req_rewind(qp);
    sv_req_run(qp);
}

uint64_t sv_qp_timers(struct sv_qp *qp, uint64_t now)
{
    if (qp->state != IBV_QPS_RTS && qp->state != IBV_QPS_SQD)
        return 0;
    if (qp->comp.rnr_at && now >= qp->comp.rnr_at) {
        qp->comp.rnr_at = 0;
        sv_comp_rnr_expired(qp);
    }
    if (qp->comp.retrans_at && now >= qp->comp.retrans_at) {
        qp->comp.retrans_at = 0;
        sv_comp_retrans_timeout(qp);
    }
    uint64_t a = qp->comp.rnr_at, b = qp->comp.retrans_at;
    if (!a)
        return b;
    if (!b)
        return a;
    return a < b ? a : b;
}

/* ---- acknowledgements ---- */

/* Completes, in order, the WQEs an acknowledgement through `psn` covers (ACKs are cumulative,
 * IBA 9.7.5.1.1); `inclusive` = the WQE ending at psn is covered too. A READ or atomic WQE
 * completes only through its response: if an ACK covers one, its response was lost, and true
 * is returned so the caller retries (rxe COMPST_ERROR_RETRY). */
static bool ack_through(struct sv_qp *qp, uint32_t psn, bool inclusive)
{
    while (qp->sq.head != qp->sq.tail) {
        struct sv_send_wqe *w = sq_at(qp, qp->sq.head);
        if (!w->started)
            break;
        int cmp = sv_psn_compare(w->last_psn, psn);
        if (inclusive ? cmp > 0 : cmp >= 0)
            break;
        if (is_rd_atomic(w))
            return true;
        complete_head(qp, IBV_WC_SUCCESS);
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
    struct sv_send_wqe *w = sq_at(qp, qp->sq.head);
    uint32_t got = w->opcode == IBV_WR_RDMA_READ ? qp->comp.read_rcvd / qp->mtu : 0;
    qp->comp.psn = sv_psn_add(w->first_psn, got);
}

static void progress(struct sv_qp *qp)
{
    qp->comp.retry_left = qp->attr.retry_cnt;   /* counters reload on forward progress */
    qp->comp.rnr_left = qp->attr.rnr_retry;
    restart_retrans(qp);
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
            struct sv_send_wqe *w = sq_at(qp, qp->sq.head);
            if (w->started && w->first_psn == psn &&
                (w->opcode == IBV_WR_ATOMIC_CMP_AND_SWP || w->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD)) {
                uint64_t orig = pkt->atmack_orig;
                if (sv_sge_scatter(qp->ctx, qp->pd, w->sge, w->num_sge, 0, &orig, 8) != SV_MEM_OK) {
                    sv_qp_fail_at(qp, qp->sq.head, IBV_WC_LOC_PROT_ERR);
                    return;
                }
                complete_head(qp, IBV_WC_SUCCESS);
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
        sv_count(qp->ctx->ep, SV_CNT_RCVD_RNR_ERR);
        if (sv_psn_compare(psn, qp->comp.psn) < 0)
            return;
        ack_through(qp, psn, false);   /* everything before the NAKed PSN arrived */
        advance_psn(qp, psn);
        if (qp->comp.rnr_left == 0) {
            sv_count(qp->ctx->ep, SV_CNT_RETRY_RNR_EXCEEDED_ERR);
            sv_qp_fail_at(qp, qp->sq.head, IBV_WC_RNR_RETRY_EXC_ERR);
            return;
        }
        if (qp->comp.rnr_left != 7)   /* rnr_retry 7 = retry forever (IBA 9.7.5.2.8) */
            qp->comp.rnr_left--;
        qp->comp.retrans_at = 0;
        qp->comp.rnr_at = sv_now_ns() + (uint64_t)rnr_timer_10us[sv_aeth_value(syn)] * 10000ull;
        sv_ctx_wake(qp->ctx);
        return;
    }
    if (syn == SV_NAK_PSN_SEQ_ERR) {
        sv_count(qp->ctx->ep, SV_CNT_RCVD_SEQ_ERR);
        if (sv_psn_compare(psn, qp->comp.psn) < 0)
            return;   /* stale: rxe ignores a NAK for a PSN already passed */
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
    struct sv_send_wqe *w = sq_at(qp, qp->sq.head);
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
        complete_head(qp, IBV_WC_SUCCESS);
    progress(qp);
}

void sv_comp_handle(struct sv_qp *qp, const struct sv_pkt *pkt)
{
    /* responses are accepted from RTS on (rdma-facts §3.6); an ERR QP ignores them */
    if (qp->state != IBV_QPS_RTS && qp->state != IBV_QPS_SQD && qp->state != IBV_QPS_SQE) {
        sv_count(qp->ctx->ep, SV_CNT_RCVD_DROPPED);
        return;
    }
    if (sv_psn_compare(pkt->psn, qp->req.psn) >= 0) {
        sv_count(qp->ctx->ep, SV_CNT_RCVD_DROPPED);   /* acknowledges a PSN never sent */
        return;
    }
    const struct sv_opcode_info *info = sv_opcode_info(pkt->opcode);
    if (sv_mask_has(info->mask, SV_HDR_READ))
        handle_read_response(qp, pkt, info->mask);
    else
        handle_ack(qp, pkt);
    if (qp->state == IBV_QPS_ERR)
        return;
    sv_comp_check_drained(qp);
    sv_req_run(qp);
}
