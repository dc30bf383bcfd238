/* Queue pairs: create (caps checked and rounded as rxe does), destroy, and query (live PSNs
 * and state). Modify lives in sv_qp_modify.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sv_loc.h"
#include "sv_hdr.h"

/* ---- caps ---- */

static uint32_t round_wr(uint32_t quirks, uint32_t n)
{
    if (n == 0)
        return 0;
    /* rxe: a ring of roundup_pow_of_two(n + 1) slots with one kept free (500 -> 511) */
    if (quirks & SV_QUIRK_CAPS_POW2)
        return sv_roundup_pow2(n);
    return sv_roundup_pow2(n + 1) - 1;
}

static int check_and_round_caps(const struct sv_context *ctx, const struct ibv_qp_init_attr *init,
                                struct ibv_qp_cap *cap)
{
    const struct ibv_qp_cap *in = &init->cap;
    const struct sv_limits *lim = &ctx->dev->cfg.lim;   /* the device's profile */
    if (in->max_send_wr > lim->max_qp_wr || in->max_send_sge > lim->max_sge ||
        in->max_inline_data > lim->max_inline)
        return EINVAL;
    if (!init->srq && (in->max_recv_wr > lim->max_qp_wr || in->max_recv_sge > lim->max_sge))
        return EINVAL;
    uint32_t quirks = ctx->dev->cfg.quirks;
    cap->max_send_wr = round_wr(quirks, in->max_send_wr);
    /* rxe sizes a send WQE for the larger of the SGE list and the inline data and reports
     * both in that unit: 1 SGE + 0 inline -> 1 SGE + 16 bytes inline */
    uint32_t wqe = in->max_send_sge * (uint32_t)sizeof(struct ibv_sge);
    if (in->max_inline_data > wqe)
        wqe = in->max_inline_data;
    if (quirks & SV_QUIRK_CAPS_POW2 && wqe)
        wqe = sv_roundup_pow2(wqe);
    if (wqe > lim->max_inline)
        wqe = lim->max_inline;
    cap->max_send_sge = wqe / (uint32_t)sizeof(struct ibv_sge);
    if (cap->max_send_sge > lim->max_sge)   /* a profile's inline can be larger than its SGE list */
        cap->max_send_sge = lim->max_sge;
    cap->max_inline_data = wqe;
    if (init->srq) {
        cap->max_recv_wr = 0;
        cap->max_recv_sge = 0;
    } else {
        cap->max_recv_wr = round_wr(quirks, in->max_recv_wr);
        cap->max_recv_sge = (quirks & SV_QUIRK_CAPS_POW2 && in->max_recv_sge)
                                ? sv_roundup_pow2(in->max_recv_sge) : in->max_recv_sge;
        if (cap->max_recv_sge > lim->max_sge)
            cap->max_recv_sge = lim->max_sge;
    }
    return 0;
}

static int sq_init(struct sv_sq *sq, const struct ibv_qp_cap *cap)
{
    memset(sq, 0, sizeof *sq);
    sq->max_wr = cap->max_send_wr;
    sq->max_sge = cap->max_send_sge;
    sq->max_inline = cap->max_inline_data;
    sq->slots = sq->max_wr ? sq->max_wr : 1;
    sq->wqe = calloc(sq->slots, sizeof *sq->wqe);
    sq->sge_pool = calloc((size_t)sq->slots * (sq->max_sge ? sq->max_sge : 1), sizeof *sq->sge_pool);
    sq->inline_pool = calloc((size_t)sq->slots, sq->max_inline ? sq->max_inline : 1);
    if (!sq->wqe || !sq->sge_pool || !sq->inline_pool)
        return ENOMEM;
    for (uint32_t i = 0; i < sq->slots; i++) {
        sq->wqe[i].sge = &sq->sge_pool[(size_t)i * (sq->max_sge ? sq->max_sge : 1)];
        sq->wqe[i].inline_data = &sq->inline_pool[(size_t)i * (sq->max_inline ? sq->max_inline : 1)];
    }
    return 0;
}

static void sq_destroy(struct sv_sq *sq)
{
    free(sq->wqe);
    free(sq->sge_pool);
    free(sq->inline_pool);
}

/* ---- create / destroy ---- */

