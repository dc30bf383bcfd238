/*
 * The inline data path: ibv_post_send/post_recv/post_srq_recv/poll_cq/req_notify_cq are inline
 * functions of verbs.h that call through ctx->ops, never through an exported symbol. At open the
 * tracer keeps the context's ops and puts its own in; each one calls the kept op and records.
 *
 * Consecutive empty polls of one CQ on one thread become a single IBV_POLL_CQ record (POLLED 0,
 * EMPTY_POLLS = how many, duration = their summed time, SPAN_NS = first start to last end),
 * written before the thread's next record, as the agent's recorder does.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "tr_loc.h"

#define TR_MAX_CONTEXTS 64
#define TR_MAX_CHAIN 1000000   /* WRs walked in one chain: a cyclic list stops here */
#define TR_MAX_SGE 1024        /* SGEs recorded per WR (num_sge beyond this is kept in NUM_SGE) */

struct tr_ops {
    _Atomic(struct ibv_context *) ctx;
    int (*post_send)(struct ibv_qp *, struct ibv_send_wr *, struct ibv_send_wr **);
    int (*post_recv)(struct ibv_qp *, struct ibv_recv_wr *, struct ibv_recv_wr **);
    int (*post_srq_recv)(struct ibv_srq *, struct ibv_recv_wr *, struct ibv_recv_wr **);
    int (*poll_cq)(struct ibv_cq *, int, struct ibv_wc *);
    int (*req_notify_cq)(struct ibv_cq *, int);
};

static struct tr_ops ops_table[TR_MAX_CONTEXTS];
static pthread_mutex_t ops_lock = PTHREAD_MUTEX_INITIALIZER;

static inline const struct tr_ops *ops_of(struct ibv_context *ctx)
{
    for (int i = 0; i < TR_MAX_CONTEXTS; i++) {
        if (atomic_load_explicit(&ops_table[i].ctx, memory_order_acquire) == ctx) {
            return &ops_table[i];
        }
    }
    return NULL;
}

/* ---- empty-poll summary (per thread) ------------------------------------------------------- */

__thread int tr_empty_pending;
static __thread struct {
    struct ibv_cq *cq;
    int num_entries;
    int64_t count, nanos, first, last;
} empty;

void tr_poll_flush(void)
{
    if (!tr_empty_pending) {
        return;
    }
    tr_empty_pending = 0;
    uint32_t n = TR_PAYLOAD + PL_NSLOTS;
    int64_t *r = tr_reserve(n);
    if (r != NULL) {
        tr_head(r, TR_IBV_POLL_CQ, 0, n, empty.first, empty.cq, 0, 0, empty.nanos);
        int64_t *p = r + TR_PAYLOAD;
        p[PL_NUM_ENTRIES] = empty.num_entries;
        p[PL_POLLED] = 0;
        p[PL_EMPTY_POLLS] = empty.count;
        p[PL_SPAN_NS] = empty.last - empty.first;
        tr_commit(r, n);
    }
    empty.cq = NULL;
    empty.count = 0;
    empty.nanos = 0;
}

void tr_poll_empty(struct ibv_cq *cq, int num_entries, int64_t t0, int64_t t1)
{
    if (empty.cq != cq && tr_empty_pending) {
        tr_poll_flush();
    }
    if (!tr_empty_pending) {
        empty.cq = cq;
        empty.num_entries = num_entries;
        empty.first = t0;
        tr_empty_pending = 1;
    }
    empty.count++;
    empty.nanos += t1 - t0;
    empty.last = t1;
    if (empty.count >= (1 << 20)) {
        tr_poll_flush();
    }
}

/* ---- the recording ops --------------------------------------------------------------------- */

static int sge_count(int num_sge)
{
    return num_sge < 0 ? 0 : (num_sge > TR_MAX_SGE ? TR_MAX_SGE : num_sge);
}

