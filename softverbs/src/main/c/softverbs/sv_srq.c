/* Receive queues: the ring of posted receive WQEs a QP owns, and shared receive queues (SRQ)
 * that several QPs draw from. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sv_loc.h"

/* ---- the receive ring ---- */

int sv_rq_init(struct sv_rq *rq, uint32_t max_wr, uint32_t max_sge)
{
    memset(rq, 0, sizeof *rq);
    rq->slots = max_wr ? max_wr : 1;
    rq->max_wr = max_wr;
    rq->max_sge = max_sge ? max_sge : 1;
    rq->wqe = calloc(rq->slots, sizeof *rq->wqe);
    rq->sge_pool = calloc((size_t)rq->slots * rq->max_sge, sizeof *rq->sge_pool);
    if (!rq->wqe || !rq->sge_pool) {
        free(rq->wqe);
        free(rq->sge_pool);
        return ENOMEM;
    }
    for (uint32_t i = 0; i < rq->slots; i++)
        rq->wqe[i].sge = &rq->sge_pool[(size_t)i * rq->max_sge];
    pthread_mutex_init(&rq->lock, NULL);
    return 0;
}

void sv_rq_destroy(struct sv_rq *rq)
{
    if (!rq->wqe)
        return;
    pthread_mutex_destroy(&rq->lock);
    free(rq->wqe);
    free(rq->sge_pool);
    rq->wqe = NULL;
}

uint32_t sv_rq_count(struct sv_rq *rq)
{
    pthread_mutex_lock(&rq->lock);
    uint32_t n = rq->tail - rq->head;
    pthread_mutex_unlock(&rq->lock);
    return n;
}

int sv_rq_post(struct sv_rq *rq, const struct ibv_recv_wr *wr)
{
    if ((uint32_t)wr->num_sge > rq->max_sge || wr->num_sge < 0 || (wr->num_sge && !wr->sg_list))
        return EINVAL;
    pthread_mutex_lock(&rq->lock);
    if (rq->tail - rq->head >= rq->max_wr) {
        pthread_mutex_unlock(&rq->lock);
        return ENOMEM;
    }
    struct sv_recv_wqe *w = &rq->wqe[rq->tail % rq->slots];
    w->wr_id = wr->wr_id;
    w->num_sge = (uint32_t)wr->num_sge;
    memcpy(w->sge, wr->sg_list, (size_t)wr->num_sge * sizeof *w->sge);
    rq->tail++;
    pthread_mutex_unlock(&rq->lock);
    return 0;
}

bool sv_rq_front_len(struct sv_rq *rq, uint32_t *len)
{
    pthread_mutex_lock(&rq->lock);
    bool any = rq->tail != rq->head;
    if (any) {
        struct sv_recv_wqe *w = &rq->wqe[rq->head % rq->slots];
        *len = sv_sge_total(w->sge, w->num_sge);
    }
    pthread_mutex_unlock(&rq->lock);
    return any;
}

bool sv_rq_pop(struct sv_rq *rq, uint64_t *wr_id, struct ibv_sge *sge_out, uint32_t *num_sge)
{
    pthread_mutex_lock(&rq->lock);
    if (rq->tail == rq->head) {
        pthread_mutex_unlock(&rq->lock);
        return false;
    }
    struct sv_recv_wqe *w = &rq->wqe[rq->head % rq->slots];
    *wr_id = w->wr_id;
    *num_sge = w->num_sge;
    if (sge_out)
        memcpy(sge_out, w->sge, w->num_sge * sizeof *sge_out);
    rq->head++;
    pthread_mutex_unlock(&rq->lock);
    return true;
}

/* ---- shared receive queues ---- */

static uint32_t srq_caps(const struct sv_context *ctx, uint32_t n)
{
    if (ctx->dev->cfg.quirks & SV_QUIRK_CAPS_POW2)
        return sv_roundup_pow2(n);
    return sv_roundup_pow2(n + 1) - 1;
}

struct ibv_srq *ibv_create_srq(struct ibv_pd *ibpd, struct ibv_srq_init_attr *init)
{
    struct sv_context *ctx = ibpd ? sv_ctx_checked(ibpd->context) : NULL;
    if (!ctx || !init || init->attr.max_wr == 0 || init->attr.max_wr > SV_MAX_SRQ_WR ||
        init->attr.max_sge > SV_MAX_SRQ_SGE || init->attr.srq_limit > init->attr.max_wr) {
        errno = EINVAL;
        return NULL;
    }
    struct sv_srq *srq = calloc(1, sizeof *srq);
    if (!srq) {
        errno = ENOMEM;
        return NULL;
    }
    uint32_t max_wr = srq_caps(ctx, init->attr.max_wr);
    int rc = sv_rq_init(&srq->rq, max_wr, init->attr.max_sge);
    if (rc) {
        free(srq);
        errno = rc;
        return NULL;
    }
    srq->ctx = ctx;
    srq->pd = sv_pd(ibpd);
    srq->limit = init->attr.srq_limit;
    atomic_init(&srq->users, 0);
    srq->ibsrq.context = ibpd->context;
    srq->ibsrq.srq_context = init->srq_context;
    srq->ibsrq.pd = ibpd;
    pthread_mutex_init(&srq->ibsrq.mutex, NULL);
    pthread_cond_init(&srq->ibsrq.cond, NULL);
    pthread_mutex_lock(&ctx->obj_lock);
    srq->uid = sv_ctx_new_uid(ctx);
    srq->ibsrq.handle = sv_ctx_new_handle(ctx);
    srq->ctx_next = ctx->srqs;
    ctx->srqs = srq;
    pthread_mutex_unlock(&ctx->obj_lock);
    atomic_fetch_add(&srq->pd->users, 1);
    init->attr.max_wr = max_wr;
    init->attr.max_sge = srq->rq.max_sge;
    return &srq->ibsrq;
}

