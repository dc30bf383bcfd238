/* Work completions: building them (vendor_err from the personality), completing send
 * WQEs in order, and the error path - a QP moved to ERR completes the WQE that failed with its
 * status and flushes everything else with IBV_WC_WR_FLUSH_ERR (IBA 10.3.1, rdma-facts §3.7).
 * Everything here runs with qp->lock held. */
#include "sv_loc.h"

static enum ibv_wc_opcode wc_opcode(enum ibv_wr_opcode op)
{
    switch (op) {
    case IBV_WR_RDMA_WRITE:
    case IBV_WR_RDMA_WRITE_WITH_IMM: return IBV_WC_RDMA_WRITE;
    case IBV_WR_RDMA_READ: return IBV_WC_RDMA_READ;
    case IBV_WR_ATOMIC_CMP_AND_SWP: return IBV_WC_COMP_SWAP;
    case IBV_WR_ATOMIC_FETCH_AND_ADD: return IBV_WC_FETCH_ADD;
    case IBV_WR_BIND_MW: return IBV_WC_BIND_MW;
    case IBV_WR_LOCAL_INV: return IBV_WC_LOCAL_INV;
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

/* A receive with a GRH reports its RoCE packet type in sl as mlx5 does (L3 header type, 2 = IPv4):
 * UCX's ud_verbs reads it to know that the GRH holds an IPv4 header and its DGID check compares
 * only the IPv4 destination; with 0 (an IB GRH) it drops every packet as addressed elsewhere. */
#define SV_WC_SL_ROCE_IPV4 2

bool sv_qp_complete_recv(struct sv_qp *qp, uint64_t wr_id, enum ibv_wc_status st, enum ibv_wc_opcode op,
                         uint32_t byte_len, uint32_t imm_be, unsigned int wc_flags, uint32_t src_qp,
                         bool solicited)
{
    struct ibv_wc wc = {
        .wr_id = wr_id, .status = st, .opcode = op, .vendor_err = vendor_err(qp, st),
        .byte_len = byte_len, .imm_data = imm_be, .qp_num = qp->ibqp.qp_num, .src_qp = src_qp,
        .wc_flags = wc_flags, .sl = (wc_flags & IBV_WC_GRH) ? SV_WC_SL_ROCE_IPV4 : 0,
    };
    return sv_cq_push(qp->rcq, &wc, solicited);
}

/* Completes the head send WQE in order and drops it from the SQ. */
void sv_qp_complete_head(struct sv_qp *qp, enum ibv_wc_status st)
{
    struct sv_send_wqe *w = sv_sq_at(qp, qp->sq.head);
    if (w->started && sv_wqe_is_rd_atomic(w) && qp->req.reads_outstanding)
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
        sv_qp_complete_head(qp, IBV_WC_WR_FLUSH_ERR);
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
    sv_log(qp->ctx->ep, "QP 0x%x: %s -> ERR%s%s", qp->ibqp.qp_num, sv_qp_state_name[qp->state],
           event >= 0 ? ", event " : "", event >= 0 ? ibv_event_type_str((enum ibv_event_type)event) : "");
    qp->state = IBV_QPS_ERR;
    qp->attr.qp_state = IBV_QPS_ERR;
    sv_qp_tx_sync(qp);   /* nothing of an ERR QP is in flight any more */
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
        sv_qp_complete_head(qp, IBV_WC_WR_FLUSH_ERR);
    if (qp->sq.head != qp->sq.tail) {
        sv_log(qp->ctx->ep, "QP 0x%x: send WR 0x%llx fails: %s", qp->ibqp.qp_num,
               (unsigned long long)sv_sq_at(qp, qp->sq.head)->wr_id, ibv_wc_status_str(st));
        sv_qp_complete_head(qp, st);
    }
    sv_qp_error(qp, -1);   /* reported through the completion, no async event (IBA 10.8.3) */
}

void sv_comp_check_drained(struct sv_qp *qp)
{
    if (!qp->sq_draining)
        return;
    bool head_started = qp->sq.head != qp->sq.tail && sv_sq_at(qp, qp->sq.head)->started;
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
        sv_qp_complete_head(qp, IBV_WC_SUCCESS);
    sv_comp_check_drained(qp);
}