static void post_send_record(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr *bad, int ret, int64_t t0,
                             int64_t dur)
{
    if (!tr_recording) {
        return;
    }
    int total = 0, bad_index = -1;
    for (struct ibv_send_wr *w = wr; w != NULL && total < TR_MAX_CHAIN; w = w->next, total++) {
        if (w == bad && ret != 0) {
            bad_index = total;
        }
    }
    struct ibv_send_wr *w = wr;
    int done = 0;
    do {
        /* as many WRs as fit in one record; the rest follow in records flagged MORE on the first */
        uint32_t n = TR_PAYLOAD + PS_NSLOTS;
        int here = 0;
        for (struct ibv_send_wr *v = w; v != NULL && done + here < total; v = v->next, here++) {
            uint32_t need = SWR_NSLOTS + (uint32_t)sge_count(v->num_sge) * SGE_NSLOTS;
            if (here > 0 && n + need > TR_MAX_RECORD_SLOTS) {
                break;
            }
            n += need;
        }
        int64_t *r = tr_reserve(n);
        if (r == NULL) {
            return;
        }
        int more = done + here < total;
        tr_head(r, TR_IBV_POST_SEND, more ? TR_FLAG_MORE : 0, n, t0, qp, ret, ret, dur);
        int64_t *p = r + TR_PAYLOAD;
        p[PS_QP_NUM] = qp->qp_num;
        p[PS_QP_TYPE] = qp->qp_type;
        p[PS_WR_COUNT] = total;
        p[PS_BAD_INDEX] = bad_index;
        p[PS_HERE] = here;
        int64_t *o = p + PS_NSLOTS;
        for (int i = 0; i < here; i++, w = w->next) {
            send_wr_to_slots(w, o);
            if (qp->qp_type == IBV_QPT_UD) {
                o[SWR_AH] = (int64_t)(uintptr_t)w->wr.ud.ah;
                o[SWR_REMOTE_QPN] = w->wr.ud.remote_qpn;
                o[SWR_REMOTE_QKEY] = w->wr.ud.remote_qkey;
            }
            o += SWR_NSLOTS;
            int sges = sge_count(w->num_sge);
            for (int j = 0; j < sges; j++, o += SGE_NSLOTS) {
                sge_to_slots(&w->sg_list[j], o);
            }
        }
        tr_commit(r, n);
        done += here;
    } while (done < total);
}

static void recv_record(enum tr_kind kind, const void *handle, uint32_t qpn, int qp_type, struct ibv_recv_wr *wr,
                        struct ibv_recv_wr *bad, int ret, int64_t t0, int64_t dur)
{
    if (!tr_recording) {
        return;
    }
    int total = 0, bad_index = -1;
    for (struct ibv_recv_wr *w = wr; w != NULL && total < TR_MAX_CHAIN; w = w->next, total++) {
        if (w == bad && ret != 0) {
            bad_index = total;
        }
    }
    struct ibv_recv_wr *w = wr;
    int done = 0;
    do {
        uint32_t n = TR_PAYLOAD + PS_NSLOTS;
        int here = 0;
        for (struct ibv_recv_wr *v = w; v != NULL && done + here < total; v = v->next, here++) {
            uint32_t need = RWR_NSLOTS + (uint32_t)sge_count(v->num_sge) * SGE_NSLOTS;
            if (here > 0 && n + need > TR_MAX_RECORD_SLOTS) {
                break;
            }
            n += need;
        }
        int64_t *r = tr_reserve(n);
        if (r == NULL) {
            return;
        }
        int more = done + here < total;
        tr_head(r, kind, more ? TR_FLAG_MORE : 0, n, t0, handle, ret, ret, dur);
        int64_t *p = r + TR_PAYLOAD;
        p[PS_QP_NUM] = qpn;
        p[PS_QP_TYPE] = qp_type;
        p[PS_WR_COUNT] = total;
        p[PS_BAD_INDEX] = bad_index;
        p[PS_HERE] = here;
        int64_t *o = p + PS_NSLOTS;
        for (int i = 0; i < here; i++, w = w->next) {
            o[RWR_WR_ID] = (int64_t)w->wr_id;
            o[RWR_NUM_SGE] = w->num_sge;
            o += RWR_NSLOTS;
            int sges = sge_count(w->num_sge);
            for (int j = 0; j < sges; j++, o += SGE_NSLOTS) {
                sge_to_slots(&w->sg_list[j], o);
            }
        }
        tr_commit(r, n);
        done += here;
    } while (done < total);
}

static int tr_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)
{
    const struct tr_ops *o = ops_of(qp->context);
    if (o == NULL) {
        return ENOSYS;
    }
    struct ibv_send_wr *bad = NULL;
    int64_t t0 = tr_now();
    int ret = o->post_send(qp, wr, &bad);
    int64_t t1 = tr_now();
    int err = errno;
    if (bad_wr != NULL) {
        *bad_wr = bad;
    }
    post_send_record(qp, wr, bad, ret, t0, t1 - t0);
    errno = err;
    return ret;
}

static int tr_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
    const struct tr_ops *o = ops_of(qp->context);
    if (o == NULL) {
        return ENOSYS;
    }
    struct ibv_recv_wr *bad = NULL;
    int64_t t0 = tr_now();
    int ret = o->post_recv(qp, wr, &bad);
    int64_t t1 = tr_now();
    int err = errno;
    if (bad_wr != NULL) {
        *bad_wr = bad;
    }
    recv_record(TR_IBV_POST_RECV, qp, qp->qp_num, qp->qp_type, wr, bad, ret, t0, t1 - t0);
    errno = err;
    return ret;
}