int ibv_modify_srq(struct ibv_srq *ibsrq, struct ibv_srq_attr *attr, int mask)
{
    if (!ibsrq || !attr || !sv_ctx_checked(ibsrq->context) ||
        (mask & ~(IBV_SRQ_MAX_WR | IBV_SRQ_LIMIT)))
        return EINVAL;
    struct sv_srq *srq = sv_srq(ibsrq);
    if (mask & IBV_SRQ_MAX_WR)
        return EOPNOTSUPP;   /* no SRQ resize (device_cap_flags lacks IBV_DEVICE_SRQ_RESIZE) */
    if ((mask & IBV_SRQ_LIMIT) && attr->srq_limit > srq->rq.max_wr)
        return EINVAL;
    pthread_mutex_lock(&srq->rq.lock);
    if (mask & IBV_SRQ_LIMIT)
        srq->limit = attr->srq_limit;   /* arms the limit event (IBA 10.2.9.2) */
    pthread_mutex_unlock(&srq->rq.lock);
    return 0;
}

int ibv_query_srq(struct ibv_srq *ibsrq, struct ibv_srq_attr *attr)
{
    if (!ibsrq || !attr || !sv_ctx_checked(ibsrq->context))
        return EINVAL;
    struct sv_srq *srq = sv_srq(ibsrq);
    pthread_mutex_lock(&srq->rq.lock);
    attr->max_wr = srq->rq.max_wr;
    attr->max_sge = srq->rq.max_sge;
    attr->srq_limit = srq->limit;
    pthread_mutex_unlock(&srq->rq.lock);
    return 0;
}

static void srq_free(struct sv_srq *srq)
{
    atomic_fetch_sub(&srq->pd->users, 1);
    sv_rq_destroy(&srq->rq);
    pthread_mutex_destroy(&srq->ibsrq.mutex);
    pthread_cond_destroy(&srq->ibsrq.cond);
    free(srq);
}

void sv_srq_free_on_close(struct sv_srq *srq)
{
    srq_free(srq);
}

int ibv_destroy_srq(struct ibv_srq *ibsrq)
{
    struct sv_context *ctx = ibsrq ? sv_ctx_checked(ibsrq->context) : NULL;
    if (!ctx)
        return EINVAL;
    struct sv_srq *srq = sv_srq(ibsrq);
    if (atomic_load(&srq->users) > 0)
        return EBUSY;
    sv_wait_acked(&ibsrq->mutex, &ibsrq->cond, &ibsrq->events_completed, &srq->events_reported);
    pthread_mutex_lock(&ctx->obj_lock);
    for (struct sv_srq **p = &ctx->srqs; *p; p = &(*p)->ctx_next) {
        if (*p == srq) {
            *p = srq->ctx_next;
            break;
        }
    }
    pthread_mutex_unlock(&ctx->obj_lock);
    srq_free(srq);
    return 0;
}

int sv_post_srq_recv(struct ibv_srq *ibsrq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
    if (bad_wr)
        *bad_wr = NULL;
    if (!ibsrq)
        return EINVAL;
    struct sv_srq *srq = sv_srq(ibsrq);
    int rc = 0;
    for (; wr; wr = wr->next) {
        rc = sv_rq_post(&srq->rq, wr);
        if (rc) {
            if (bad_wr)
                *bad_wr = wr;
            break;
        }
    }
    sv_udp_flush(srq->ctx->ep);   /* as sv_post_recv */
    return rc;
}

bool sv_srq_pop(struct sv_srq *srq, uint64_t *wr_id, struct ibv_sge *sge_out, uint32_t *num_sge)
{
    if (!sv_rq_pop(&srq->rq, wr_id, sge_out, num_sge))
        return false;
    pthread_mutex_lock(&srq->rq.lock);
    bool fire = srq->limit && srq->rq.tail - srq->rq.head < srq->limit;
    if (fire)
        srq->limit = 0;   /* one event per arming */
    pthread_mutex_unlock(&srq->rq.lock);
    if (fire)
        sv_ctx_async_event(srq->ctx, IBV_EVENT_SRQ_LIMIT_REACHED, SV_EVOBJ_SRQ, srq->uid);
    return true;
}
