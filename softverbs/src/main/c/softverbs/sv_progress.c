/* The progress engine of a context, apart from the transport engines (sv_req.c, sv_resp.c,
 * sv_comp.c) as rxe keeps its tasks apart: the QPs' retransmit and RNR timers, the receive that
 * an application's empty poll runs in its own thread, and the progress thread that receives
 * whenever no application thread polls and runs the timers that are due. The engines arm timers
 * here (sv_qp_arm_*); a timer that fires schedules the completer's task (comp.timed_out,
 * comp.rnr_expired), and nothing here reaches into an engine otherwise than through its entry
 * points (sv_recv_drain, sv_ep_tx_resume). */
#include <poll.h>
#include <unistd.h>

#include "sv_loc.h"

#define SV_IDLE_WAKEUP_NS (1000ull * 1000 * 1000)  /* progress thread re-checks at least 1/s */
#define SV_RECV_BUDGET    64                      /* datagrams per drain call */
#define SV_RECV_ROUNDS    64                      /* drain calls per wake-up before timers run */
#define SV_TX_RETRY_NS    (1000ull * 1000)        /* parked senders are retried at least every 1 ms */
#define SV_APP_POLL_NS    (1000ull * 1000)        /* an application poll keeps the socket for 1 ms */

static _Thread_local struct sv_context *t_progress_ctx;

/* ---- timers (qp->lock held) ---- */

/* A QP timer was armed for `when`: the progress thread sleeps no longer than that. Cheap: the
 * thread rescans its QPs' timers only when one is due, not after every packet. */
static void timer_armed(struct sv_context *ctx, uint64_t when)
{
    uint64_t cur = atomic_load(&ctx->timer_hint);
    while ((cur == 0 || when < cur) && !atomic_compare_exchange_weak(&ctx->timer_hint, &cur, when))
        ;
    if (t_progress_ctx == ctx)
        return;   /* it reads the hint before it sleeps again */
    /* only a deadline before its planned wake-up needs a write (a syscall, and a wake-up of
     * the progress thread on every message otherwise); an awake thread reads the hint itself */
    uint64_t sleeping = atomic_load(&ctx->sleep_until);
    if (sleeping == 0 || when >= sleeping)
        return;
    uint64_t one = 1;
    ssize_t n = write(ctx->wake_fd, &one, sizeof one);
    (void)n;      /* EAGAIN only when the counter is saturated: it is readable anyway */
}

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
    timer_armed(qp->ctx, qp->comp.retrans_at);
}

void sv_qp_restart_retrans(struct sv_qp *qp)
{
    uint64_t t = sv_qp_timeout_ns(qp);
    bool outstanding = qp->comp.psn != qp->req.psn;
    qp->comp.retrans_at = (t && outstanding) ? sv_now_ns() + t : 0;
    if (qp->comp.retrans_at)
        timer_armed(qp->ctx, qp->comp.retrans_at);
}

void sv_qp_postpone_retrans(struct sv_qp *qp)
{
    if (qp->comp.retrans_at)
        qp->comp.retrans_at = sv_now_ns() + sv_qp_timeout_ns(qp);
}

void sv_qp_arm_rnr(struct sv_qp *qp, uint64_t when)
{
    qp->comp.rnr_at = when;
    timer_armed(qp->ctx, when);
}

uint64_t sv_qp_timers(struct sv_qp *qp, uint64_t now)
{
    if (qp->state != IBV_QPS_RTS && qp->state != IBV_QPS_SQD)
        return 0;
    if (qp->comp.rnr_at && now >= qp->comp.rnr_at) {
        qp->comp.rnr_at = 0;
        qp->comp.rnr_expired = true;
        sv_task_schedule(&qp->comp_task);
    }
    if (qp->comp.retrans_at && now >= qp->comp.retrans_at) {
        qp->comp.retrans_at = 0;
        qp->comp.timed_out = true;
        sv_task_schedule(&qp->comp_task);
    }
    sv_qp_tx_sync(qp);
    uint64_t a = qp->comp.rnr_at, b = qp->comp.retrans_at;
    if (!a)
        return b;
    if (!b)
        return a;
    return a < b ? a : b;
}

/* ---- receiving in the application's thread ---- */

bool sv_ctx_poll_progress(struct sv_context *ctx)
{
    struct sv_endpoint *ep = ctx->ep;
    atomic_store_explicit(&ep->app_poll_ns, sv_now_ns(), memory_order_relaxed);
    sv_udp_flush(ep);   /* ACKs held back since the last poll found no datagram to ride with */
    int n = sv_recv_drain(ep, SV_RECV_BUDGET, false);
    sv_ep_tx_resume(ep);
    return n > 0;
}