static struct ibv_qp *create_qp(struct sv_context *ctx, struct ibv_pd *ibpd, struct ibv_qp_init_attr *init)
{
    int rc = EINVAL;
    if (!init || !ibpd)
        goto fail;
    switch (init->qp_type) {
    case IBV_QPT_RC: case IBV_QPT_UC: case IBV_QPT_UD:
        break;
    case IBV_QPT_RAW_PACKET: case IBV_QPT_XRC_SEND: case IBV_QPT_XRC_RECV: case IBV_QPT_DRIVER:
        rc = EOPNOTSUPP;   /* rxe: types the driver does not implement */
        goto fail;
    default:
        goto fail;
    }
    if (!init->send_cq || !init->recv_cq || !sv_ctx_same(init->send_cq->context, &ctx->vctx.context) ||
        !sv_ctx_same(init->recv_cq->context, &ctx->vctx.context) ||
        (init->srq && !sv_ctx_same(init->srq->context, &ctx->vctx.context)))
        goto fail;
    struct ibv_qp_cap cap;
    rc = check_and_round_caps(ctx, init, &cap);
    if (rc)
        goto fail;

    struct sv_qp *qp = calloc(1, sizeof *qp);
    if (!qp) {
        rc = ENOMEM;
        goto fail;
    }
    rc = sq_init(&qp->sq, &cap);
    if (!rc && !init->srq)
        rc = sv_rq_init(&qp->rq, cap.max_recv_wr, cap.max_recv_sge);
    qp->resp.wqe_sge = calloc(SV_MAX_SGE, sizeof *qp->resp.wqe_sge);
    if (!rc && !qp->resp.wqe_sge)
        rc = ENOMEM;
    if (rc) {
        sq_destroy(&qp->sq);
        sv_rq_destroy(&qp->rq);
        free(qp->resp.wqe_sge);
        free(qp);
        goto fail;
    }
    qp->magic = SV_QP_MAGIC;
    qp->ctx = ctx;
    qp->pd = sv_pd(ibpd);
    qp->scq = sv_cq(init->send_cq);
    qp->rcq = sv_cq(init->recv_cq);
    qp->srq = init->srq ? sv_srq(init->srq) : NULL;
    qp->sq_sig_all = init->sq_sig_all != 0;
    qp->state = IBV_QPS_RESET;
    qp->attr.qp_state = IBV_QPS_RESET;
    qp->attr.path_mtu = IBV_MTU_256;          /* rxe's value for a fresh QP */
    qp->attr.cap = cap;
    qp->attr.port_num = SV_PORT_NUM;
    qp->mtu = init->qp_type == IBV_QPT_UD ? sv_mtu_bytes(sv_mtu_from_link(ctx->dev->cfg.link_mtu))
                                          : sv_mtu_bytes(IBV_MTU_256);
    pthread_mutex_init(&qp->lock, NULL);
    sv_task_init(&qp->req_task, "requester", sv_req_task, qp);
    sv_task_init(&qp->comp_task, "completer", sv_comp_task, qp);
    pthread_mutex_init(&qp->wr_lock, NULL);

    struct ibv_qp *q = &qp->ibqp;
    q->context = &ctx->vctx.context;
    q->qp_context = init->qp_context;
    q->pd = ibpd;
    q->send_cq = init->send_cq;
    q->recv_cq = init->recv_cq;
    q->srq = init->srq;
    q->state = IBV_QPS_RESET;
    q->qp_type = init->qp_type;
    pthread_mutex_init(&q->mutex, NULL);
    pthread_cond_init(&q->cond, NULL);

    rc = sv_endpoint_add_qp(ctx->ep, qp);   /* assigns the QPN */
    if (rc) {
        sq_destroy(&qp->sq);
        sv_rq_destroy(&qp->rq);
        free(qp->resp.wqe_sge);
        free(qp);
        goto fail;
    }
    atomic_fetch_add(&qp->pd->users, 1);
    atomic_fetch_add(&qp->scq->users, 1);
    atomic_fetch_add(&qp->rcq->users, 1);
    if (qp->srq)
        atomic_fetch_add(&qp->srq->users, 1);
    pthread_mutex_lock(&ctx->obj_lock);
    qp->uid = sv_ctx_new_uid(ctx);
    q->handle = sv_ctx_new_handle(ctx);
    qp->ctx_next = ctx->qps;
    ctx->qps = qp;
    pthread_mutex_unlock(&ctx->obj_lock);
    init->cap = cap;
    return q;
fail:
    errno = rc;
    return NULL;
}

struct ibv_qp *ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *init)
{
    struct sv_context *ctx = pd ? sv_ctx_checked(pd->context) : NULL;
    if (!ctx) {
        errno = EINVAL;
        return NULL;
    }
    return create_qp(ctx, pd, init);
}

