/* Completion queues and completion channels. A CQ is a ring of struct ibv_wc; a channel is a
 * pipe whose read end is the fd the application polls, carrying the uid of each CQ whose
 * notification fired (so an event of a destroyed CQ can be recognised and skipped). */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sv_loc.h"

/* ---- completion channels ---- */

struct ibv_comp_channel *ibv_create_comp_channel(struct ibv_context *context)
{
    if (!sv_ctx_checked(context)) {
        errno = EINVAL;
        return NULL;
    }
    struct sv_comp_channel *ch = calloc(1, sizeof *ch);
    if (!ch) {
        errno = ENOMEM;
        return NULL;
    }
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) {
        int e = errno;
        free(ch);
        errno = e;
        return NULL;
    }
    fcntl(p[1], F_SETFL, O_NONBLOCK);   /* the transport never blocks on a slow reader */
    pthread_mutex_init(&ch->lock, NULL);
    ch->ibch.context = context;
    ch->ibch.fd = p[0];
    ch->ibch.refcnt = 0;
    ch->wr_fd = p[1];
    return &ch->ibch;
}

int ibv_destroy_comp_channel(struct ibv_comp_channel *channel)
{
    if (!channel || !sv_ctx_checked(channel->context))
        return EINVAL;
    struct sv_comp_channel *ch = sv_container_of(channel, struct sv_comp_channel, ibch);
    pthread_mutex_lock(&ch->lock);
    bool busy = ch->ibch.refcnt > 0;
    pthread_mutex_unlock(&ch->lock);
    if (busy)
        return EBUSY;
    close(ch->ibch.fd);
    close(ch->wr_fd);
    pthread_mutex_destroy(&ch->lock);
    free(ch);
    return 0;
}

int ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq, void **cq_context)
{
    if (!channel || !cq || !cq_context || !sv_ctx_checked(channel->context)) {
        errno = EINVAL;
        return -1;
    }
    struct sv_comp_channel *ch = sv_container_of(channel, struct sv_comp_channel, ibch);
    for (;;) {   /* one record per pass; events of CQs destroyed meanwhile are skipped */
        uint64_t uid;
        ssize_t n = read(channel->fd, &uid, sizeof uid);   /* blocks unless the fd is O_NONBLOCK */
        if (n < 0)
            return -1;
        if (n != (ssize_t)sizeof uid) {
            errno = EIO;
            return -1;
        }
        pthread_mutex_lock(&ch->lock);
        for (struct sv_cq *c = ch->cqs; c; c = c->chan_next) {
            if (c->uid == uid) {
                *cq = &c->ibcq;
                *cq_context = c->ibcq.cq_context;
                pthread_mutex_lock(&c->ibcq.mutex);
                c->comp_reported++;
                pthread_mutex_unlock(&c->ibcq.mutex);
                pthread_mutex_unlock(&ch->lock);
                return 0;
            }
        }
        pthread_mutex_unlock(&ch->lock);
    }
}

void ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents)
{
    if (!cq)
        return;
    pthread_mutex_lock(&cq->mutex);
    cq->comp_events_completed += nevents;
    pthread_cond_broadcast(&cq->cond);
    pthread_mutex_unlock(&cq->mutex);
}

static void channel_attach(struct sv_comp_channel *ch, struct sv_cq *cq)
{
    pthread_mutex_lock(&ch->lock);
    cq->chan_next = ch->cqs;
    ch->cqs = cq;
    ch->ibch.refcnt++;
    pthread_mutex_unlock(&ch->lock);
}

static void channel_detach(struct sv_comp_channel *ch, struct sv_cq *cq)
{
    pthread_mutex_lock(&ch->lock);
    for (struct sv_cq **p = &ch->cqs; *p; p = &(*p)->chan_next) {
        if (*p == cq) {
            *p = cq->chan_next;
            ch->ibch.refcnt--;
            break;
        }
    }
    pthread_mutex_unlock(&ch->lock);
}

/* ---- CQs ---- */

