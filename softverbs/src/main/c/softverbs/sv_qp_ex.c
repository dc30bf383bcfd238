/* The extended send API of QPs from create_qp_ex (struct ibv_qp_ex): ibv_wr_start, one builder
 * per work request (wr_send, wr_rdma_write, wr_atomic_*, wr_bind_mw, ...) followed by setters
 * for its data (wr_set_sge*, wr_set_inline_data*, wr_set_ud_addr), then wr_complete (queue and
 * start them all) or wr_abort (drop them). Semantics of rxe's provider: builders and setters
 * cannot fail, the first error of a batch (send queue full or a setter over a QP cap: ENOSPC)
 * is returned by wr_complete, which then queues nothing; a batch completed below RTS is EINVAL.
 * Builders fill SQ slots past sq.tail; wr_lock keeps other posters out until the batch ends. */
#include <errno.h>
#include <string.h>

#include "sv_loc.h"

/* send_ops_flags each transport has (rxe's provider; FLUSH, ATOMIC_WRITE and TSO are absent) */
#define SV_QPX_OPS_UD (IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM)
#define SV_QPX_OPS_UC (SV_QPX_OPS_UD | IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM | \
                       IBV_QP_EX_WITH_BIND_MW | IBV_QP_EX_WITH_SEND_WITH_INV)
#define SV_QPX_OPS_RC (SV_QPX_OPS_UC | IBV_QP_EX_WITH_RDMA_READ | IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP | \
                       IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD | IBV_QP_EX_WITH_LOCAL_INV)

int sv_qpx_check(enum ibv_qp_type type, uint64_t send_ops_flags)
{
    uint64_t ok = type == IBV_QPT_RC ? SV_QPX_OPS_RC : type == IBV_QPT_UC ? SV_QPX_OPS_UC
                : type == IBV_QPT_UD ? SV_QPX_OPS_UD : 0;
    return (send_ops_flags & ~ok) ? EOPNOTSUPP : 0;
}

static struct sv_qp *qpx(struct ibv_qp_ex *q)
{
    return sv_container_of(q, struct sv_qp, ibqpx);
}

/* ---- builders: each takes the next SQ slot ---- */

/* The slot for a new WQE, reset and stamped with wr_id/wr_flags; NULL when the batch has
 * already failed or the send queue is full (ENOSPC, as rxe). */
static struct sv_send_wqe *build(struct sv_qp *qp, enum ibv_wr_opcode op)
{
    if (qp->wr_err)
        return NULL;
    pthread_mutex_lock(&qp->lock);
    bool full = qp->sq.tail + qp->wr_pending - qp->sq.head >= qp->sq.max_wr;
    pthread_mutex_unlock(&qp->lock);
    if (full) {
        qp->wr_err = ENOSPC;
        return NULL;
    }
    struct sv_send_wqe *w = sv_sq_slot_reset(qp, qp->sq.tail + qp->wr_pending);
    qp->wr_pending++;
    w->wr_id = qp->ibqpx.wr_id;
    /* the data source is what the setters say, not IBV_SEND_INLINE in wr_flags */
    w->send_flags = qp->ibqpx.wr_flags & ~(unsigned int)IBV_SEND_INLINE;
    w->opcode = op;
    return w;
}

/* The WQE the setters apply to: the last one built, NULL if none or the batch failed. */
static struct sv_send_wqe *last(struct sv_qp *qp)
{
    if (qp->wr_err || qp->wr_pending == 0)
        return NULL;
    return sv_sq_at(qp, qp->sq.tail + qp->wr_pending - 1);
}

static void wr_send(struct ibv_qp_ex *q)
{
    build(qpx(q), IBV_WR_SEND);
}

static void wr_send_imm(struct ibv_qp_ex *q, __be32 imm)
{
    struct sv_send_wqe *w = build(qpx(q), IBV_WR_SEND_WITH_IMM);
    if (w)
        w->imm_be = imm;
}

static void wr_send_inv(struct ibv_qp_ex *q, uint32_t rkey)
{
    struct sv_send_wqe *w = build(qpx(q), IBV_WR_SEND_WITH_INV);
    if (w)
        w->imm_be = rkey;
}

static void rdma(struct ibv_qp_ex *q, enum ibv_wr_opcode op, uint32_t rkey, uint64_t addr, __be32 imm)
{
    struct sv_send_wqe *w = build(qpx(q), op);
    if (w) {
        w->rkey = rkey;
        w->remote_addr = addr;
        w->imm_be = imm;
    }
}

