/* Extended CQs (ibv_create_cq_ex): the same ring as ibv_create_cq, read one completion at a
 * time with start_poll/next_poll/end_poll and read_* accessors. As rxe: start_poll takes the
 * CQ lock and returns ENOENT (lock released) when empty; next_poll consumes the current
 * completion; end_poll consumes the current one, if any, and releases the lock. The wc_flags
 * rxe offers are accepted; completion timestamps are not, since the device advertises no
 * clock (completion_timestamp_mask and hca_core_clock are 0 in ibv_query_device_ex). */
#include <errno.h>
#include <sched.h>

#include "sv_loc.h"

#define SV_CQX_WC_FLAGS (IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_IMM | IBV_WC_EX_WITH_QP_NUM | \
                         IBV_WC_EX_WITH_SRC_QP | IBV_WC_EX_WITH_SLID | IBV_WC_EX_WITH_SL | \
                         IBV_WC_EX_WITH_DLID_PATH_BITS)

static struct sv_cq *cqx(struct ibv_cq_ex *c)
{
    return sv_container_of(c, struct sv_cq, ibcqx);
}

static const struct ibv_wc *cur(struct ibv_cq_ex *c)
{
    struct sv_cq *cq = cqx(c);
    return &cq->ring[cq->head];
}

/* Shows ring[head] through the public fields, or says the ring is empty. Lock held. */
static int show_head(struct sv_cq *cq)
{
    if (cq->count == 0) {
        cq->poll_cur = false;
        return ENOENT;
    }
    cq->poll_cur = true;
    cq->ibcqx.status = cq->ring[cq->head].status;
    cq->ibcqx.wr_id = cq->ring[cq->head].wr_id;
    return 0;
}

static void consume(struct sv_cq *cq)
{
    if (!cq->poll_cur)
        return;
    cq->head = (cq->head + 1) % cq->slots;
    cq->count--;
    cq->poll_cur = false;
    if (cq->overflowed && cq->count < cq->slots)
        cq->overflowed = false;
}

static int start_poll(struct ibv_cq_ex *c, struct ibv_poll_cq_attr *attr)
{
    struct sv_cq *cq = cqx(c);
    if (attr && attr->comp_mask)
        return EINVAL;
    pthread_mutex_lock(&cq->lock);
    if (show_head(cq) == 0)
        return 0;
    pthread_mutex_unlock(&cq->lock);
    /* as sv_poll_cq: receive for the device in this thread, then look again */
    if (sv_ctx_poll_progress(cq->ctx)) {
        pthread_mutex_lock(&cq->lock);
        if (show_head(cq) == 0)
            return 0;
        pthread_mutex_unlock(&cq->lock);
    }
    sched_yield();   /* still empty: a busy poller lets the other threads run */
    return ENOENT;
}

static int next_poll(struct ibv_cq_ex *c)
{
    struct sv_cq *cq = cqx(c);
    consume(cq);
    return show_head(cq);
}

static void end_poll(struct ibv_cq_ex *c)
{
    struct sv_cq *cq = cqx(c);
    consume(cq);
    pthread_mutex_unlock(&cq->lock);
}

static enum ibv_wc_opcode read_opcode(struct ibv_cq_ex *c) { return cur(c)->opcode; }
static uint32_t read_vendor_err(struct ibv_cq_ex *c) { return cur(c)->vendor_err; }
static uint32_t read_byte_len(struct ibv_cq_ex *c) { return cur(c)->byte_len; }
static __be32 read_imm_data(struct ibv_cq_ex *c) { return cur(c)->imm_data; }
static uint32_t read_qp_num(struct ibv_cq_ex *c) { return cur(c)->qp_num; }
static uint32_t read_src_qp(struct ibv_cq_ex *c) { return cur(c)->src_qp; }
static unsigned int read_wc_flags(struct ibv_cq_ex *c) { return cur(c)->wc_flags; }
static uint32_t read_slid(struct ibv_cq_ex *c) { return cur(c)->slid; }
static uint8_t read_sl(struct ibv_cq_ex *c) { return cur(c)->sl; }
static uint8_t read_dlid_path_bits(struct ibv_cq_ex *c) { return cur(c)->dlid_path_bits; }

struct ibv_cq_ex *sv_create_cq_ex(struct ibv_context *context, struct ibv_cq_init_attr_ex *attr)
{
    struct sv_context *ctx = sv_ctx_checked(context);
    if (!ctx || !attr) {
        errno = EINVAL;
        return NULL;
    }
    /* libibverbs' command layer: unknown comp_mask bits; rxe: wc_flags it has not, and any
     * create flag the kernel would see (IGNORE_OVERRUN; SINGLE_THREADED is a user-space hint) */
    if ((attr->comp_mask & ~(uint32_t)(IBV_CQ_INIT_ATTR_MASK_FLAGS | IBV_CQ_INIT_ATTR_MASK_PD)) ||
        (attr->wc_flags & ~(uint64_t)SV_CQX_WC_FLAGS) ||
        ((attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_FLAGS) &&
         (attr->flags & ~(uint32_t)IBV_CREATE_CQ_ATTR_SINGLE_THREADED))) {
        errno = EOPNOTSUPP;
        return NULL;
    }
    if (attr->cqe > ctx->dev->cfg.lim.max_cqe) {
        errno = EINVAL;
        return NULL;
    }
    struct sv_cq *cq = sv_cq_create(ctx, (int)attr->cqe, attr->cq_context, attr->channel, (int)attr->comp_vector);
    if (!cq)
        return NULL;
    struct ibv_cq_ex *c = &cq->ibcqx;
    c->comp_mask = 0;
    c->start_poll = start_poll;
    c->next_poll = next_poll;
    c->end_poll = end_poll;
    c->read_opcode = read_opcode;
    c->read_vendor_err = read_vendor_err;
    c->read_wc_flags = read_wc_flags;
    /* like rxe, the optional readers exist only when asked for */
    if (attr->wc_flags & IBV_WC_EX_WITH_BYTE_LEN)
        c->read_byte_len = read_byte_len;
    if (attr->wc_flags & IBV_WC_EX_WITH_IMM)
        c->read_imm_data = read_imm_data;
    if (attr->wc_flags & IBV_WC_EX_WITH_QP_NUM)
        c->read_qp_num = read_qp_num;
    if (attr->wc_flags & IBV_WC_EX_WITH_SRC_QP)
        c->read_src_qp = read_src_qp;
    if (attr->wc_flags & IBV_WC_EX_WITH_SLID)
        c->read_slid = read_slid;
    if (attr->wc_flags & IBV_WC_EX_WITH_SL)
        c->read_sl = read_sl;
    if (attr->wc_flags & IBV_WC_EX_WITH_DLID_PATH_BITS)
        c->read_dlid_path_bits = read_dlid_path_bits;
    return c;
}
