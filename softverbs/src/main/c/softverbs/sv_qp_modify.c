/* ibv_modify_qp: every attribute is checked against the transition table (sv_qp_table.c) and
 * the device before any is applied, so a failed modify changes nothing (ibv_modify_qp(3),
 * rxe_qp_chk_attr then rxe_qp_from_attr); then the state change takes its side effects. */
#include <errno.h>
#include <string.h>

#include "sv_hdr.h"
#include "sv_loc.h"

#define SV_QP_MASK_LEGACY ((1u << 21) - 1)   /* bits the legacy modify command can carry */
#define SV_QP_ACCESS_OK   (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | \
                           IBV_ACCESS_REMOTE_ATOMIC | IBV_ACCESS_MW_BIND)

/* ---- modify: check ---- */

static int check_attrs(struct sv_qp *qp, const struct ibv_qp_attr *a, uint32_t mask,
                       enum ibv_qp_state cur, enum ibv_qp_state next)
{
    struct sv_context *ctx = qp->ctx;
    uint32_t dst;
    bool routable;
    int rc;
    if ((mask & IBV_QP_CUR_STATE) && cur != qp->state)
        return EINVAL;   /* the consumer's idea of the current state is wrong */
    rc = sv_qp_transition_check(qp->ibqp.qp_type, cur, next, mask, ctx->dev->cfg.quirks);
    if (rc)
        return rc;
    /* rxe: a QP still draining its SQ may only leave SQD for ERR */
    if ((mask & IBV_QP_STATE) && cur == IBV_QPS_SQD && qp->sq_draining && next != IBV_QPS_ERR)
        return EINVAL;
    if ((mask & IBV_QP_PORT) && a->port_num != SV_PORT_NUM)
        return EINVAL;
    /* CONFIG_SECURITY_INFINIBAND: the P_Key cache lookup fails past the table */
    if ((mask & IBV_QP_PKEY_INDEX) && a->pkey_index >= SV_PKEY_TBL_LEN)
        return EINVAL;
    /* Q_Keys with bit 31 set are privileged (IBA 10.2.4) */
    if ((mask & IBV_QP_QKEY) && (a->qkey & 0x80000000u))
        return EPERM;
    if (mask & IBV_QP_AV) {
        rc = sv_av_check(ctx, &a->ah_attr, &dst, &routable);
        if (rc)
            return rc;
    }
    if (mask & IBV_QP_ALT_PATH) {
        if (a->alt_port_num != SV_PORT_NUM || a->alt_timeout > 31 || a->alt_pkey_index >= SV_PKEY_TBL_LEN)
            return EINVAL;
        rc = sv_av_check(ctx, &a->alt_ah_attr, &dst, &routable);
        if (rc)
            return rc;
    }
    /* path_mtu is checked against the port's max_mtu, not active_mtu (rxe_qp_chk_attr) */
    if ((mask & IBV_QP_PATH_MTU) && (a->path_mtu < IBV_MTU_256 || a->path_mtu > IBV_MTU_4096))
        return EINVAL;
    if ((mask & IBV_QP_TIMEOUT) && a->timeout > 31)
        return EINVAL;
    /* the initiator depth against max_qp_init_rd_atom, the responder's against max_qp_rd_atom
     * (mlx5: log_max_ra_req_qp / log_max_ra_res_qp; rxe: rxe_qp_chk_attr) */
    const struct sv_limits *lim = &ctx->dev->cfg.lim;
    if ((mask & IBV_QP_MAX_QP_RD_ATOMIC) && a->max_rd_atomic > lim->max_qp_init_rd_atom)
        return EINVAL;
    if ((mask & IBV_QP_MAX_DEST_RD_ATOMIC) && a->max_dest_rd_atomic > lim->max_qp_rd_atom)
        return EINVAL;
    if ((mask & IBV_QP_ACCESS_FLAGS) && (a->qp_access_flags & ~(unsigned int)SV_QP_ACCESS_OK))
        return EINVAL;
    if ((mask & IBV_QP_PATH_MIG_STATE) && a->path_mig_state > IBV_MIG_ARMED)
        return EINVAL;
    return 0;
}

/* ---- modify: apply ---- */

static void reset_transport(struct sv_qp *qp)
{
    /* ->RESET: queues emptied without completions, PSN state forgotten (rxe_qp_reset), and
     * the QP's completions still in its CQs purged, as mlx5 does (__mlx5_cq_clean) */
    qp->sq.head = qp->sq.tail = 0;
    sv_cq_purge_qp(qp->scq, qp->ibqp.qp_num);
    if (qp->rcq != qp->scq)
        sv_cq_purge_qp(qp->rcq, qp->ibqp.qp_num);
    if (!qp->srq) {
        pthread_mutex_lock(&qp->rq.lock);
        qp->rq.head = qp->rq.tail = 0;
        pthread_mutex_unlock(&qp->rq.lock);
    }
    struct ibv_sge *sge = qp->resp.wqe_sge;
    memset(&qp->req, 0, sizeof qp->req);
    memset(&qp->comp, 0, sizeof qp->comp);
    memset(&qp->resp, 0, sizeof qp->resp);
    qp->resp.wqe_sge = sge;
    qp->sq_draining = false;
}

static uint8_t round_rd_atomic(uint8_t v)
{
    return v ? (uint8_t)sv_roundup_pow2(v) : 0;   /* rxe rounds up; 0 stays 0 */
}

