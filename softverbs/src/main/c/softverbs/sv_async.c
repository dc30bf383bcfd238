/* Asynchronous events: queued by the transport into the context's pipe (whose read end is
 * ibv_context.async_fd, so applications can poll it), handed out by ibv_get_async_event and
 * acknowledged by ibv_ack_async_event, which the destroy verbs wait for. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "sv_loc.h"

/* An async event as it travels through the context's pipe; resolved to an object on read so
 * an event of a destroyed object is dropped, as the kernel does on destroy. */
struct sv_async_rec {
    uint32_t type;
    uint32_t kind;
    uint64_t uid;
};

void sv_ctx_async_event(struct sv_context *ctx, enum ibv_event_type type, enum sv_event_obj kind,
                        uint64_t uid)
{
    struct sv_async_rec rec = {.type = (uint32_t)type, .kind = (uint32_t)kind, .uid = uid};
    ssize_t n = write(ctx->async_wr, &rec, sizeof rec);   /* atomic: < PIPE_BUF */
    (void)n;   /* a full pipe (nobody reads events) loses the event, never blocks the transport */
}

static bool resolve_event(struct sv_context *ctx, const struct sv_async_rec *rec, struct ibv_async_event *ev)
{
    memset(ev, 0, sizeof *ev);
    ev->event_type = (enum ibv_event_type)rec->type;
    bool found = false;
    pthread_mutex_lock(&ctx->obj_lock);
    switch ((enum sv_event_obj)rec->kind) {
    case SV_EVOBJ_QP:
        for (struct sv_qp *qp = ctx->qps; qp; qp = qp->ctx_next) {
            if (qp->uid == rec->uid) {
                ev->element.qp = &qp->ibqp;
                pthread_mutex_lock(&qp->ibqp.mutex);
                qp->events_reported++;
                pthread_mutex_unlock(&qp->ibqp.mutex);
                found = true;
                break;
            }
        }
        break;
    case SV_EVOBJ_CQ:
        for (struct sv_cq *cq = ctx->cqs; cq; cq = cq->ctx_next) {
            if (cq->uid == rec->uid) {
                ev->element.cq = &cq->ibcq;
                pthread_mutex_lock(&cq->ibcq.mutex);
                cq->async_reported++;
                pthread_mutex_unlock(&cq->ibcq.mutex);
                found = true;
                break;
            }
        }
        break;
    case SV_EVOBJ_SRQ:
        for (struct sv_srq *srq = ctx->srqs; srq; srq = srq->ctx_next) {
            if (srq->uid == rec->uid) {
                ev->element.srq = &srq->ibsrq;
                pthread_mutex_lock(&srq->ibsrq.mutex);
                srq->events_reported++;
                pthread_mutex_unlock(&srq->ibsrq.mutex);
                found = true;
                break;
            }
        }
        break;
    case SV_EVOBJ_PORT:
        ev->element.port_num = SV_PORT_NUM;
        found = true;
        break;
    default:
        found = true;
        break;
    }
    pthread_mutex_unlock(&ctx->obj_lock);
    return found;
}

int ibv_get_async_event(struct ibv_context *context, struct ibv_async_event *event)
{
    struct sv_context *ctx = sv_ctx_checked(context);
    if (!ctx || !event) {
        errno = EINVAL;
        return -1;
    }
    for (;;) {   /* each pass consumes one record; records of destroyed objects are skipped */
        struct sv_async_rec rec;
        ssize_t n = read(context->async_fd, &rec, sizeof rec);
        if (n < 0)
            return -1;   /* errno from read: EAGAIN on a non-blocking fd, EINTR … */
        if (n != (ssize_t)sizeof rec) {
            errno = EIO;
            return -1;
        }
        if (resolve_event(ctx, &rec, event))
            return 0;
    }
}

void ibv_ack_async_event(struct ibv_async_event *event)
{
    if (!event)
        return;
    switch (event->event_type) {
    case IBV_EVENT_QP_FATAL:
    case IBV_EVENT_QP_REQ_ERR:
    case IBV_EVENT_QP_ACCESS_ERR:
    case IBV_EVENT_COMM_EST:
    case IBV_EVENT_SQ_DRAINED:
    case IBV_EVENT_PATH_MIG:
    case IBV_EVENT_PATH_MIG_ERR:
    case IBV_EVENT_QP_LAST_WQE_REACHED:
        if (event->element.qp) {
            struct ibv_qp *qp = event->element.qp;
            pthread_mutex_lock(&qp->mutex);
            qp->events_completed++;
            pthread_cond_signal(&qp->cond);
            pthread_mutex_unlock(&qp->mutex);
        }
        break;
    case IBV_EVENT_CQ_ERR:
        if (event->element.cq) {
            struct ibv_cq *cq = event->element.cq;
            pthread_mutex_lock(&cq->mutex);
            cq->async_events_completed++;
            pthread_cond_signal(&cq->cond);
            pthread_mutex_unlock(&cq->mutex);
        }
        break;
    case IBV_EVENT_SRQ_ERR:
    case IBV_EVENT_SRQ_LIMIT_REACHED:
        if (event->element.srq) {
            struct ibv_srq *srq = event->element.srq;
            pthread_mutex_lock(&srq->mutex);
            srq->events_completed++;
            pthread_cond_signal(&srq->cond);
            pthread_mutex_unlock(&srq->mutex);
        }
        break;
    default:
        break;
    }
}
