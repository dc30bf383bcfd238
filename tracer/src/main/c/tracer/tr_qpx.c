/*
 * The new post API (struct ibv_qp_ex: ibv_wr_start, ibv_wr_send, ibv_wr_set_sge, ...,
 * ibv_wr_complete): function pointers in the QP itself, called by verbs.h's inline helpers.
 * A QP created with send ops gets recording pointers; each WR of the batch is kept, in ring form
 * (SEND_WR and SGE blocks), in a per-QP buffer allocated when the QP is created, and
 * ibv_wr_complete writes them as one IBV_POST_SEND record with its return value, as if the batch
 * had been one ibv_post_send chain. An aborted batch is not a post and is not recorded.
 */
#include <arpa/inet.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "tr_loc.h"

#define TR_QPX_TABLE 4096      /* open-addressed, power of two */
#define TR_QPX_SLOTS 4096      /* WR and SGE blocks kept per batch */

struct tr_qpx {
    _Atomic(struct ibv_qp_ex *) qpx;
    struct ibv_qp_ex orig;       /* the provider's pointers, as created */
    int64_t *wrs;                /* SEND_WR blocks, each followed by its SGE blocks */
    uint32_t used;               /* slots used in wrs */
    int64_t *cur;                /* the SEND_WR block of the WR being built, NULL before the first */
    uint32_t count;              /* WRs in the batch (also those that did not fit) */
    int64_t t_start;
    int64_t spent;               /* time inside the provider's calls of this batch */
};

static struct tr_qpx table[TR_QPX_TABLE];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

static inline size_t slot_of(const void *p)
{
    uintptr_t x = (uintptr_t)p >> 4;
    return (size_t)((x ^ (x >> 12)) & (TR_QPX_TABLE - 1));
}

static inline struct tr_qpx *find(struct ibv_qp_ex *q)
{
    size_t i = slot_of(q);
    for (size_t n = 0; n < TR_QPX_TABLE; n++, i = (i + 1) & (TR_QPX_TABLE - 1)) {
        struct ibv_qp_ex *k = atomic_load_explicit(&table[i].qpx, memory_order_acquire);
        if (k == q) {
            return &table[i];
        }
        if (k == NULL) {
            return NULL;
        }
    }
    return NULL;
}

/* A new WR: its SEND_WR block, filled from the QP's wr_id/wr_flags and the opcode's arguments. */
static int64_t *new_wr(struct tr_qpx *s, struct ibv_qp_ex *q, enum ibv_wr_opcode opcode)
{
    s->count++;
    if (s->wrs == NULL || s->used + SWR_NSLOTS > TR_QPX_SLOTS) {
        s->cur = NULL;
        return NULL;
    }
    int64_t *w = s->wrs + s->used;
    memset(w, 0, SWR_NSLOTS * 8);
    w[SWR_WR_ID] = (int64_t)q->wr_id;
    w[SWR_OPCODE] = opcode;
    w[SWR_SEND_FLAGS] = q->wr_flags;
    s->used += SWR_NSLOTS;
    s->cur = w;
    return w;
}

static void add_sge(struct tr_qpx *s, uint64_t addr, uint32_t length, uint32_t lkey)
{
    if (s->cur == NULL || s->used + SGE_NSLOTS > TR_QPX_SLOTS) {
        return;
    }
    int64_t *g = s->wrs + s->used;
    g[SGE_ADDR] = (int64_t)addr;
    g[SGE_LENGTH] = length;
    g[SGE_LKEY] = lkey;
    s->used += SGE_NSLOTS;
    s->cur[SWR_NUM_SGE]++;
}

#define STATE(q) struct tr_qpx *s = find(q); if (s == NULL) return
#define TIMED(call) do { int64_t t0_ = tr_now(); call; s->spent += tr_now() - t0_; } while (0)

static void tr_wr_start(struct ibv_qp_ex *q)
{
    STATE(q);
    s->used = 0;
    s->count = 0;
    s->cur = NULL;
    s->spent = 0;
    s->t_start = tr_now();
    TIMED(s->orig.wr_start(q));
}

