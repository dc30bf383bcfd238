/* Memory windows, type 1 and type 2B as rxe has them. A window is a second R_Key onto part of
 * an MR with its own rights: ibv_alloc_mw creates it unbound (type 1 "valid" with no range,
 * type 2 "free"); a BIND_MW work request (ibv_bind_mw for type 1) gives it a range, rights and
 * a new 8-bit key when the requester reaches it; LOCAL_INV or a remote SEND with Invalidate
 * frees a type 2 window. The responder resolves a window key only if it is the current key of
 * a bound window in the QP's PD (type 2: bound through that very QP) and the access is within
 * its range and rights; anything else is an R_Key violation (NAK remote access error).
 * Keys: index SV_MW_INDEX_MIN + slot above every MR index, as rxe's pools. Windows live in the
 * MR table under its lock: binds take it for writing, the responder for reading. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sv_hdr.h"
#include "sv_loc.h"

enum sv_mw_state { SV_MW_FREE, SV_MW_VALID };

struct sv_mw {
    struct ibv_mw ibmw;
    struct sv_pd *pd;
    uint32_t slot;
    uint32_t rkey;               /* the device's current key (ibmw.rkey is the application's) */
    enum sv_mw_state state;
    struct sv_mr *mr;            /* bound MR (its num_mw keeps it registered), NULL if none */
    uint64_t addr, length;       /* bound range in the MR's iova space */
    unsigned int access;
    uint64_t qp_uid;             /* type 2: the QP it was bound through */
};

/* rxe's RXE_ACCESS_SUPPORTED_MW */
#define SV_MW_ACCESS_OK (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | \
                         IBV_ACCESS_REMOTE_ATOMIC | IBV_ACCESS_MW_BIND | IBV_ACCESS_ZERO_BASED)

void sv_mw_table_destroy(struct sv_mr_table *t)
{
    for (uint32_t i = 0; i < t->mw_cap; i++)
        if (t->mw_slot[i]) {
            atomic_fetch_sub(&t->mw_slot[i]->pd->users, 1);
            free(t->mw_slot[i]);
        }
    free(t->mw_slot);
    t->mw_slot = NULL;
    t->mw_cap = t->mw_count = 0;
}

/* The window a key names with that exact key, or NULL. Table lock held. */
static struct sv_mw *find(struct sv_mr_table *t, uint32_t rkey)
{
    if (!sv_key_is_mw(rkey))
        return NULL;
    uint32_t slot = (rkey >> 8) - SV_MW_INDEX_MIN;
    if (slot >= t->mw_cap || !t->mw_slot[slot])
        return NULL;
    struct sv_mw *mw = t->mw_slot[slot];
    return mw->rkey == rkey ? mw : NULL;
}

static void unbind(struct sv_mw *mw)
{
    if (mw->mr)
        mw->mr->num_mw--;
    mw->mr = NULL;
    mw->addr = mw->length = 0;
    mw->access = 0;
    mw->qp_uid = 0;
}

/* ---- verbs ---- */

struct ibv_mw *sv_alloc_mw(struct ibv_pd *ibpd, enum ibv_mw_type type)
{
    struct sv_context *ctx = ibpd ? sv_ctx_checked(ibpd->context) : NULL;
    if (!ctx || (type != IBV_MW_TYPE_1 && type != IBV_MW_TYPE_2)) {
        errno = EINVAL;
        return NULL;
    }
    struct sv_mw *mw = calloc(1, sizeof *mw);
    if (!mw) {
        errno = ENOMEM;
        return NULL;
    }
    struct sv_mr_table *t = &ctx->mrs;
    pthread_rwlock_wrlock(&t->lock);
    uint32_t slot = t->mw_cap;
    for (uint32_t i = 0; i < t->mw_cap; i++)
        if (!t->mw_slot[i]) {
            slot = i;
            break;
        }
    if (t->mw_count >= SV_MAX_MW)
        slot = UINT32_MAX;
    if (slot == t->mw_cap && slot != UINT32_MAX) {
        uint32_t ncap = t->mw_cap ? t->mw_cap * 2 : 16;
        struct sv_mw **n = realloc(t->mw_slot, ncap * sizeof *n);
        if (n) {
            memset(n + t->mw_cap, 0, (ncap - t->mw_cap) * sizeof *n);
            t->mw_slot = n;
            t->mw_cap = ncap;
        } else {
            slot = UINT32_MAX;
        }
    }
    if (slot == UINT32_MAX) {
        pthread_rwlock_unlock(&t->lock);
        free(mw);
        errno = ENOMEM;
        return NULL;
    }
    mw->slot = slot;
    mw->rkey = ((SV_MW_INDEX_MIN + slot) << 8) | ++t->next_key;
    /* rxe: a type 1 window is valid (with nothing bound), a type 2 window free */
    mw->state = type == IBV_MW_TYPE_1 ? SV_MW_VALID : SV_MW_FREE;
    mw->pd = sv_pd(ibpd);
    t->mw_slot[slot] = mw;
    t->mw_count++;
    pthread_rwlock_unlock(&t->lock);
    mw->ibmw.context = ibpd->context;
    mw->ibmw.pd = ibpd;
    mw->ibmw.rkey = mw->rkey;
    mw->ibmw.handle = SV_MW_INDEX_MIN + slot;
    mw->ibmw.type = type;
    atomic_fetch_add(&mw->pd->users, 1);
    return &mw->ibmw;
}

