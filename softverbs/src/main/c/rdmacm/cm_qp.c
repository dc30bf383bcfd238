/* QPs on ids: the attributes the CM chooses for each state (the kernel's rdma_init_qp_attr, i.e.
 * cma_ib_init_qp_attr before a connection exists and ib_cm_init_qp_attr after), the transitions
 * librdmacm drives (INIT at create; RTR and RTS at accept or at the REP; ERR at disconnect), and
 * the CQs/SRQs rdma_create_qp/srq make when the caller gives none. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/rdma_verbs.h>

#include "cm_loc.h"

static bool connected(const struct cm_id *c)
{
    return c->state >= CM_ST_REQ_SENT && c->state <= CM_ST_DREQ_RCVD && c->state != CM_ST_LISTEN;
}

int cm_qp_attr(struct cm_id *c, struct ibv_qp_attr *attr, int *mask)
{
    if (!c->dev)
        return EINVAL;
    enum ibv_qp_state want = attr->qp_state;
    memset(attr, 0, sizeof *attr);
    attr->qp_state = want;
    bool ud = c->id.qp_type == IBV_QPT_UD;
    switch (want) {
    case IBV_QPS_INIT:
        attr->pkey_index = 0;
        attr->port_num = 1;
        *mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;
        if (ud) {
            attr->qkey = c->qkey;
            *mask |= IBV_QP_QKEY;
        } else {
            /* ib_cm: remote write always, read and atomics when we grant responder resources */
            attr->qp_access_flags = connected(c) ? IBV_ACCESS_REMOTE_WRITE |
                (c->resp_res ? IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC : 0) : 0;
            *mask |= IBV_QP_ACCESS_FLAGS;
        }
        return 0;
    case IBV_QPS_RTR:
        *mask = IBV_QP_STATE;
        if (ud)
            return 0;
        if (!connected(c) || c->state == CM_ST_REQ_SENT || c->state == CM_ST_MRA_RCVD)
            return EINVAL;           /* nothing known of the peer yet */
        attr->path_mtu = c->mtu;
        attr->dest_qp_num = c->remote_qpn;
        attr->rq_psn = c->remote_psn;
        attr->max_dest_rd_atomic = c->resp_res;
        attr->min_rnr_timer = 0;     /* ib_cm's default (655 ms) */
        attr->ah_attr.is_global = 1;
        attr->ah_attr.port_num = 1;
        attr->ah_attr.grh.dgid = c->path.dgid;
        attr->ah_attr.grh.sgid_index = CM_GID_INDEX;
        attr->ah_attr.grh.hop_limit = c->path.hop_limit;
        attr->ah_attr.grh.traffic_class = c->path.traffic_class;
        *mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
                 IBV_QP_MIN_RNR_TIMER;
        return 0;
    case IBV_QPS_RTS:
        *mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
        if (ud)
            return 0;
        if (!connected(c) || c->state == CM_ST_REQ_SENT || c->state == CM_ST_MRA_RCVD)
            return EINVAL;
        attr->sq_psn = c->local_psn;
        attr->timeout = c->ack_timeout;
        attr->retry_cnt = c->retry_count;
        attr->rnr_retry = c->rnr_retry_count;
        attr->max_rd_atomic = c->init_depth;
        *mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC;
        return 0;
    default:
        return EINVAL;
    }
}

int rdma_init_qp_attr(struct rdma_cm_id *id, struct ibv_qp_attr *qp_attr, int *qp_attr_mask)
{
    if (!qp_attr || !qp_attr_mask)
        return cm_err(EINVAL);
    pthread_mutex_lock(&g_cm.lock);
    struct cm_id *c = cm_id_checked(id);
    int err = c ? cm_qp_attr(c, qp_attr, qp_attr_mask) : EINVAL;
    pthread_mutex_unlock(&g_cm.lock);
    return err ? cm_err(err) : 0;
}

static int modify(struct cm_id *c, enum ibv_qp_state st, uint8_t resp_res, uint8_t init_depth)
{
    struct ibv_qp_attr a = {.qp_state = st};
    int mask;
    int err = cm_qp_attr(c, &a, &mask);
    if (err)
        return err;
    if (st == IBV_QPS_RTR && resp_res != RDMA_MAX_RESP_RES)
        a.max_dest_rd_atomic = resp_res;
    if (st == IBV_QPS_RTS && init_depth != RDMA_MAX_INIT_DEPTH)
        a.max_rd_atomic = init_depth;
    return ibv_modify_qp(c->id.qp, &a, mask);
}