static void tr_wr_send(struct ibv_qp_ex *q)
{
    STATE(q);
    new_wr(s, q, IBV_WR_SEND);
    TIMED(s->orig.wr_send(q));
}

static void tr_wr_send_imm(struct ibv_qp_ex *q, __be32 imm)
{
    STATE(q);
    int64_t *w = new_wr(s, q, IBV_WR_SEND_WITH_IMM);
    if (w != NULL) {
        w[SWR_IMM_DATA] = ntohl(imm);
    }
    TIMED(s->orig.wr_send_imm(q, imm));
}

static void tr_wr_send_inv(struct ibv_qp_ex *q, uint32_t rkey)
{
    STATE(q);
    int64_t *w = new_wr(s, q, IBV_WR_SEND_WITH_INV);
    if (w != NULL) {
        w[SWR_IMM_DATA] = rkey;
    }
    TIMED(s->orig.wr_send_inv(q, rkey));
}

static void tr_wr_rdma(struct tr_qpx *s, struct ibv_qp_ex *q, enum ibv_wr_opcode op, uint32_t rkey, uint64_t addr)
{
    int64_t *w = new_wr(s, q, op);
    if (w != NULL) {
        w[SWR_RKEY] = rkey;
        w[SWR_REMOTE_ADDR] = (int64_t)addr;
    }
}

static void tr_wr_rdma_write(struct ibv_qp_ex *q, uint32_t rkey, uint64_t addr)
{
    STATE(q);
    tr_wr_rdma(s, q, IBV_WR_RDMA_WRITE, rkey, addr);
    TIMED(s->orig.wr_rdma_write(q, rkey, addr));
}

static void tr_wr_rdma_write_imm(struct ibv_qp_ex *q, uint32_t rkey, uint64_t addr, __be32 imm)
{
    STATE(q);
    tr_wr_rdma(s, q, IBV_WR_RDMA_WRITE_WITH_IMM, rkey, addr);
    if (s->cur != NULL) {
        s->cur[SWR_IMM_DATA] = ntohl(imm);
    }
    TIMED(s->orig.wr_rdma_write_imm(q, rkey, addr, imm));
}

static void tr_wr_rdma_read(struct ibv_qp_ex *q, uint32_t rkey, uint64_t addr)
{
    STATE(q);
    tr_wr_rdma(s, q, IBV_WR_RDMA_READ, rkey, addr);
    TIMED(s->orig.wr_rdma_read(q, rkey, addr));
}

static void tr_wr_atomic_cmp_swp(struct ibv_qp_ex *q, uint32_t rkey, uint64_t addr, uint64_t compare, uint64_t swap)
{
    STATE(q);
    tr_wr_rdma(s, q, IBV_WR_ATOMIC_CMP_AND_SWP, rkey, addr);
    if (s->cur != NULL) {
        s->cur[SWR_COMPARE_ADD] = (int64_t)compare;
        s->cur[SWR_SWAP] = (int64_t)swap;
    }
    TIMED(s->orig.wr_atomic_cmp_swp(q, rkey, addr, compare, swap));
}

static void tr_wr_atomic_fetch_add(struct ibv_qp_ex *q, uint32_t rkey, uint64_t addr, uint64_t add)
{
    STATE(q);
    tr_wr_rdma(s, q, IBV_WR_ATOMIC_FETCH_AND_ADD, rkey, addr);
    if (s->cur != NULL) {
        s->cur[SWR_COMPARE_ADD] = (int64_t)add;
    }
    TIMED(s->orig.wr_atomic_fetch_add(q, rkey, addr, add));
}

static void tr_wr_local_inv(struct ibv_qp_ex *q, uint32_t rkey)
{
    STATE(q);
    int64_t *w = new_wr(s, q, IBV_WR_LOCAL_INV);
    if (w != NULL) {
        w[SWR_IMM_DATA] = rkey;
    }
    TIMED(s->orig.wr_local_inv(q, rkey));
}