static void wr_rdma_write(struct ibv_qp_ex *q, uint32_t rkey, uint64_t addr)
{
    rdma(q, IBV_WR_RDMA_WRITE, rkey, addr, 0);
}

static void wr_rdma_write_imm(struct ibv_qp_ex *q, uint32_t rkey, uint64_t addr, __be32 imm)
{
    rdma(q, IBV_WR_RDMA_WRITE_WITH_IMM, rkey, addr, imm);
}

static void wr_rdma_read(struct ibv_qp_ex *q, uint32_t rkey, uint64_t addr)
{
    rdma(q, IBV_WR_RDMA_READ, rkey, addr, 0);
}

/* Atomics move 8 bytes; alignment is the responder's check here (NAK invalid request), as on
 * rxe, whose provider checks it only in ibv_post_send. */
static void atomic(struct ibv_qp_ex *q, enum ibv_wr_opcode op, uint32_t rkey, uint64_t addr,
                   uint64_t compare_add, uint64_t swap)
{
    struct sv_send_wqe *w = build(qpx(q), op);
    if (w) {
        w->rkey = rkey;
        w->remote_addr = addr;
        w->compare_add = compare_add;
        w->swap = swap;
        w->length = 8;
    }
}

static void wr_atomic_cmp_swp(struct ibv_qp_ex *q, uint32_t rkey, uint64_t addr, uint64_t compare, uint64_t swap)
{
    atomic(q, IBV_WR_ATOMIC_CMP_AND_SWP, rkey, addr, compare, swap);
}

static void wr_atomic_fetch_add(struct ibv_qp_ex *q, uint32_t rkey, uint64_t addr, uint64_t add)
{
    atomic(q, IBV_WR_ATOMIC_FETCH_AND_ADD, rkey, addr, add, 0);
}

static void wr_local_inv(struct ibv_qp_ex *q, uint32_t rkey)
{
    struct sv_send_wqe *w = build(qpx(q), IBV_WR_LOCAL_INV);
    if (w)
        w->imm_be = rkey;
}

static void wr_bind_mw(struct ibv_qp_ex *q, struct ibv_mw *mw, uint32_t rkey, const struct ibv_mw_bind_info *info)
{
    struct sv_qp *qp = qpx(q);
    struct sv_send_wqe *w = build(qp, IBV_WR_BIND_MW);
    if (w && sv_mw_fill_bind(qp, w, mw, rkey, info))
        qp->wr_err = EINVAL;
}

/* ---- setters: the data of the last WQE built ---- */

static void wr_set_sge_list(struct ibv_qp_ex *q, size_t num_sge, const struct ibv_sge *sg)
{
    struct sv_qp *qp = qpx(q);
    struct sv_send_wqe *w = last(qp);
    if (!w)
        return;
    if (num_sge > qp->sq.max_sge || (num_sge && !sg)) {
        qp->wr_err = ENOSPC;
        return;
    }
    w->send_flags &= ~(unsigned int)IBV_SEND_INLINE;
    w->num_sge = (uint32_t)num_sge;
    if (num_sge)
        memcpy(w->sge, sg, num_sge * sizeof *sg);
    uint32_t len = sv_sge_total(w->sge, w->num_sge);
    if (w->opcode == IBV_WR_ATOMIC_CMP_AND_SWP || w->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD)
        len = 8;   /* the original value lands in the first 8 bytes */
    w->length = len;
}

static void wr_set_sge(struct ibv_qp_ex *q, uint32_t lkey, uint64_t addr, uint32_t length)
{
    struct ibv_sge sge = {.addr = addr, .length = length, .lkey = lkey};
    wr_set_sge_list(q, length ? 1 : 0, &sge);   /* rxe: a zero-length SGE means no data */
}

static void wr_set_inline_data_list(struct ibv_qp_ex *q, size_t num_buf, const struct ibv_data_buf *buf)
{
    struct sv_qp *qp = qpx(q);
    struct sv_send_wqe *w = last(qp);
    if (!w)
        return;
    size_t total = 0;
    for (size_t i = 0; i < num_buf; i++) {
        if (total + buf[i].length > qp->sq.max_inline || total + buf[i].length < total) {
            qp->wr_err = ENOSPC;
            return;
        }
        memcpy(w->inline_data + total, buf[i].addr, buf[i].length);
        total += buf[i].length;
    }
    w->send_flags |= IBV_SEND_INLINE;
    w->num_sge = 0;
    w->length = (uint32_t)total;
}

static void wr_set_inline_data(struct ibv_qp_ex *q, void *addr, size_t length)
{
    struct ibv_data_buf b = {.addr = addr, .length = length};
    wr_set_inline_data_list(q, 1, &b);
}