static void apply_attrs(struct sv_qp *qp, const struct ibv_qp_attr *a, uint32_t mask)
{
    struct ibv_qp_attr *q = &qp->attr;
    if (mask & IBV_QP_ACCESS_FLAGS)
        q->qp_access_flags = a->qp_access_flags;
    if (mask & IBV_QP_PKEY_INDEX)
        q->pkey_index = a->pkey_index;
    if (mask & IBV_QP_PORT)
        q->port_num = a->port_num;
    if (mask & IBV_QP_QKEY)
        q->qkey = a->qkey;
    if (mask & IBV_QP_AV) {
        q->ah_attr = a->ah_attr;
        sv_av_check(qp->ctx, &a->ah_attr, &qp->dst_ip_be, &qp->routable);
    }
    if (mask & IBV_QP_ALT_PATH) {
        q->alt_ah_attr = a->alt_ah_attr;
        q->alt_pkey_index = a->alt_pkey_index;
        q->alt_port_num = a->alt_port_num;
        q->alt_timeout = a->alt_timeout;
    }
    if (mask & IBV_QP_PATH_MTU) {
        q->path_mtu = a->path_mtu;
        if (qp->ibqp.qp_type != IBV_QPT_UD)
            qp->mtu = sv_mtu_bytes(a->path_mtu);
    }
    if (mask & IBV_QP_TIMEOUT)
        q->timeout = a->timeout;
    if (mask & IBV_QP_RETRY_CNT) {
        q->retry_cnt = a->retry_cnt;
        qp->comp.retry_left = a->retry_cnt;
    }
    if (mask & IBV_QP_RNR_RETRY) {
        q->rnr_retry = a->rnr_retry;
        qp->comp.rnr_left = a->rnr_retry;
    }
    if (mask & IBV_QP_RQ_PSN)
        q->rq_psn = a->rq_psn & SV_PSN_MASK;   /* the kernel masks to 24 bits */
    if (mask & IBV_QP_SQ_PSN)
        q->sq_psn = a->sq_psn & SV_PSN_MASK;
    if (mask & IBV_QP_MAX_QP_RD_ATOMIC)
        q->max_rd_atomic = round_rd_atomic(a->max_rd_atomic);
    if (mask & IBV_QP_MAX_DEST_RD_ATOMIC)
        q->max_dest_rd_atomic = round_rd_atomic(a->max_dest_rd_atomic);
    if (mask & IBV_QP_MIN_RNR_TIMER)
        q->min_rnr_timer = a->min_rnr_timer;
    if (mask & IBV_QP_PATH_MIG_STATE)
        q->path_mig_state = a->path_mig_state;
    if (mask & IBV_QP_DEST_QPN)
        q->dest_qp_num = a->dest_qp_num & SV_QPN_MASK;
    if (mask & IBV_QP_EN_SQD_ASYNC_NOTIFY)
        q->en_sqd_async_notify = a->en_sqd_async_notify;
}

static void enter_state(struct sv_qp *qp, enum ibv_qp_state from, enum ibv_qp_state to)
{
    qp->state = to;
    qp->attr.qp_state = to;
    switch (to) {
    case IBV_QPS_RESET:
        reset_transport(qp);
        break;
    case IBV_QPS_RTR:
        if (from == IBV_QPS_INIT) {
            qp->resp.epsn = qp->attr.rq_psn;
            qp->resp.msn = 0;
        }
        break;
    case IBV_QPS_RTS:
        if (from == IBV_QPS_RTR || from == IBV_QPS_RESET) {   /* RESET: accept-reset-to-rts */
            qp->req.psn = qp->comp.psn = qp->attr.sq_psn;
            qp->comp.retry_left = qp->attr.retry_cnt;
            qp->comp.rnr_left = qp->attr.rnr_retry;
            if (from == IBV_QPS_RESET)
                qp->resp.epsn = qp->attr.rq_psn;
        }
        qp->sq_draining = false;
        sv_req_schedule(qp, false);
        break;
    case IBV_QPS_SQD:
        if (from == IBV_QPS_RTS) {
            qp->sq_draining = true;
            sv_comp_check_drained(qp);
        }
        break;
    case IBV_QPS_ERR:
        if (from != IBV_QPS_ERR) {
            sv_qp_flush(qp);
            if (qp->srq)   /* IBA 10.3.1.1: the SRQ consumer learns the QP took its last WQE */
                sv_ctx_async_event(qp->ctx, IBV_EVENT_QP_LAST_WQE_REACHED, SV_EVOBJ_QP, qp->uid);
        }
        break;
    default:
        break;
    }
}

int ibv_modify_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr, int attr_mask)
{
    struct sv_qp *qp = sv_qp_checked(ibqp);
    if (!qp || !attr)
        return EINVAL;
    uint32_t mask = (uint32_t)attr_mask;
    /* libibverbs' legacy command cannot carry RATE_LIMIT or later bits */
    if (mask & ~SV_QP_MASK_LEGACY)
        return EOPNOTSUPP;
    if (((mask & IBV_QP_STATE) && attr->qp_state > IBV_QPS_ERR) ||
        ((mask & IBV_QP_CUR_STATE) && attr->cur_qp_state > IBV_QPS_ERR))
        return EINVAL;
    pthread_mutex_lock(&qp->lock);
    enum ibv_qp_state cur = (mask & IBV_QP_CUR_STATE) ? attr->cur_qp_state : qp->state;
    enum ibv_qp_state next = (mask & IBV_QP_STATE) ? attr->qp_state : cur;
    int rc = check_attrs(qp, attr, mask, cur, next);
    if (rc == 0) {
        apply_attrs(qp, attr, mask);
        if (mask & IBV_QP_STATE) {
            enter_state(qp, qp->state, next);
            sv_qp_tx_sync(qp);   /* RESET/ERR: nothing of it is in flight any more */
        }
        ibqp->state = qp->state;   /* libibverbs caches the state after a successful modify */
    }
    pthread_mutex_unlock(&qp->lock);
    return rc;
}