static void tr_wr_bind_mw(struct ibv_qp_ex *q, struct ibv_mw *mw, uint32_t rkey, const struct ibv_mw_bind_info *info)
{
    STATE(q);
    int64_t *w = new_wr(s, q, IBV_WR_BIND_MW);
    if (w != NULL) {
        w[SWR_RKEY] = rkey;
        if (info != NULL) {
            w[SWR_REMOTE_ADDR] = (int64_t)info->addr;
        }
    }
    TIMED(s->orig.wr_bind_mw(q, mw, rkey, info));
}

static void tr_wr_send_tso(struct ibv_qp_ex *q, void *hdr, uint16_t hdr_sz, uint16_t mss)
{
    STATE(q);
    new_wr(s, q, IBV_WR_TSO);
    TIMED(s->orig.wr_send_tso(q, hdr, hdr_sz, mss));
}

static void tr_wr_set_ud_addr(struct ibv_qp_ex *q, struct ibv_ah *ah, uint32_t qpn, uint32_t qkey)
{
    STATE(q);
    if (s->cur != NULL) {
        s->cur[SWR_AH] = (int64_t)(uintptr_t)ah;
        s->cur[SWR_REMOTE_QPN] = qpn;
        s->cur[SWR_REMOTE_QKEY] = qkey;
    }
    TIMED(s->orig.wr_set_ud_addr(q, ah, qpn, qkey));
}

static void tr_wr_set_xrc_srqn(struct ibv_qp_ex *q, uint32_t srqn)
{
    STATE(q);
    if (s->cur != NULL) {
        s->cur[SWR_REMOTE_QPN] = srqn;
    }
    TIMED(s->orig.wr_set_xrc_srqn(q, srqn));
}

static void tr_wr_set_sge(struct ibv_qp_ex *q, uint32_t lkey, uint64_t addr, uint32_t length)
{
    STATE(q);
    add_sge(s, addr, length, lkey);
    TIMED(s->orig.wr_set_sge(q, lkey, addr, length));
}

static void tr_wr_set_sge_list(struct ibv_qp_ex *q, size_t n, const struct ibv_sge *list)
{
    STATE(q);
    for (size_t i = 0; list != NULL && i < n; i++) {
        add_sge(s, list[i].addr, list[i].length, list[i].lkey);
    }
    TIMED(s->orig.wr_set_sge_list(q, n, list));
}

/* Inline data is recorded as SGEs with lkey 0 (the bytes are copied into the WQE, not registered). */
static void tr_wr_set_inline_data(struct ibv_qp_ex *q, void *addr, size_t length)
{
    STATE(q);
    add_sge(s, (uintptr_t)addr, (uint32_t)length, 0);
    TIMED(s->orig.wr_set_inline_data(q, addr, length));
}

static void tr_wr_set_inline_data_list(struct ibv_qp_ex *q, size_t n, const struct ibv_data_buf *list)
{
    STATE(q);
    for (size_t i = 0; list != NULL && i < n; i++) {
        add_sge(s, (uintptr_t)list[i].addr, (uint32_t)list[i].length, 0);
    }
    TIMED(s->orig.wr_set_inline_data_list(q, n, list));
}