/* verbs_context.create_qp_ex: a PD, no create flags, and the send ops rxe has (sv_qp_ex.c). */
struct ibv_qp *sv_create_qp_ex(struct ibv_context *context, struct ibv_qp_init_attr_ex *ex)
{
    struct sv_context *ctx = sv_ctx_checked(context);
    if (!ctx || !ex) {
        errno = EINVAL;
        return NULL;
    }
    uint32_t known = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_CREATE_FLAGS | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
    uint64_t ops = (ex->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) ? ex->send_ops_flags : 0;
    if ((ex->comp_mask & ~known) || ((ex->comp_mask & IBV_QP_INIT_ATTR_CREATE_FLAGS) && ex->create_flags) ||
        sv_qpx_check(ex->qp_type, ops)) {
        errno = EOPNOTSUPP;
        return NULL;
    }
    if (!(ex->comp_mask & IBV_QP_INIT_ATTR_PD) || !ex->pd || !sv_ctx_same(ex->pd->context, context)) {
        errno = EINVAL;
        return NULL;
    }
    struct ibv_qp_init_attr init = {
        .qp_context = ex->qp_context, .send_cq = ex->send_cq, .recv_cq = ex->recv_cq,
        .srq = ex->srq, .cap = ex->cap, .qp_type = ex->qp_type, .sq_sig_all = ex->sq_sig_all,
    };
    struct ibv_qp *qp = create_qp(ctx, ex->pd, &init);
    if (qp) {
        ex->cap = init.cap;
        sv_qpx_init(sv_qp(qp), ops);
    }
    return qp;
}

static void qp_free(struct sv_qp *qp)
{
    atomic_fetch_sub(&qp->pd->users, 1);
    atomic_fetch_sub(&qp->scq->users, 1);
    atomic_fetch_sub(&qp->rcq->users, 1);
    if (qp->srq)
        atomic_fetch_sub(&qp->srq->users, 1);
    sq_destroy(&qp->sq);
    sv_rq_destroy(&qp->rq);
    free(qp->resp.wqe_sge);
    pthread_mutex_destroy(&qp->lock);
    pthread_mutex_destroy(&qp->wr_lock);
    pthread_mutex_destroy(&qp->ibqp.mutex);
    pthread_cond_destroy(&qp->ibqp.cond);
    qp->magic = 0;
    free(qp);
}

void sv_qp_free_on_close(struct sv_qp *qp)
{
    sv_endpoint_remove_qp(qp->ctx->ep, qp);
    qp_free(qp);
}

struct sv_qp *sv_qp_checked(struct ibv_qp *ibqp)
{
    if (!ibqp || !sv_ctx_checked(ibqp->context))
        return NULL;
    struct sv_qp *qp = sv_qp(ibqp);
    return qp->magic == SV_QP_MAGIC ? qp : NULL;
}

int ibv_destroy_qp(struct ibv_qp *ibqp)
{
    struct sv_qp *qp = sv_qp_checked(ibqp);
    if (!qp)
        return EINVAL;
    struct sv_context *ctx = qp->ctx;
    /* out of the QPN table first: waits for a packet being processed on it to finish */
    sv_endpoint_remove_qp(ctx->ep, qp);
    pthread_mutex_lock(&ctx->obj_lock);   /* then off the timer list */
    for (struct sv_qp **p = &ctx->qps; *p; p = &(*p)->ctx_next) {
        if (*p == qp) {
            *p = qp->ctx_next;
            break;
        }
    }
    pthread_mutex_unlock(&ctx->obj_lock);
    sv_wait_acked(&ibqp->mutex, &ibqp->cond, &ibqp->events_completed, &qp->events_reported);
    qp_free(qp);
    return 0;
}

/* ---- query ---- */

int ibv_query_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr, int attr_mask, struct ibv_qp_init_attr *init)
{
    struct sv_qp *qp = sv_qp_checked(ibqp);
    if (!qp || !attr || !init)
        return EINVAL;
    pthread_mutex_lock(&qp->lock);
    *attr = qp->attr;
    attr->qp_state = qp->state;
    attr->cur_qp_state = qp->state;
    attr->sq_draining = qp->sq_draining;
    /* live PSNs: what the requester sends next and what the responder expects next */
    if (qp->state >= IBV_QPS_RTS)
        attr->sq_psn = qp->req.psn;
    if (qp->state >= IBV_QPS_RTR)
        attr->rq_psn = qp->resp.epsn;
    memset(init, 0, sizeof *init);
    init->qp_context = ibqp->qp_context;
    init->send_cq = ibqp->send_cq;
    init->recv_cq = ibqp->recv_cq;
    init->srq = ibqp->srq;
    init->cap = qp->attr.cap;
    init->qp_type = ibqp->qp_type;
    init->sq_sig_all = qp->sq_sig_all;
    pthread_mutex_unlock(&qp->lock);
    return 0;
}