static void wr_set_ud_addr(struct ibv_qp_ex *q, struct ibv_ah *ibah, uint32_t remote_qpn, uint32_t remote_qkey)
{
    struct sv_qp *qp = qpx(q);
    struct sv_send_wqe *w = last(qp);
    if (!w)
        return;
    if (!ibah || !sv_ctx_same(ibah->context, qp->ibqp.context)) {
        qp->wr_err = EINVAL;
        return;
    }
    struct sv_ah *ah = sv_ah(ibah);
    w->ud_dst_ip_be = ah->dst_ip_be;
    w->ud_routable = ah->routable;
    w->ud_remote_qpn = remote_qpn & 0xFFFFFFu;
    /* IBA 10.2.4: a Q_Key with the high bit set means "use the QP's own Q_Key" */
    w->ud_remote_qkey = (remote_qkey & 0x80000000u) ? qp->attr.qkey : remote_qkey;
}

/* ---- the batch ---- */

static void wr_start(struct ibv_qp_ex *q)
{
    struct sv_qp *qp = qpx(q);
    pthread_mutex_lock(&qp->wr_lock);
    qp->wr_pending = 0;
    qp->wr_err = 0;
}

static int wr_complete(struct ibv_qp_ex *q)
{
    struct sv_qp *qp = qpx(q);
    int rc = qp->wr_err;
    pthread_mutex_lock(&qp->lock);
    /* sends are processed from RTS on (rxe's doorbell is refused below RTS) */
    if (!rc && qp->state < IBV_QPS_RTS)
        rc = EINVAL;
    if (!rc && qp->wr_pending) {
        qp->sq.tail += qp->wr_pending;
        if (qp->state == IBV_QPS_ERR)
            sv_qp_flush(qp);   /* WRs posted in ERR complete at once with WR_FLUSH_ERR */
        else
            sv_req_schedule(qp, false);
    }
    pthread_mutex_unlock(&qp->lock);
    qp->wr_pending = 0;
    qp->wr_err = 0;
    pthread_mutex_unlock(&qp->wr_lock);
    return rc;
}

static void wr_abort(struct ibv_qp_ex *q)
{
    struct sv_qp *qp = qpx(q);
    qp->wr_pending = 0;
    qp->wr_err = 0;
    pthread_mutex_unlock(&qp->wr_lock);
}

void sv_qpx_init(struct sv_qp *qp, uint64_t flags)
{
    struct ibv_qp_ex *q = &qp->ibqpx;
    qp->is_qpx = true;
    /* like rxe, only the builders asked for are set; the setters and the batch always are */
    if (flags & IBV_QP_EX_WITH_SEND)
        q->wr_send = wr_send;
    if (flags & IBV_QP_EX_WITH_SEND_WITH_IMM)
        q->wr_send_imm = wr_send_imm;
    if (flags & IBV_QP_EX_WITH_SEND_WITH_INV)
        q->wr_send_inv = wr_send_inv;
    if (flags & IBV_QP_EX_WITH_RDMA_WRITE)
        q->wr_rdma_write = wr_rdma_write;
    if (flags & IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM)
        q->wr_rdma_write_imm = wr_rdma_write_imm;
    if (flags & IBV_QP_EX_WITH_RDMA_READ)
        q->wr_rdma_read = wr_rdma_read;
    if (flags & IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP)
        q->wr_atomic_cmp_swp = wr_atomic_cmp_swp;
    if (flags & IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD)
        q->wr_atomic_fetch_add = wr_atomic_fetch_add;
    if (flags & IBV_QP_EX_WITH_LOCAL_INV)
        q->wr_local_inv = wr_local_inv;
    if (flags & IBV_QP_EX_WITH_BIND_MW)
        q->wr_bind_mw = wr_bind_mw;
    q->wr_set_sge = wr_set_sge;
    q->wr_set_sge_list = wr_set_sge_list;
    q->wr_set_inline_data = wr_set_inline_data;
    q->wr_set_inline_data_list = wr_set_inline_data_list;
    q->wr_set_ud_addr = wr_set_ud_addr;
    q->wr_start = wr_start;
    q->wr_complete = wr_complete;
    q->wr_abort = wr_abort;
}

struct ibv_qp_ex *ibv_qp_to_qp_ex(struct ibv_qp *ibqp)
{
    /* libibverbs answers for QPs a provider created through create_qp_ex, NULL otherwise */
    struct sv_qp *qp = sv_qp_checked(ibqp);
    return qp && qp->is_qpx ? &qp->ibqpx : NULL;
}