static uint32_t cq_slots(const struct sv_context *ctx, int cqe)
{
    /* rxe sizes the ring to a power of two and keeps one slot free: 501 -> 511 */
    if (ctx->dev->cfg.quirks & SV_QUIRK_CAPS_POW2)
        return sv_roundup_pow2((uint32_t)cqe);
    return sv_roundup_pow2((uint32_t)cqe + 1) - 1;
}

struct ibv_cq *ibv_create_cq(struct ibv_context *context, int cqe, void *cq_context,
                             struct ibv_comp_channel *channel, int comp_vector)
{
    struct sv_context *ctx = sv_ctx_checked(context);
    if (!ctx) {
        errno = EINVAL;
        return NULL;
    }
    struct sv_cq *cq = sv_cq_create(ctx, cqe, cq_context, channel, comp_vector);
    return cq ? &cq->ibcq : NULL;
}

struct sv_cq *sv_cq_create(struct sv_context *ctx, int cqe, void *cq_context,
                           struct ibv_comp_channel *channel, int comp_vector)
{
    struct ibv_context *context = &ctx->vctx.context;
    if (cqe <= 0 || (uint32_t)cqe > ctx->dev->cfg.lim.max_cqe || comp_vector < 0 ||
        comp_vector >= context->num_comp_vectors || (channel && !sv_ctx_same(channel->context, context))) {
        errno = EINVAL;
        return NULL;
    }
    struct sv_cq *cq = calloc(1, sizeof *cq);
    uint32_t slots = cq_slots(ctx, cqe);
    struct ibv_wc *ring = calloc(slots, sizeof *ring);
    if (!cq || !ring) {
        free(cq);
        free(ring);
        errno = ENOMEM;
        return NULL;
    }
    cq->ring = ring;
    cq->slots = slots;
    cq->ctx = ctx;
    pthread_mutex_init(&cq->lock, NULL);
    atomic_init(&cq->users, 0);
    cq->ibcq.context = context;
    cq->ibcq.channel = channel;
    cq->ibcq.cq_context = cq_context;
    cq->ibcq.cqe = (int)slots;
    pthread_mutex_init(&cq->ibcq.mutex, NULL);
    pthread_cond_init(&cq->ibcq.cond, NULL);
    pthread_mutex_lock(&ctx->obj_lock);
    cq->uid = sv_ctx_new_uid(ctx);
    cq->ibcq.handle = sv_ctx_new_handle(ctx);
    cq->ctx_next = ctx->cqs;
    ctx->cqs = cq;
    pthread_mutex_unlock(&ctx->obj_lock);
    if (channel) {
        cq->channel = sv_container_of(channel, struct sv_comp_channel, ibch);
        channel_attach(cq->channel, cq);
    }
    return cq;
}

static void cq_free(struct sv_cq *cq)
{
    if (cq->channel)
        channel_detach(cq->channel, cq);
    pthread_mutex_destroy(&cq->lock);
    pthread_mutex_destroy(&cq->ibcq.mutex);
    pthread_cond_destroy(&cq->ibcq.cond);
    free(cq->ring);
    free(cq);
}

void sv_cq_free_on_close(struct sv_cq *cq)
{
    cq_free(cq);
}

int ibv_destroy_cq(struct ibv_cq *ibcq)
{
    struct sv_context *ctx = ibcq ? sv_ctx_checked(ibcq->context) : NULL;
    if (!ctx)
        return EINVAL;
    struct sv_cq *cq = sv_cq(ibcq);
    if (atomic_load(&cq->users) > 0)
        return EBUSY;   /* the core's use count: QPs still attached */
    sv_wait_acked(&ibcq->mutex, &ibcq->cond, &ibcq->comp_events_completed, &cq->comp_reported);
    sv_wait_acked(&ibcq->mutex, &ibcq->cond, &ibcq->async_events_completed, &cq->async_reported);
    pthread_mutex_lock(&ctx->obj_lock);
    for (struct sv_cq **p = &ctx->cqs; *p; p = &(*p)->ctx_next) {
        if (*p == cq) {
            *p = cq->ctx_next;
            break;
        }
    }
    pthread_mutex_unlock(&ctx->obj_lock);
    cq_free(cq);
    return 0;
}