int cm_qp_to_rts(struct cm_id *c, uint8_t resp_res, uint8_t init_depth)
{
    if (!c->id.qp)
        return 0;
    int err = modify(c, IBV_QPS_INIT, 0, 0);   /* again: the connection's access flags */
    if (!err)
        err = modify(c, IBV_QPS_RTR, resp_res, init_depth);
    if (!err)
        err = modify(c, IBV_QPS_RTS, resp_res, init_depth);
    if (err)
        cm_qp_to_err(c);
    return err;
}

int cm_qp_to_err(struct cm_id *c)
{
    if (!c->id.qp)
        return 0;
    struct ibv_qp_attr a = {.qp_state = IBV_QPS_ERR};
    return ibv_modify_qp(c->id.qp, &a, IBV_QP_STATE);
}

static int make_cq(struct cm_id *c, int depth, struct ibv_comp_channel **ch, struct ibv_cq **cq)
{
    *ch = ibv_create_comp_channel(c->id.verbs);
    if (!*ch)
        return errno ? errno : ENOMEM;
    *cq = ibv_create_cq(c->id.verbs, depth > 0 ? depth : 1, c, *ch, 0);
    if (!*cq) {
        int e = errno ? errno : ENOMEM;
        ibv_destroy_comp_channel(*ch);
        *ch = NULL;
        return e;
    }
    return 0;
}

static void drop_own_cqs(struct cm_id *c)
{
    if (c->own_recv_ch) {
        ibv_destroy_cq(c->id.recv_cq);
        ibv_destroy_comp_channel(c->own_recv_ch);
        c->id.recv_cq = NULL;
        c->id.recv_cq_channel = c->own_recv_ch = NULL;
    }
    if (c->own_send_ch) {
        ibv_destroy_cq(c->id.send_cq);
        ibv_destroy_comp_channel(c->own_send_ch);
        c->id.send_cq = NULL;
        c->id.send_cq_channel = c->own_send_ch = NULL;
    }
}

int rdma_create_qp_ex(struct rdma_cm_id *id, struct ibv_qp_init_attr_ex *attr)
{
    if (!attr)
        return cm_err(EINVAL);
    pthread_mutex_lock(&g_cm.lock);
    struct cm_id *c = cm_id_checked(id);
    int err = 0;
    struct ibv_pd *pd = (attr->comp_mask & IBV_QP_INIT_ATTR_PD) && attr->pd ? attr->pd : id ? id->pd : NULL;
    if (!c || c->id.qp || !c->id.verbs || !pd || pd->context != c->id.verbs ||
        (attr->comp_mask & ~(uint32_t)IBV_QP_INIT_ATTR_PD))
        err = !c || c->id.qp || !c->id.verbs || !pd || pd->context != c->id.verbs ? EINVAL : EOPNOTSUPP;
    if (!err && !attr->recv_cq && !c->id.recv_cq) {
        err = make_cq(c, (int)attr->cap.max_recv_wr, &c->own_recv_ch, &c->id.recv_cq);
        if (!err)
            c->id.recv_cq_channel = c->own_recv_ch;
    }
    if (!err && !attr->send_cq && !c->id.send_cq) {
        err = make_cq(c, (int)attr->cap.max_send_wr, &c->own_send_ch, &c->id.send_cq);
        if (!err)
            c->id.send_cq_channel = c->own_send_ch;
    }
    struct ibv_qp *qp = NULL;
    if (!err) {
        struct ibv_qp_init_attr ia = {
            .qp_context = attr->qp_context, .send_cq = attr->send_cq ? attr->send_cq : c->id.send_cq,
            .recv_cq = attr->recv_cq ? attr->recv_cq : c->id.recv_cq,
            .srq = attr->srq ? attr->srq : c->id.srq, .cap = attr->cap,
            .qp_type = attr->qp_type, .sq_sig_all = attr->sq_sig_all};
        qp = ibv_create_qp(pd, &ia);
        if (!qp)
            err = errno ? errno : ENOMEM;
        else
            attr->cap = ia.cap;
    }
    if (!err) {
        c->id.qp = qp;
        c->id.pd = pd;
        if (c->id.qp_type == IBV_QPT_UD) {
            /* librdmacm brings a UD QP to RTS at once (ucma_init_ud_qp) */
            err = modify(c, IBV_QPS_INIT, 0, 0);
            if (!err)
                err = modify(c, IBV_QPS_RTR, RDMA_MAX_RESP_RES, RDMA_MAX_INIT_DEPTH);
            if (!err)
                err = modify(c, IBV_QPS_RTS, RDMA_MAX_RESP_RES, RDMA_MAX_INIT_DEPTH);
        } else {
            err = modify(c, IBV_QPS_INIT, 0, 0);
        }
        if (err) {
            ibv_destroy_qp(qp);
            c->id.qp = NULL;
        }
    }
    if (err && c)
        drop_own_cqs(c);
    pthread_mutex_unlock(&g_cm.lock);
    return err ? cm_err(err) : 0;
}