static int tr_wr_complete(struct ibv_qp_ex *q)
{
    struct tr_qpx *s = find(q);
    if (s == NULL) {
        return ENOSYS;
    }
    int64_t t0 = tr_now();
    int ret = s->orig.wr_complete(q);
    int64_t t1 = tr_now();
    int err = errno;
    /* one record per batch; a batch too long for one record continues in records flagged MORE */
    uint32_t done = 0;
    int recorded = 0;
    while (!recorded || done < s->used) {
        uint32_t n = TR_PAYLOAD + PS_NSLOTS, take = 0, here = 0;
        while (done + take < s->used) {
            const int64_t *w = s->wrs + done + take;
            uint32_t len = SWR_NSLOTS + (uint32_t)w[SWR_NUM_SGE] * SGE_NSLOTS;
            if (here > 0 && n + len > TR_MAX_RECORD_SLOTS) {
                break;
            }
            n += len;
            take += len;
            here++;
        }
        int64_t *r = tr_reserve(n);
        if (r == NULL) {
            break;
        }
        int more = done + take < s->used;
        tr_head(r, TR_IBV_POST_SEND, more ? TR_FLAG_MORE : 0, n, s->t_start, q, ret, ret, s->spent + (t1 - t0));
        int64_t *p = r + TR_PAYLOAD;
        p[PS_QP_NUM] = q->qp_base.qp_num;
        p[PS_QP_TYPE] = q->qp_base.qp_type;
        p[PS_WR_COUNT] = s->count;
        p[PS_BAD_INDEX] = -1;
        p[PS_HERE] = here;
        memcpy(p + PS_NSLOTS, s->wrs + done, (size_t)take * 8);
        tr_commit(r, n);
        done += take;
        recorded = 1;
    }
    s->used = 0;
    s->count = 0;
    s->cur = NULL;
    errno = err;
    return ret;
}

static void tr_wr_abort(struct ibv_qp_ex *q)
{
    STATE(q);
    s->used = 0;
    s->count = 0;
    s->cur = NULL;
    s->orig.wr_abort(q);
}

#define SWAP(field, fn) if (q->field != NULL) q->field = fn

void tr_qpx_attach(struct ibv_qp *qp)
{
    struct ibv_qp_ex *q = real_ibv_qp_to_qp_ex(qp);
    if (q == NULL) {
        return;
    }
    pthread_mutex_lock(&table_lock);
    size_t i = slot_of(q);
    for (size_t n = 0; n < TR_QPX_TABLE; n++, i = (i + 1) & (TR_QPX_TABLE - 1)) {
        struct ibv_qp_ex *k = atomic_load(&table[i].qpx);
        if (k == NULL || k == q) {
            struct tr_qpx *s = &table[i];
            if (s->wrs == NULL) {
                s->wrs = malloc((size_t)TR_QPX_SLOTS * 8);   /* control path: once per slot, kept for reuse */
            }
            s->orig = *q;
            s->used = 0;
            s->count = 0;
            s->cur = NULL;
            atomic_store_explicit(&s->qpx, q, memory_order_release);
            SWAP(wr_start, tr_wr_start);
            SWAP(wr_complete, tr_wr_complete);
            SWAP(wr_abort, tr_wr_abort);
            SWAP(wr_send, tr_wr_send);
            SWAP(wr_send_imm, tr_wr_send_imm);
            SWAP(wr_send_inv, tr_wr_send_inv);
            SWAP(wr_send_tso, tr_wr_send_tso);
            SWAP(wr_rdma_write, tr_wr_rdma_write);
            SWAP(wr_rdma_write_imm, tr_wr_rdma_write_imm);
            SWAP(wr_rdma_read, tr_wr_rdma_read);
            SWAP(wr_atomic_cmp_swp, tr_wr_atomic_cmp_swp);
            SWAP(wr_atomic_fetch_add, tr_wr_atomic_fetch_add);
            SWAP(wr_local_inv, tr_wr_local_inv);
            SWAP(wr_bind_mw, tr_wr_bind_mw);
            SWAP(wr_set_ud_addr, tr_wr_set_ud_addr);
            SWAP(wr_set_xrc_srqn, tr_wr_set_xrc_srqn);
            SWAP(wr_set_sge, tr_wr_set_sge);
            SWAP(wr_set_sge_list, tr_wr_set_sge_list);
            SWAP(wr_set_inline_data, tr_wr_set_inline_data);
            SWAP(wr_set_inline_data_list, tr_wr_set_inline_data_list);
            break;
        }
    }
    pthread_mutex_unlock(&table_lock);
}
/* A destroyed QP's entry stays (probing continues past it); a new QP at the same address re-attaches over it. */