void sv_ctx_poll_stopped(struct sv_context *ctx)
{
    sv_udp_flush(ctx->ep);
    if (atomic_exchange(&ctx->ep->app_poll_ns, 0) == 0 || t_progress_ctx == ctx)
        return;
    uint64_t one = 1;
    ssize_t n = write(ctx->wake_fd, &one, sizeof one);
    (void)n;
}


/* ---- the progress thread ---- */

static uint64_t run_timers(struct sv_context *ctx, uint64_t now)
{
    uint64_t next = 0;
    pthread_mutex_lock(&ctx->obj_lock);
    for (struct sv_qp *qp = ctx->qps; qp; qp = qp->ctx_next) {
        pthread_mutex_lock(&qp->lock);
        uint64_t d = sv_qp_timers(qp, now);
        pthread_mutex_unlock(&qp->lock);
        if (d && (!next || d < next))
            next = d;
    }
    pthread_mutex_unlock(&ctx->obj_lock);
    return next;
}

/* Receives datagrams and runs timers. `next` is the earliest known deadline: the QPs' timers
 * are scanned only when it is due (or once a second when none is known, as a safety net), and
 * arming a timer anywhere lowers it through ctx->timer_hint. */
void *sv_progress_main(void *arg)
{
    struct sv_context *ctx = arg;
    t_progress_ctx = ctx;
    uint64_t next = 0;
    while (!atomic_load(&ctx->stopping)) {
        sv_udp_flush(ctx->ep);   /* ACKs held back by an application poll that went away */
        uint64_t now = sv_now_ns();
        uint64_t wait = SV_IDLE_WAKEUP_NS;
        if (next)
            wait = next > now ? next - now : 0;
        if (wait > SV_IDLE_WAKEUP_NS)
            wait = SV_IDLE_WAKEUP_NS;
        if (wait > SV_TX_RETRY_NS && atomic_load(&ctx->ep->wait_nonempty))
            wait = SV_TX_RETRY_NS;   /* a socket that was busy frees up without telling anyone */
        /* an application thread busy-polling its CQ receives for the device: waking here too on
         * every datagram would only cost the sender a wake-up and this thread a wasted read */
        uint64_t app = atomic_load_explicit(&ctx->ep->app_poll_ns, memory_order_relaxed);
        bool app_polls = app && now - app < SV_APP_POLL_NS;
        if (app_polls && wait > app + SV_APP_POLL_NS - now)
            wait = app + SV_APP_POLL_NS - now;
        struct timespec ts = {.tv_sec = (time_t)(wait / 1000000000ull),
                              .tv_nsec = (long)(wait % 1000000000ull)};
        struct pollfd pfd[2] = {{.fd = ctx->ep->fd, .events = POLLIN},
                                {.fd = ctx->wake_fd, .events = POLLIN}};
        /* announce the wake-up time, then look at the hint once more: an arm that missed the
         * announcement is seen here (both sides are sequentially consistent) */
        atomic_store(&ctx->sleep_until, now + wait);
        uint64_t late = atomic_load(&ctx->timer_hint);
        if (late && late < now + wait)
            ts = (struct timespec){0, 0};
        int n = app_polls ? ppoll(&pfd[1], 1, &ts, NULL) : ppoll(pfd, 2, &ts, NULL);
        atomic_store(&ctx->sleep_until, 0);
        if (n > 0 && (pfd[1].revents & POLLIN)) {
            uint64_t v;
            ssize_t r = read(ctx->wake_fd, &v, sizeof v);
            (void)r;
        }
        uint64_t hint = atomic_exchange(&ctx->timer_hint, 0);
        if (hint && (!next || hint < next))
            next = hint;
        now = sv_now_ns();
        /* the QPs' timers are scanned when one is due, or once a second as a safety net */
        bool due = (next && now >= next) || (!next && n == 0 && !app_polls);
        /* everything that has arrived is processed before a timer is judged expired: an ACK
         * waiting in the socket is not a lost one (bounded, so timers still run under a flood) */
        if ((n > 0 && (pfd[0].revents & POLLIN)) || due)
            for (int i = 0; i < SV_RECV_ROUNDS && sv_recv_drain(ctx->ep, SV_RECV_BUDGET, true) == SV_RECV_BUDGET; i++)
                ;
        sv_udp_flush(ctx->ep);      /* the ACKs of what was received, in one sendmmsg */
        sv_ep_tx_resume(ctx->ep);   /* ACKs made room, or the wait timed out */
        if (due)
            next = run_timers(ctx, sv_now_ns());
    }
    return NULL;
}

