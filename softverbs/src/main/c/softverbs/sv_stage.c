/* The engines' states by name, for SOFTVERBS_LOG: the requester's and completer's stage, read
 * from their state (rxe keeps them as enums it switches on; here the state lives in PSNs,
 * indexes and timers, and the stage is what they add up to), and the responder's message state.
 * qp->lock held. */
#include "sv_hdr.h"
#include "sv_loc.h"

const char *const sv_req_stage_name[SV_REQ__COUNT] = {
    [SV_REQ_STOPPED] = "stopped", [SV_REQ_IDLE] = "idle", [SV_REQ_SENDING] = "sending",
    [SV_REQ_WAIT_DEVICE] = "waiting for the device", [SV_REQ_WAIT_WINDOW] = "window full",
    [SV_REQ_WAIT_RD_ATOMIC] = "waiting for READ/atomic responses", [SV_REQ_WAIT_RNR] = "RNR wait",
};

const char *const sv_comp_stage_name[SV_COMP__COUNT] = {
    [SV_COMP_STOPPED] = "stopped", [SV_COMP_IDLE] = "idle", [SV_COMP_WAIT_ACK] = "waiting for ACKs",
    [SV_COMP_RETRYING] = "retrying", [SV_COMP_WAIT_RNR] = "RNR wait",
};

const char *const sv_resp_msg_name[SV_RESP__COUNT] = {
    [SV_RESP_IDLE] = "between messages", [SV_RESP_IN_SEND] = "inside a SEND", [SV_RESP_IN_WRITE] = "inside a WRITE",
};

enum sv_req_stage sv_req_stage_of(const struct sv_qp *qp)
{
    if (qp->state != IBV_QPS_RTS && qp->state != IBV_QPS_SQD)
        return SV_REQ_STOPPED;
    if (qp->comp.rnr_at)
        return SV_REQ_WAIT_RNR;
    if (qp->tx_waiting)
        return SV_REQ_WAIT_DEVICE;
    if (qp->req.idx == qp->sq.tail)
        return SV_REQ_IDLE;
    if (((qp->req.psn - qp->comp.psn) & SV_PSN_MASK) >= SV_WINDOW_PSNS)
        return SV_REQ_WAIT_WINDOW;
    const struct sv_send_wqe *w = &qp->sq.wqe[qp->req.idx % qp->sq.slots];
    if (!w->started && qp->req.reads_outstanding &&
        ((w->send_flags & IBV_SEND_FENCE) ||
         (sv_wqe_is_rd_atomic(w) && qp->req.reads_outstanding >= qp->attr.max_rd_atomic)))
        return SV_REQ_WAIT_RD_ATOMIC;
    return SV_REQ_SENDING;
}

enum sv_comp_stage sv_comp_stage_of(const struct sv_qp *qp)
{
    if (qp->state != IBV_QPS_RTS && qp->state != IBV_QPS_SQD && qp->state != IBV_QPS_SQE)
        return SV_COMP_STOPPED;
    if (qp->comp.rnr_at)
        return SV_COMP_WAIT_RNR;
    if (qp->comp.retrying)
        return SV_COMP_RETRYING;
    return qp->comp.psn != qp->req.psn ? SV_COMP_WAIT_ACK : SV_COMP_IDLE;
}
