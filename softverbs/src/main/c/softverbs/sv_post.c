/* Posting work: ibv_post_send and ibv_post_recv. Each WR is checked before it is queued; the
 * first bad one stops the list and is returned in *bad_wr with the errno Linux returns
 * (rdma-facts §3.8). Sends are started right away in the caller's thread. */
#include <errno.h>
#include <string.h>

#include "sv_loc.h"

static bool opcode_allowed(enum ibv_qp_type type, enum ibv_wr_opcode op)
{
    switch (op) {
    case IBV_WR_SEND:
    case IBV_WR_SEND_WITH_IMM:
        return true;
    case IBV_WR_RDMA_WRITE:
    case IBV_WR_RDMA_WRITE_WITH_IMM:
    case IBV_WR_SEND_WITH_INV:
        return type == IBV_QPT_RC || type == IBV_QPT_UC;
    case IBV_WR_RDMA_READ:
    case IBV_WR_ATOMIC_CMP_AND_SWP:
    case IBV_WR_ATOMIC_FETCH_AND_ADD:
    case IBV_WR_LOCAL_INV:             /* rxe: RC only */
        return type == IBV_QPT_RC;
    case IBV_WR_BIND_MW:
        return type == IBV_QPT_RC || type == IBV_QPT_UC;
    default:
        return false;   /* TSO, DRIVER1, FLUSH, ATOMIC_WRITE: not modelled */
    }
}

static bool is_atomic(enum ibv_wr_opcode op)
{
    return op == IBV_WR_ATOMIC_CMP_AND_SWP || op == IBV_WR_ATOMIC_FETCH_AND_ADD;
}

struct sv_send_wqe *sv_sq_slot_reset(struct sv_qp *qp, uint32_t idx)
{
    struct sv_send_wqe *w = sv_sq_at(qp, idx);
    struct ibv_sge *sge = w->sge;
    uint8_t *inline_data = w->inline_data;
    memset(w, 0, sizeof *w);
    w->sge = sge;
    w->inline_data = inline_data;
    return w;
}

/* 0 or the errno for this WR; fills the SQ slot on success. qp->lock held. */
static int queue_send(struct sv_qp *qp, const struct ibv_send_wr *wr)
{
    struct sv_sq *sq = &qp->sq;
    if (!opcode_allowed(qp->ibqp.qp_type, wr->opcode))
        return EINVAL;
    if (wr->num_sge < 0 || (uint32_t)wr->num_sge > sq->max_sge || (wr->num_sge && !wr->sg_list))
        return EINVAL;
    uint32_t length = sv_sge_total(wr->sg_list, (uint32_t)wr->num_sge);
    bool inl = (wr->send_flags & IBV_SEND_INLINE) && !is_atomic(wr->opcode) &&
               wr->opcode != IBV_WR_RDMA_READ;
    if (inl && length > sq->max_inline)
        return EINVAL;
    if (length > SV_MAX_MSG_SZ)
        return EINVAL;
    if (is_atomic(wr->opcode) && (length < 8 || (wr->wr.atomic.remote_addr & 7)))
        return EINVAL;   /* atomics move exactly 8 aligned bytes */
    struct sv_ah *ah = NULL;
    if (qp->ibqp.qp_type == IBV_QPT_UD) {
        if (!wr->wr.ud.ah || !sv_ctx_same(wr->wr.ud.ah->context, qp->ibqp.context))
            return EINVAL;
        ah = sv_ah(wr->wr.ud.ah);
    }
    if (wr->opcode == IBV_WR_BIND_MW && (length || wr->num_sge || wr->imm_data))
        return EINVAL;   /* a bind carries no data (rxe) */
    if (sq->tail - sq->head >= sq->max_wr)
        return ENOMEM;   /* send queue full */

    struct sv_send_wqe *w = sv_sq_slot_reset(qp, sq->tail);
    if (wr->opcode == IBV_WR_BIND_MW &&
        sv_mw_fill_bind(qp, w, wr->bind_mw.mw, wr->bind_mw.rkey, &wr->bind_mw.bind_info))
        return EINVAL;
    w->wr_id = wr->wr_id;
    w->opcode = wr->opcode;
    w->send_flags = wr->send_flags;
    w->length = is_atomic(wr->opcode) ? 8 : length;
    w->imm_be = wr->opcode == IBV_WR_SEND_WITH_INV ? wr->invalidate_rkey : wr->imm_data;
    if (is_atomic(wr->opcode)) {
        w->remote_addr = wr->wr.atomic.remote_addr;
        w->rkey = wr->wr.atomic.rkey;
        w->compare_add = wr->wr.atomic.compare_add;
        w->swap = wr->wr.atomic.swap;
    } else {
        w->remote_addr = wr->wr.rdma.remote_addr;
        w->rkey = wr->wr.rdma.rkey;
    }
    if (ah) {
        w->ud_dst_ip_be = ah->dst_ip_be;
        w->ud_routable = ah->routable;
        w->ud_remote_qpn = wr->wr.ud.remote_qpn & 0xFFFFFFu;
        /* IBA 10.2.4: a Q_Key with the high bit set means "use the QP's own Q_Key" */
        w->ud_remote_qkey = (wr->wr.ud.remote_qkey & 0x80000000u) ? qp->attr.qkey : wr->wr.ud.remote_qkey;
    }
    if (inl) {
        uint32_t off = 0;
        for (int i = 0; i < wr->num_sge; i++) {
            memcpy(w->inline_data + off, (const void *)(uintptr_t)wr->sg_list[i].addr, wr->sg_list[i].length);
            off += wr->sg_list[i].length;
        }
        w->send_flags |= IBV_SEND_INLINE;
    } else {
        w->send_flags &= ~(unsigned int)IBV_SEND_INLINE;
        w->num_sge = (uint32_t)wr->num_sge;
        memcpy(w->sge, wr->sg_list, (size_t)wr->num_sge * sizeof *w->sge);
    }
    sq->tail++;
    return 0;
}