static int tr_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
    const struct tr_ops *o = ops_of(srq->context);
    if (o == NULL) {
        return ENOSYS;
    }
    struct ibv_recv_wr *bad = NULL;
    int64_t t0 = tr_now();
    int ret = o->post_srq_recv(srq, wr, &bad);
    int64_t t1 = tr_now();
    int err = errno;
    if (bad_wr != NULL) {
        *bad_wr = bad;
    }
    recv_record(TR_IBV_POST_SRQ_RECV, srq, 0, -1, wr, bad, ret, t0, t1 - t0);
    errno = err;
    return ret;
}

void tr_poll_record(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc, int ret, int err, int64_t t0,
                        int64_t dur)
{
    int total = ret > 0 ? (ret < num_entries ? ret : num_entries) : 0;
    int done = 0;
    do {
        int here = total - done;
        int cap = (TR_MAX_RECORD_SLOTS - TR_PAYLOAD - PL_NSLOTS) / WC_NSLOTS;
        if (here > cap) {
            here = cap;
        }
        uint32_t n = TR_PAYLOAD + PL_NSLOTS + (uint32_t)here * WC_NSLOTS;
        int64_t *r = tr_reserve(n);
        if (r == NULL) {
            return;
        }
        int more = done + here < total;
        tr_head(r, TR_IBV_POLL_CQ, more ? TR_FLAG_MORE : 0, n, t0, cq, ret, ret < 0 ? (err != 0 ? err : -ret) : 0,
                dur);
        int64_t *p = r + TR_PAYLOAD;
        p[PL_NUM_ENTRIES] = num_entries;
        p[PL_POLLED] = here;
        p[PL_EMPTY_POLLS] = 0;
        p[PL_SPAN_NS] = dur;
        for (int i = 0; i < here; i++) {
            wc_to_slots(&wc[done + i], p + PL_NSLOTS + (size_t)i * WC_NSLOTS);
        }
        tr_commit(r, n);
        done += here;
    } while (done < total);
}

static int tr_poll_cq(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc)
{
    const struct tr_ops *o = ops_of(cq->context);
    if (o == NULL) {
        return -1;
    }
    int64_t t0 = tr_now();
    int ret = o->poll_cq(cq, num_entries, wc);
    int64_t t1 = tr_now();
    if (!tr_recording) {
        return ret;
    }
    int err = errno;
    if (ret == 0) {
        tr_poll_empty(cq, num_entries, t0, t1);
        return 0;
    }
    tr_poll_record(cq, num_entries, wc, ret, err, t0, t1 - t0);
    errno = err;
    return ret;
}

static int tr_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
    const struct tr_ops *o = ops_of(cq->context);
    if (o == NULL) {
        return ENOSYS;
    }
    int64_t t0 = tr_now();
    int ret = o->req_notify_cq(cq, solicited_only);
    int64_t t1 = tr_now();
    int err = errno;
    int64_t args[1] = {solicited_only};
    tr_args(TR_IBV_REQ_NOTIFY_CQ, t0, t1 - t0, cq, ret, ret, 1, args);
    errno = err;
    return ret;
}

/* ---- attach / detach ------------------------------------------------------------------------ */

void tr_ops_attach(struct ibv_context *ctx)
{
    pthread_mutex_lock(&ops_lock);
    for (int i = 0; i < TR_MAX_CONTEXTS; i++) {
        struct tr_ops *o = &ops_table[i];
        if (atomic_load(&o->ctx) != NULL) {
            continue;
        }
        o->post_send = ctx->ops.post_send;
        o->post_recv = ctx->ops.post_recv;
        o->post_srq_recv = ctx->ops.post_srq_recv;
        o->poll_cq = ctx->ops.poll_cq;
        o->req_notify_cq = ctx->ops.req_notify_cq;
        atomic_store_explicit(&o->ctx, ctx, memory_order_release);
        /* only ops the provider has are replaced: a missing one stays missing */
        if (o->post_send != NULL) {
            ctx->ops.post_send = tr_post_send;
        }
        if (o->post_recv != NULL) {
            ctx->ops.post_recv = tr_post_recv;
        }
        if (o->post_srq_recv != NULL) {
            ctx->ops.post_srq_recv = tr_post_srq_recv;
        }
        if (o->poll_cq != NULL) {
            ctx->ops.poll_cq = tr_poll_cq;
        }
        if (o->req_notify_cq != NULL) {
            ctx->ops.req_notify_cq = tr_req_notify_cq;
        }
        break;
    }
    pthread_mutex_unlock(&ops_lock);
}

void tr_ops_detach(struct ibv_context *ctx)
{
    pthread_mutex_lock(&ops_lock);
    for (int i = 0; i < TR_MAX_CONTEXTS; i++) {
        if (atomic_load(&ops_table[i].ctx) == ctx) {
            atomic_store(&ops_table[i].ctx, NULL);
        }
    }
    pthread_mutex_unlock(&ops_lock);
}
