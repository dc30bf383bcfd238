/*
 * Extended CQs (struct ibv_cq_ex: ibv_start_poll / ibv_next_poll / ibv_end_poll and the
 * ibv_wc_read_* accessors): function pointers in the CQ itself. A CQ made by ibv_create_cq_ex gets
 * recording start/next/end pointers; each completion is read with the provider's own accessors
 * (only the fields the CQ was created to report) into a struct ibv_wc, and ibv_end_poll writes
 * the poll as one IBV_POLL_CQ record, like an ibv_poll_cq that returned that many. An empty
 * start_poll (ENOENT) counts as an empty poll.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "tr_loc.h"

#define TR_CQX_TABLE 1024      /* open-addressed, power of two */
#define TR_CQX_WCS 256         /* completions kept per poll before a record is written */

struct tr_cqx {
    _Atomic(struct ibv_cq_ex *) cq;
    int (*start_poll)(struct ibv_cq_ex *, struct ibv_poll_cq_attr *);
    int (*next_poll)(struct ibv_cq_ex *);
    void (*end_poll)(struct ibv_cq_ex *);
    uint64_t wc_flags;
    struct ibv_wc *wcs;
    int count;
    int64_t t_start;
    int64_t spent;
};

static struct tr_cqx table[TR_CQX_TABLE];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

static inline size_t slot_of(const void *p)
{
    uintptr_t x = (uintptr_t)p >> 4;
    return (size_t)((x ^ (x >> 10)) & (TR_CQX_TABLE - 1));
}

static inline struct tr_cqx *find(struct ibv_cq_ex *cq)
{
    size_t i = slot_of(cq);
    for (size_t n = 0; n < TR_CQX_TABLE; n++, i = (i + 1) & (TR_CQX_TABLE - 1)) {
        struct ibv_cq_ex *k = atomic_load_explicit(&table[i].cq, memory_order_acquire);
        if (k == cq) {
            return &table[i];
        }
        if (k == NULL) {
            return NULL;
        }
    }
    return NULL;
}

/* The current completion, through the provider's accessors. */
static void take(struct tr_cqx *s, struct ibv_cq_ex *cq)
{
    if (s->count == TR_CQX_WCS) {
        /* a long poll: what is kept so far becomes a record of its own */
        tr_poll_record(ibv_cq_ex_to_cq(cq), TR_CQX_WCS, s->wcs, s->count, 0, s->t_start, s->spent);
        s->count = 0;
    }
    struct ibv_wc *wc = &s->wcs[s->count++];
    memset(wc, 0, sizeof *wc);
    wc->wr_id = cq->wr_id;
    wc->status = cq->status;
    wc->opcode = cq->read_opcode != NULL ? cq->read_opcode(cq) : 0;
    wc->vendor_err = cq->read_vendor_err != NULL ? cq->read_vendor_err(cq) : 0;
    wc->wc_flags = cq->read_wc_flags != NULL ? cq->read_wc_flags(cq) : 0;
    if ((s->wc_flags & IBV_WC_EX_WITH_BYTE_LEN) && cq->read_byte_len != NULL) {
        wc->byte_len = cq->read_byte_len(cq);
    }
    if ((s->wc_flags & IBV_WC_EX_WITH_IMM) && (wc->wc_flags & IBV_WC_WITH_IMM) && cq->read_imm_data != NULL) {
        wc->imm_data = cq->read_imm_data(cq);
    }
    if ((s->wc_flags & IBV_WC_EX_WITH_QP_NUM) && cq->read_qp_num != NULL) {
        wc->qp_num = cq->read_qp_num(cq);
    }
    if ((s->wc_flags & IBV_WC_EX_WITH_SRC_QP) && cq->read_src_qp != NULL) {
        wc->src_qp = cq->read_src_qp(cq);
    }
    if ((s->wc_flags & IBV_WC_EX_WITH_SLID) && cq->read_slid != NULL) {
        wc->slid = (uint16_t)cq->read_slid(cq);
    }
    if ((s->wc_flags & IBV_WC_EX_WITH_SL) && cq->read_sl != NULL) {
        wc->sl = cq->read_sl(cq);
    }
    if ((s->wc_flags & IBV_WC_EX_WITH_DLID_PATH_BITS) && cq->read_dlid_path_bits != NULL) {
        wc->dlid_path_bits = cq->read_dlid_path_bits(cq);
    }
}

static int tr_start_poll(struct ibv_cq_ex *cq, struct ibv_poll_cq_attr *attr)
{
    struct tr_cqx *s = find(cq);
    if (s == NULL) {
        return ENOSYS;
    }
    int64_t t0 = tr_now();
    int ret = s->start_poll(cq, attr);
    int64_t t1 = tr_now();
    int err = errno;
    if (!tr_recording) {
        return ret;
    }
    if (ret == ENOENT) {
        tr_poll_empty(ibv_cq_ex_to_cq(cq), TR_CQX_WCS, t0, t1);
    } else if (ret != 0) {
        tr_poll_record(ibv_cq_ex_to_cq(cq), TR_CQX_WCS, NULL, -1, ret, t0, t1 - t0);
    } else {
        s->count = 0;
        s->t_start = t0;
        s->spent = t1 - t0;
        take(s, cq);
    }
    errno = err;
    return ret;
}

static int tr_next_poll(struct ibv_cq_ex *cq)
{
    struct tr_cqx *s = find(cq);
    if (s == NULL) {
        return ENOSYS;
    }
    int64_t t0 = tr_now();
    int ret = s->next_poll(cq);
    s->spent += tr_now() - t0;
    if (ret == 0 && tr_recording) {
        take(s, cq);
    }
    return ret;
}

static void tr_end_poll(struct ibv_cq_ex *cq)
{
    struct tr_cqx *s = find(cq);
    if (s == NULL) {
        return;
    }
    int64_t t0 = tr_now();
    s->end_poll(cq);
    s->spent += tr_now() - t0;
    if (s->count > 0 && tr_recording) {
        tr_poll_record(ibv_cq_ex_to_cq(cq), TR_CQX_WCS, s->wcs, s->count, 0, s->t_start, s->spent);
    }
    s->count = 0;
}

void tr_cqx_attach(struct ibv_cq_ex *cq, uint64_t wc_flags)
{
    if (cq == NULL || cq->start_poll == NULL || cq->next_poll == NULL || cq->end_poll == NULL) {
        return;
    }
    pthread_mutex_lock(&table_lock);
    size_t i = slot_of(cq);
    for (size_t n = 0; n < TR_CQX_TABLE; n++, i = (i + 1) & (TR_CQX_TABLE - 1)) {
        struct ibv_cq_ex *k = atomic_load(&table[i].cq);
        if (k == NULL || k == cq) {
            struct tr_cqx *s = &table[i];
            if (s->wcs == NULL) {
                s->wcs = malloc(TR_CQX_WCS * sizeof *s->wcs);   /* control path, kept for reuse */
            }
            if (s->wcs == NULL) {
                break;
            }
            s->start_poll = cq->start_poll;
            s->next_poll = cq->next_poll;
            s->end_poll = cq->end_poll;
            s->wc_flags = wc_flags;
            s->count = 0;
            atomic_store_explicit(&s->cq, cq, memory_order_release);
            cq->start_poll = tr_start_poll;
            cq->next_poll = tr_next_poll;
            cq->end_poll = tr_end_poll;
            break;
        }
    }
    pthread_mutex_unlock(&table_lock);
}