int sv_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)
{
    if (bad_wr)
        *bad_wr = NULL;
    struct sv_qp *qp = sv_qp_checked(ibqp);
    if (!qp)
        return EINVAL;
    int rc = 0;
    if (qp->is_qpx)
        pthread_mutex_lock(&qp->wr_lock);   /* not inside an open ibv_wr_start batch */
    pthread_mutex_lock(&qp->lock);
    /* sends are processed from RTS on (rxe refuses the doorbell below RTS) */
    if (qp->state < IBV_QPS_RTS) {
        rc = EINVAL;
        if (bad_wr)
            *bad_wr = wr;
        goto out;
    }
    for (; wr; wr = wr->next) {
        rc = queue_send(qp, wr);
        if (rc) {
            if (bad_wr)
                *bad_wr = wr;
            break;
        }
    }
    if (qp->state == IBV_QPS_ERR)
        sv_qp_flush(qp);   /* WRs posted in ERR complete at once with WR_FLUSH_ERR */
    else
        sv_req_schedule(qp, false);
out:
    pthread_mutex_unlock(&qp->lock);
    if (qp->is_qpx)
        pthread_mutex_unlock(&qp->wr_lock);
    return rc;
}

int sv_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
    if (bad_wr)
        *bad_wr = NULL;
    struct sv_qp *qp = sv_qp_checked(ibqp);
    if (!qp)
        return EINVAL;
    int rc = 0;
    pthread_mutex_lock(&qp->lock);
    /* receives may be posted from INIT on (IBA C10-97.2.1); never on an SRQ-attached QP */
    if (qp->srq || qp->state == IBV_QPS_RESET) {
        rc = EINVAL;
        if (bad_wr)
            *bad_wr = wr;
        goto out;
    }
    for (; wr; wr = wr->next) {
        rc = sv_rq_post(&qp->rq, wr);
        if (rc) {
            if (bad_wr)
                *bad_wr = wr;
            break;
        }
    }
    if (qp->state == IBV_QPS_ERR)
        sv_qp_flush(qp);
out:
    pthread_mutex_unlock(&qp->lock);
    sv_udp_flush(qp->ctx->ep);   /* held ACKs (sv_udp_send_ack) ride only on an answer sent at once */
    return rc;
}
