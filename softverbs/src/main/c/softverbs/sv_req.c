/* The requester: turns send WQEs into packets - segmentation by path MTU, PSN assignment,
 * the 128-PSN window, the max_rd_atomic and fence limits, admission by the device's in-flight
 * limit one ACK chunk at a time - and rewinds to the oldest unacknowledged PSN when the
 * completer asks for a retry. Runs with qp->lock held. */
#include <string.h>

#include "sv_hdr.h"
#include "sv_loc.h"
#include "sv_pkt.h"

#define SV_REQ_BUDGET      256   /* packets per call; the progress thread continues later */
#define SV_ACKREQ_EVERY    32    /* ask for an ACK within long messages (rxe does past 128) */
#define SV_WIRE_MAX        (4096 + 128)

static uint32_t psn_diff(uint32_t a, uint32_t b)
{
    return (a - b) & SV_PSN_MASK;
}

enum sv_tx sv_qp_xmit(struct sv_qp *qp, struct sv_pkt *pkt, uint32_t dst_ip_be, bool routable)
{
    struct sv_endpoint *ep = qp->ctx->ep;
    if (!routable) {
        /* RoCE v1 / non-IPv4 GID: reaches nobody */
        sv_note(ep, SV_CNT_SENT_UNROUTABLE, "QP 0x%x: %s not sent: the GID pair is not RoCE v2 over IPv4",
                qp->ibqp.qp_num, sv_opcode_name(pkt->opcode));
        return SV_TX_DROPPED;
    }
    uint8_t buf[SV_WIRE_MAX];
    struct sv_flow f = {.src_ip_be = ep->ip_be, .dst_ip_be = dst_ip_be,
                        .src_port = SV_ROCE_UDP_PORT, .dst_port = SV_ROCE_UDP_PORT};
    ssize_t n = sv_pkt_encode(pkt, &f, buf, sizeof buf);
    if (n < 0) {
        sv_note(ep, SV_CNT_SEND_ERR, "QP 0x%x: cannot encode %s (%zd)", qp->ibqp.qp_num,
                sv_opcode_name(pkt->opcode), n);
        return SV_TX_DROPPED;
    }
    if (pkt->opcode == SV_OP_RC_ACKNOWLEDGE && sv_aeth_type(pkt->aeth.syndrome) == SV_AETH_TYPE_ACK) {
        sv_udp_send_ack(ep, dst_ip_be, buf, (size_t)n);   /* may wait for company (coalescing) */
        return SV_TX_SENT;
    }
    enum sv_tx t = sv_udp_send(ep, dst_ip_be, buf, (size_t)n);
    if (t == SV_TX_BUSY && !sv_mask_has(sv_opcode_info(pkt->opcode)->mask, SV_HDR_REQ)) {
        /* only the requester can hold a packet back; a lost ACK or response is retried by the
         * peer's requester */
        sv_note(ep, SV_CNT_SEND_ERR, "QP 0x%x: %s PSN 0x%06x lost: socket busy", qp->ibqp.qp_num,
                sv_opcode_name(pkt->opcode), pkt->psn);
        return SV_TX_DROPPED;
    }
    return t;
}

/* ---- opcode choice (IBA 9.4: FIRST/MIDDLE/LAST/ONLY by position in the message) ---- */

static uint8_t send_opcode(const struct sv_send_wqe *w, bool first, bool last)
{
    bool imm = w->opcode == IBV_WR_SEND_WITH_IMM, inv = w->opcode == IBV_WR_SEND_WITH_INV;
    if (first && last)
        return imm ? SV_OP_RC_SEND_ONLY_WITH_IMMEDIATE : inv ? SV_OP_RC_SEND_ONLY_WITH_INVALIDATE
                                                             : SV_OP_RC_SEND_ONLY;
    if (first)
        return SV_OP_RC_SEND_FIRST;
    if (last)
        return imm ? SV_OP_RC_SEND_LAST_WITH_IMMEDIATE : inv ? SV_OP_RC_SEND_LAST_WITH_INVALIDATE
                                                             : SV_OP_RC_SEND_LAST;
    return SV_OP_RC_SEND_MIDDLE;
}

static uint8_t write_opcode(const struct sv_send_wqe *w, bool first, bool last)
{
    bool imm = w->opcode == IBV_WR_RDMA_WRITE_WITH_IMM;
    if (first && last)
        return imm ? SV_OP_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE : SV_OP_RC_RDMA_WRITE_ONLY;
    if (first)
        return SV_OP_RC_RDMA_WRITE_FIRST;
    if (last)
        return imm ? SV_OP_RC_RDMA_WRITE_LAST_WITH_IMMEDIATE : SV_OP_RC_RDMA_WRITE_LAST;
    return SV_OP_RC_RDMA_WRITE_MIDDLE;
}