int rdma_create_qp(struct rdma_cm_id *id, struct ibv_pd *pd, struct ibv_qp_init_attr *qp_init_attr)
{
    if (!qp_init_attr)
        return cm_err(EINVAL);
    struct ibv_qp_init_attr_ex ex = {
        .qp_context = qp_init_attr->qp_context, .send_cq = qp_init_attr->send_cq,
        .recv_cq = qp_init_attr->recv_cq, .srq = qp_init_attr->srq, .cap = qp_init_attr->cap,
        .qp_type = qp_init_attr->qp_type, .sq_sig_all = qp_init_attr->sq_sig_all,
        .comp_mask = IBV_QP_INIT_ATTR_PD, .pd = pd};
    int rc = rdma_create_qp_ex(id, &ex);
    if (rc == 0) {
        qp_init_attr->cap = ex.cap;
        if (!qp_init_attr->send_cq)
            qp_init_attr->send_cq = id->send_cq;
        if (!qp_init_attr->recv_cq)
            qp_init_attr->recv_cq = id->recv_cq;
    }
    return rc;
}

void rdma_destroy_qp(struct rdma_cm_id *id)
{
    pthread_mutex_lock(&g_cm.lock);
    struct cm_id *c = cm_id_checked(id);
    if (c && c->id.qp) {
        ibv_destroy_qp(c->id.qp);
        c->id.qp = NULL;
        drop_own_cqs(c);
    }
    pthread_mutex_unlock(&g_cm.lock);
}

int rdma_create_srq_ex(struct rdma_cm_id *id, struct ibv_srq_init_attr_ex *attr)
{
    if (!attr)
        return cm_err(EINVAL);
    struct cm_id *c = cm_id_checked(id);
    struct ibv_pd *pd = (attr->comp_mask & IBV_SRQ_INIT_ATTR_PD) && attr->pd ? attr->pd : id ? id->pd : NULL;
    if (!c || c->id.srq || !pd)
        return cm_err(EINVAL);
    if (attr->comp_mask & ~(uint32_t)(IBV_SRQ_INIT_ATTR_PD | IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_CQ))
        return cm_err(EOPNOTSUPP);
    if ((attr->comp_mask & IBV_SRQ_INIT_ATTR_TYPE) && attr->srq_type != IBV_SRQT_BASIC)
        return cm_err(EOPNOTSUPP);   /* XRC SRQs: no XRC on softverbs */
    struct ibv_srq_init_attr ia = {.srq_context = attr->srq_context, .attr = attr->attr};
    struct ibv_srq *srq = ibv_create_srq(pd, &ia);
    if (!srq)
        return -1;
    attr->attr = ia.attr;
    c->id.srq = srq;
    c->id.pd = pd;
    return 0;
}

int rdma_create_srq(struct rdma_cm_id *id, struct ibv_pd *pd, struct ibv_srq_init_attr *attr)
{
    if (!attr)
        return cm_err(EINVAL);
    struct ibv_srq_init_attr_ex ex = {.srq_context = attr->srq_context, .attr = attr->attr,
                                      .comp_mask = IBV_SRQ_INIT_ATTR_PD | IBV_SRQ_INIT_ATTR_TYPE,
                                      .srq_type = IBV_SRQT_BASIC, .pd = pd};
    int rc = rdma_create_srq_ex(id, &ex);
    if (!rc)
        attr->attr = ex.attr;
    return rc;
}

void rdma_destroy_srq(struct rdma_cm_id *id)
{
    struct cm_id *c = cm_id_checked(id);
    if (c && c->id.srq) {
        ibv_destroy_srq(c->id.srq);
        c->id.srq = NULL;
    }
}