int sv_dealloc_mw(struct ibv_mw *ibmw)
{
    struct sv_context *ctx = ibmw ? sv_ctx_checked(ibmw->context) : NULL;
    if (!ctx)
        return EINVAL;
    struct sv_mw *mw = sv_container_of(ibmw, struct sv_mw, ibmw);
    struct sv_mr_table *t = &ctx->mrs;
    pthread_rwlock_wrlock(&t->lock);
    if (mw->slot >= t->mw_cap || t->mw_slot[mw->slot] != mw) {
        pthread_rwlock_unlock(&t->lock);
        return EINVAL;
    }
    unbind(mw);
    t->mw_slot[mw->slot] = NULL;
    t->mw_count--;
    pthread_rwlock_unlock(&t->lock);
    atomic_fetch_sub(&mw->pd->users, 1);
    free(mw);
    return 0;
}

/* ibv_bind_mw (type 1): a BIND_MW work request with the next key, as rxe's provider does; the
 * application's copy of the key changes once it is posted (undo it on an error completion). */
int sv_bind_mw(struct ibv_qp *qp, struct ibv_mw *mw, struct ibv_mw_bind *bind)
{
    if (!qp || !mw || !bind)
        return EINVAL;
    if (bind->bind_info.mw_access_flags & IBV_ACCESS_ZERO_BASED)
        return EINVAL;
    struct ibv_send_wr wr, *bad = NULL;
    memset(&wr, 0, sizeof wr);
    wr.wr_id = bind->wr_id;
    wr.opcode = IBV_WR_BIND_MW;
    wr.send_flags = bind->send_flags;
    wr.bind_mw.mw = mw;
    wr.bind_mw.rkey = ibv_inc_rkey(mw->rkey);
    wr.bind_mw.bind_info = bind->bind_info;
    int rc = sv_post_send(qp, &wr, &bad);
    if (rc)
        return rc;
    mw->rkey = wr.bind_mw.rkey;
    return 0;
}

/* ---- the local work requests ---- */

int sv_mw_fill_bind(struct sv_qp *qp, struct sv_send_wqe *w, struct ibv_mw *mw, uint32_t rkey,
                    const struct ibv_mw_bind_info *info)
{
    if (!mw || !info || !sv_ctx_same(mw->context, qp->ibqp.context) || (info->mr && !sv_ctx_same(info->mr->context, mw->context)))
        return EINVAL;
    w->bind.mw_rkey = mw->rkey;
    w->bind.new_rkey = rkey;
    w->bind.mr_lkey = info->mr ? info->mr->lkey : 0;
    w->bind.addr = info->addr;
    w->bind.length = info->length;
    w->bind.access = info->mw_access_flags;
    return 0;
}

/* rxe_check_bind_mw's rules (IBA o10-36.2.2, o10-37.2.30/40, C10-72..75). Table write-locked. */
static bool bind_ok(const struct sv_qp *qp, const struct sv_mw *mw, const struct sv_mr *mr,
                    const struct sv_send_wqe *w)
{
    unsigned int acc = w->bind.access;
    if (acc & ~(unsigned int)SV_MW_ACCESS_OK)
        return false;
    if (mw->ibmw.type == IBV_MW_TYPE_1 && (mw->state != SV_MW_VALID || (acc & IBV_ACCESS_ZERO_BASED)))
        return false;
    if (mw->ibmw.type == IBV_MW_TYPE_2 && (mw->state != SV_MW_FREE || qp->pd != mw->pd || !mr))
        return false;
    if (!mr)
        return true;   /* type 1 with length 0: unbinds */
    if (mr->pd != mw->pd || !(mr->access & IBV_ACCESS_MW_BIND))
        return false;
    if ((acc & (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC)) && !(mr->access & IBV_ACCESS_LOCAL_WRITE))
        return false;
    uint64_t end = w->bind.addr + w->bind.length;
    return end >= w->bind.addr && w->bind.addr >= mr->iova && end <= mr->iova + mr->ibmr.length;
}