/* UC opcodes are the RC ones in the UC transport range (IBA table 35). */
static uint8_t transport_base(const struct sv_qp *qp)
{
    return qp->ibqp.qp_type == IBV_QPT_UC ? (uint8_t)(SV_OP_UC_SEND_FIRST - SV_OP_RC_SEND_FIRST) : 0;
}

/* ---- packets ---- */

static uint32_t packets_for(uint32_t length, uint32_t mtu)
{
    return length == 0 ? 1 : (length + mtu - 1) / mtu;
}

/* ---- ACK chunks: the packets from the next one up to and including the next that asks for
 * an ACK (a message's last, and every SV_ACKREQ_EVERY-th within a long one). The device admits
 * a chunk whole, so a QP never stops halfway with packets out that no ACK will answer. ---- */

static uint32_t chunk_left(const struct sv_qp *qp, const struct sv_send_wqe *w)
{
    uint32_t npkts = w->started ? w->npkts : packets_for(w->length, qp->mtu);
    uint32_t k = qp->req.offset / qp->mtu;   /* index of the next packet in the message */
    uint32_t to_ack = SV_ACKREQ_EVERY - k % SV_ACKREQ_EVERY, rest = npkts > k ? npkts - k : 1;
    return rest < to_ack ? rest : to_ack;
}

uint32_t sv_req_tx_need(struct sv_qp *qp)
{
    if (qp->ibqp.qp_type != IBV_QPT_RC || qp->req.chunk_open || qp->req.idx == qp->sq.tail)
        return 0;
    const struct sv_send_wqe *w = sv_sq_at(qp, qp->req.idx);
    if (sv_wqe_is_local(w))
        return 0;
    return sv_wqe_is_rd_atomic(w) ? 1 : chunk_left(qp, w);   /* a READ/atomic request is answered */
}

uint32_t sv_req_tx_reserved(struct sv_qp *qp)
{
    if (!qp->req.chunk_open || qp->req.idx == qp->sq.tail)
        return 0;
    const struct sv_send_wqe *w = sv_sq_at(qp, qp->req.idx);
    return w->started && !sv_wqe_is_rd_atomic(w) ? chunk_left(qp, w) : 0;
}

static void start_wqe(struct sv_qp *qp, struct sv_send_wqe *w)
{
    w->first_psn = qp->req.psn;
    w->npkts = (w->opcode == IBV_WR_RDMA_READ) ? packets_for(w->length, qp->mtu)
               : sv_wqe_is_rd_atomic(w) || qp->ibqp.qp_type == IBV_QPT_UD ? 1 : packets_for(w->length, qp->mtu);
    w->last_psn = sv_psn_add(w->first_psn, w->npkts - 1);
    w->started = true;
    qp->req.offset = 0;
    if (sv_wqe_is_rd_atomic(w))
        qp->req.reads_outstanding++;
    if (w->opcode == IBV_WR_RDMA_READ || w->opcode == IBV_WR_RDMA_WRITE ||
        w->opcode == IBV_WR_RDMA_WRITE_WITH_IMM)
        sv_count(qp->ctx->ep, SV_CNT_RDMA_SENDS);
}

/* Builds and sends the next packet of w. SV_TX_BUSY: the socket had no room, nothing
 * advanced, the same packet goes out when the QP is resumed; SV_TX_DROPPED here means the
 * WQE failed and the QP is now in ERR. */
static enum sv_tx send_next_packet(struct sv_qp *qp, struct sv_send_wqe *w)
{
    uint8_t payload[SV_WIRE_MAX];
    struct sv_pkt p;
    memset(&p, 0, sizeof p);
    p.pkey = SV_DEFAULT_PKEY;
    bool ud = qp->ibqp.qp_type == IBV_QPT_UD, rc = qp->ibqp.qp_type == IBV_QPT_RC;
    p.dest_qpn = ud ? w->ud_remote_qpn : qp->attr.dest_qp_num;
    uint32_t mtu = qp->mtu;
    uint32_t n = 0;
    bool last = true;