int ibv_resize_cq(struct ibv_cq *ibcq, int cqe)
{
    struct sv_context *ctx = ibcq ? sv_ctx_checked(ibcq->context) : NULL;
    if (!ctx || cqe <= 0 || (uint32_t)cqe > ctx->dev->cfg.lim.max_cqe)
        return EINVAL;
    struct sv_cq *cq = sv_cq(ibcq);
    uint32_t slots = cq_slots(ctx, cqe);
    struct ibv_wc *ring = calloc(slots, sizeof *ring);
    if (!ring)
        return ENOMEM;
    pthread_mutex_lock(&cq->lock);
    if (cq->count > slots) {   /* would lose completions */
        pthread_mutex_unlock(&cq->lock);
        free(ring);
        return EINVAL;
    }
    for (uint32_t i = 0; i < cq->count; i++)
        ring[i] = cq->ring[(cq->head + i) % cq->slots];
    free(cq->ring);
    cq->ring = ring;
    cq->slots = slots;
    cq->head = 0;
    ibcq->cqe = (int)slots;
    pthread_mutex_unlock(&cq->lock);
    return 0;
}

int sv_poll_cq(struct ibv_cq *ibcq, int num_entries, struct ibv_wc *wc)
{
    if (!ibcq || num_entries < 0 || (num_entries > 0 && !wc))
        return -EINVAL;
    struct sv_cq *cq = sv_cq(ibcq);
    int n = 0;
    for (int pass = 0; pass < 2; pass++) {
        pthread_mutex_lock(&cq->lock);
        while (n < num_entries && cq->count > 0) {
            wc[n++] = cq->ring[cq->head];
            cq->head = (cq->head + 1) % cq->slots;
            cq->count--;
        }
        if (cq->overflowed && cq->count < cq->slots)
            cq->overflowed = false;
        pthread_mutex_unlock(&cq->lock);
        /* empty: receive for the device in this thread, as a NIC polled by its driver would
         * deliver, then look again (no hand-off to the progress thread on the way) */
        if (n > 0 || num_entries == 0 || !sv_ctx_poll_progress(cq->ctx))
            break;
    }
    /* still nothing: a busy-polling consumer lets the other threads on these CPUs run instead
     * of spinning through its time slice */
    if (n == 0)
        sched_yield();
    return n;
}

int sv_req_notify_cq(struct ibv_cq *ibcq, int solicited_only)
{
    if (!ibcq)
        return EINVAL;
    struct sv_cq *cq = sv_cq(ibcq);
    pthread_mutex_lock(&cq->lock);
    cq->notify = solicited_only ? 2 : 1;
    pthread_mutex_unlock(&cq->lock);
    sv_ctx_poll_stopped(cq->ctx);   /* about to sleep on the channel: the progress thread receives */
    return 0;
}

bool sv_cq_push(struct sv_cq *cq, const struct ibv_wc *wc, bool solicited)
{
    bool ok = true;
    pthread_mutex_lock(&cq->lock);
    if (cq->count == cq->slots) {
        /* IBA 11.4.2.1: a CQ overrun is an affiliated asynchronous error on the CQ */
        sv_note(cq->ctx->ep, SV_CNT_CQ_OVERFLOW, "CQ of %u entries is full: completion of WR 0x%llx (QP 0x%x, %s) lost",
                cq->slots, (unsigned long long)wc->wr_id, wc->qp_num, ibv_wc_status_str(wc->status));
        if (!cq->overflowed) {
            cq->overflowed = true;
            sv_ctx_async_event(cq->ctx, IBV_EVENT_CQ_ERR, SV_EVOBJ_CQ, cq->uid);
        }
        ok = false;
    } else {
        cq->ring[(cq->head + cq->count) % cq->slots] = *wc;
        cq->count++;
        /* solicited-only notification also fires for error completions (IBA 11.4.2.2) */
        if (cq->notify == 1 || (cq->notify == 2 && (solicited || wc->status != IBV_WC_SUCCESS))) {
            cq->notify = 0;
            if (cq->channel) {
                ssize_t n = write(cq->channel->wr_fd, &cq->uid, sizeof cq->uid);
                (void)n;
            }
        }
    }
    pthread_mutex_unlock(&cq->lock);
    return ok;
}