static enum ibv_wc_status do_bind(struct sv_qp *qp, const struct sv_send_wqe *w)
{
    struct sv_mr_table *t = &qp->ctx->mrs;
    enum ibv_wc_status st = IBV_WC_MW_BIND_ERR;
    pthread_rwlock_wrlock(&t->lock);
    struct sv_mw *mw = find(t, w->bind.mw_rkey);
    struct sv_mr *mr = w->bind.length ? sv_mr_lookup(t, w->bind.mr_lkey) : NULL;
    if (mw && (mr || !w->bind.length) && bind_ok(qp, mw, mr, w)) {
        unbind(mw);
        mw->rkey = (mw->rkey & ~0xFFu) | (w->bind.new_rkey & 0xFFu);
        mw->state = SV_MW_VALID;
        mw->access = w->bind.access;
        mw->addr = w->bind.addr;
        mw->length = w->bind.length;
        if (mr) {
            mw->mr = mr;
            mr->num_mw++;
        }
        if (mw->ibmw.type == IBV_MW_TYPE_2)
            mw->qp_uid = qp->uid;
        st = IBV_WC_SUCCESS;
    }
    pthread_rwlock_unlock(&t->lock);
    return st;
}

/* Frees a bound type 2 window (o10-37.2.26: type 1 windows cannot be invalidated). 0 or EINVAL;
 * MR keys fail too, user MRs cannot be invalidated (rxe). */
static int invalidate(struct sv_qp *qp, uint32_t rkey)
{
    struct sv_mr_table *t = &qp->ctx->mrs;
    int rc = EINVAL;
    pthread_rwlock_wrlock(&t->lock);
    struct sv_mw *mw = find(t, rkey);
    if (mw && mw->ibmw.type == IBV_MW_TYPE_2 && mw->state == SV_MW_VALID) {
        unbind(mw);
        mw->state = SV_MW_FREE;
        rc = 0;
    }
    pthread_rwlock_unlock(&t->lock);
    return rc;
}

int sv_mw_invalidate_remote(struct sv_qp *qp, uint32_t rkey)
{
    int rc = invalidate(qp, rkey);
    if (rc)
        sv_log(qp->ctx->ep, "QP 0x%x: SEND with Invalidate of R_Key 0x%x: not a bound type 2 window",
               qp->ibqp.qp_num, rkey);
    return rc;
}

bool sv_mw_run_local(struct sv_qp *qp, struct sv_send_wqe *w)
{
    enum ibv_wc_status st;
    if (w->opcode == IBV_WR_BIND_MW)
        st = do_bind(qp, w);
    else
        st = invalidate(qp, w->imm_be) ? IBV_WC_LOC_QP_OP_ERR : IBV_WC_SUCCESS;
    if (st != IBV_WC_SUCCESS) {
        sv_qp_fail_at(qp, qp->req.idx, st);   /* rxe: the WQE reports it, the QP goes to ERR */
        return false;
    }
    /* no PSN of its own: it completes in order once everything before it has */
    w->started = true;
    w->local_done = true;
    w->npkts = 0;
    w->first_psn = w->last_psn = sv_psn_add(qp->req.psn, SV_PSN_MASK);
    qp->req.idx++;
    qp->req.offset = 0;
    sv_qp_complete_local_heads(qp);
    return true;
}

void sv_qp_complete_local_heads(struct sv_qp *qp)
{
    while (qp->sq.head != qp->req.idx && qp->sq.head != qp->sq.tail && sv_sq_at(qp, qp->sq.head)->local_done)
        sv_qp_complete_head(qp, IBV_WC_SUCCESS);
}

/* ---- the responder's view ---- */

enum sv_mem_status sv_mw_resolve(const struct sv_qp *qp, uint32_t rkey, uint64_t va, uint64_t len,
                                 unsigned int right, uint8_t **host)
{
    struct sv_mw *mw = find(&qp->ctx->mrs, rkey);
    /* rxe_lookup_mw: current key, same PD, type 2 bound through this QP, bound and valid */
    if (!mw || mw->pd != qp->pd || mw->state != SV_MW_VALID || mw->length == 0 || !mw->mr ||
        (mw->ibmw.type == IBV_MW_TYPE_2 && mw->qp_uid != qp->uid))
        return SV_MEM_BAD_KEY;
    if ((mw->access & right) != right)
        return SV_MEM_NO_RIGHT;
    uint64_t at = (mw->access & IBV_ACCESS_ZERO_BASED) ? mw->addr + va : va;
    if (at < mw->addr || at + len < at || at + len > mw->addr + mw->length)
        return SV_MEM_BOUNDS;
    *host = (uint8_t *)mw->mr->ibmr.addr + (at - mw->mr->iova);
    return SV_MEM_OK;
}