    if (w->opcode == IBV_WR_RDMA_READ) {
        /* one request for everything still missing; it reserves a PSN per response packet */
        p.opcode = SV_OP_RC_RDMA_READ_REQUEST;
        p.psn = sv_psn_add(w->first_psn, qp->req.offset / mtu);
        p.reth.va = w->remote_addr + qp->req.offset;
        p.reth.rkey = w->rkey;
        p.reth.len = w->length - qp->req.offset;
    } else if (w->opcode == IBV_WR_ATOMIC_CMP_AND_SWP || w->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD) {
        bool cas = w->opcode == IBV_WR_ATOMIC_CMP_AND_SWP;
        p.opcode = cas ? SV_OP_RC_COMPARE_SWAP : SV_OP_RC_FETCH_ADD;
        p.psn = w->first_psn;
        p.atmeth.va = w->remote_addr;
        p.atmeth.rkey = w->rkey;
        p.atmeth.swap_add = cas ? w->swap : w->compare_add;
        p.atmeth.compare = cas ? w->compare_add : 0;
    } else {
        bool first = qp->req.offset == 0;
        n = w->length - qp->req.offset;
        if (n > mtu)
            n = mtu;
        last = qp->req.offset + n == w->length;
        bool is_send = w->opcode == IBV_WR_SEND || w->opcode == IBV_WR_SEND_WITH_IMM ||
                       w->opcode == IBV_WR_SEND_WITH_INV;
        if (ud) {
            p.opcode = w->opcode == IBV_WR_SEND_WITH_IMM ? SV_OP_UD_SEND_ONLY_WITH_IMMEDIATE : SV_OP_UD_SEND_ONLY;
            p.deth.qkey = w->ud_remote_qkey;
            p.deth.src_qpn = qp->ibqp.qp_num;
            p.psn = qp->req.psn;
        } else {
            p.opcode = (uint8_t)(transport_base(qp) + (is_send ? send_opcode(w, first, last)
                                                                : write_opcode(w, first, last)));
            p.psn = sv_psn_add(w->first_psn, qp->req.offset / mtu);
        }
        if (!is_send && first) {
            p.reth.va = w->remote_addr;
            p.reth.rkey = w->rkey;
            p.reth.len = w->length;
        }
        if (last) {
            p.imm_be = w->imm_be;
            p.ieth_rkey = w->imm_be;
        }
        if (w->send_flags & IBV_SEND_INLINE) {
            memcpy(payload, w->inline_data + qp->req.offset, n);
        } else if (sv_sge_gather(qp->ctx, qp->pd, w->sge, w->num_sge, qp->req.offset, payload, n) != SV_MEM_OK) {
            /* a bad L_Key or range in the gather list: local protection error (IBA 10.7.2.3) */
            sv_qp_fail_at(qp, qp->req.idx, IBV_WC_LOC_PROT_ERR);
            return SV_TX_DROPPED;
        }
        p.payload = payload;
        p.payload_len = n;
        if (last && (w->send_flags & IBV_SEND_SOLICITED))
            p.flags |= SV_BTH_SE;
    }

    bool done = last;
    /* AckReq on every message's last packet, and regularly within long ones (ends an ACK chunk) */
    if (rc && (done || (psn_diff(p.psn, w->first_psn) + 1) % SV_ACKREQ_EVERY == 0))
        p.flags |= SV_BTH_ACKREQ;
    bool chunk_ends = (p.flags & SV_BTH_ACKREQ) || w->opcode == IBV_WR_RDMA_READ ||
                      p.opcode == SV_OP_RC_COMPARE_SWAP || p.opcode == SV_OP_RC_FETCH_ADD;
    uint32_t dst = ud ? w->ud_dst_ip_be : qp->dst_ip_be;
    if (sv_qp_xmit(qp, &p, dst, ud ? w->ud_routable : qp->routable) == SV_TX_BUSY)
        return SV_TX_BUSY;   /* a lost packet would be sent later anyway; this one just waits */
    if (rc)
        sv_qp_arm_retrans(qp, sv_now_ns());
    if (chunk_ends)
        qp->req.chunk_open = false;

    if (w->opcode == IBV_WR_RDMA_READ || p.opcode == SV_OP_RC_COMPARE_SWAP || p.opcode == SV_OP_RC_FETCH_ADD) {
        qp->req.psn = sv_psn_add(w->last_psn, 1);
        done = true;
    } else {
        qp->req.psn = sv_psn_add(p.psn, 1);
        qp->req.offset += n;
    }
    if (done) {
        qp->req.idx++;
        qp->req.offset = 0;
    }
    return SV_TX_SENT;
}

/* Sends what the SQ, window and RNR wait allow. */
static void req_run(struct sv_qp *qp)
{
    if (qp->state != IBV_QPS_RTS && qp->state != IBV_QPS_SQD)
        return;
    if (qp->comp.rnr_at)
        return;   /* waiting out an RNR NAK */
    bool rc = qp->ibqp.qp_type == IBV_QPT_RC;
    for (int budget = SV_REQ_BUDGET; budget > 0 && qp->state != IBV_QPS_ERR; budget--) {
        if (qp->req.idx == qp->sq.tail)
            break;
        struct sv_send_wqe *w = sv_sq_at(qp, qp->req.idx);
        if (w->local_done) {   /* a BIND_MW/LOCAL_INV passed again after a rewind */
            qp->req.idx++;
            continue;
        }
        if (!w->started) {
            if (qp->state == IBV_QPS_SQD)
                break;   /* SQD: finish what was started, begin nothing new (IBA 10.3.1) */
            if (rc && sv_wqe_is_rd_atomic(w) && qp->req.reads_outstanding >= qp->attr.max_rd_atomic) {
                sv_count(qp->ctx->ep, SV_CNT_ACK_DEFERRED);
                break;   /* initiator depth reached */
            }
            if ((w->send_flags & IBV_SEND_FENCE) && qp->req.reads_outstanding) {
                sv_count(qp->ctx->ep, SV_CNT_ACK_DEFERRED);
                break;   /* fence: wait for earlier READs/atomics */
            }
            if (sv_wqe_is_local(w)) {
                if (!sv_mw_run_local(qp, w))
                    return;
                continue;
            }
            start_wqe(qp, w);
            if (qp->ibqp.qp_type == IBV_QPT_UD && w->length > qp->mtu) {
                /* C10-93.1.1: a UD message above the path MTU is not sent but completes */
                qp->req.idx++;
                continue;
            }
        }
        if (rc && psn_diff(qp->req.psn, qp->comp.psn) >= SV_WINDOW_PSNS) {
            sv_count(qp->ctx->ep, SV_CNT_ACK_DEFERRED);
            break;
        }
        uint32_t need = rc ? sv_req_tx_need(qp) : 0;
        if (need) {
            if (!sv_ep_tx_admit(qp->ctx->ep, qp, need)) {
                sv_ep_tx_wait(qp->ctx->ep, qp);   /* the next chunk does not fit the device's limit */
                break;
            }
            qp->req.chunk_open = true;
        }
        enum sv_tx t = send_next_packet(qp, w);
        sv_qp_tx_sync(qp);
        if (t == SV_TX_BUSY) {
            sv_ep_tx_wait(qp->ctx->ep, qp);
            break;
        }
        if (t == SV_TX_DROPPED)
            return;
    }
    if (!rc && qp->state != IBV_QPS_ERR)
        sv_comp_unreliable(qp);
}

/* Restarts transmission from the oldest unacknowledged PSN (the retry the completer asked for). */
static void req_rewind(struct sv_qp *qp)
{
    /* go back to the oldest unacknowledged PSN; later WQEs get the same PSNs again; what was
     * in flight no longer counts against the device */
    qp->req.psn = qp->comp.psn;
    qp->req.idx = qp->sq.head;
    qp->req.offset = 0;
    qp->req.reads_outstanding = 0;
    qp->req.chunk_open = false;   /* the retransmission is admitted afresh */
    for (uint32_t i = qp->sq.head; i != qp->sq.tail; i++) {
        struct sv_send_wqe *w = sv_sq_at(qp, i);
        if (w->local_done)
            continue;   /* executed once, never again */
        if (i != qp->sq.head || !w->started) {
            w->started = false;
            continue;
        }
        if (w->opcode == IBV_WR_RDMA_READ)
            qp->req.offset = qp->comp.read_rcvd;
        else if (!sv_wqe_is_rd_atomic(w))
            qp->req.offset = psn_diff(qp->comp.psn, w->first_psn) * qp->mtu;
        if (qp->req.offset > w->length)
            qp->req.offset = w->length;
        if (sv_wqe_is_rd_atomic(w))
            qp->req.reads_outstanding = 1;
    }
    sv_qp_tx_sync(qp);
}

void sv_req_task(void *arg)
{
    struct sv_qp *qp = arg;
    if (qp->req.need_rewind) {
        qp->req.need_rewind = false;
        req_rewind(qp);
    }
    req_run(qp);
}
