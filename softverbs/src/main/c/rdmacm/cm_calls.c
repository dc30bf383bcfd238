/* The rdma_cm calls that drive a connection (connect, accept, reject, establish, disconnect,
 * notify) and what destroying an id tells the peer. Each checks the id's state, sets the QP as
 * librdmacm does and sends the CM message; the answers come back through cm_conn.c. */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include "cm_loc.h"

static int build_req(struct cm_id *c, const struct rdma_conn_param *p, struct cm_msg *m)
{
    memset(m, 0, sizeof *m);
    c->peer_ip_be = cm_dst_ip(c);
    c->tid = ((uint64_t)c->local_comm_id << 32) | 0x5356u;   /* "SV": one transaction per connection */
    struct cm_ip_hdr h = {.version = 0, .ip_version = 4, .src_port = cm_src_port(c),
                          .src_ip_be = cm_src_ip(c), .dst_ip_be = cm_dst_ip(c)};
    cm_ip_hdr_put(&h, m->private_data);
    size_t user_max = (c->id.qp_type == IBV_QPT_UD ? 216 : 92) - CM_IP_HDR_LEN;
    if (p && p->private_data_len) {
        if (!p->private_data || p->private_data_len > user_max)
            return EINVAL;
        memcpy(m->private_data + CM_IP_HDR_LEN, p->private_data, p->private_data_len);
    }
    m->tid = c->tid;
    m->local_comm_id = c->local_comm_id;
    m->service_id = cm_service_id(c->id.ps, cm_dst_port(c));
    if (c->id.qp_type == IBV_QPT_UD) {
        m->attr = CM_ATTR_SIDR_REQ;
        m->pkey = 0xFFFF;
        return 0;
    }
    m->attr = CM_ATTR_REQ;
    m->local_ca_guid = be64toh(c->dev->guid_be);
    m->qpn = c->local_qpn;
    m->responder_resources = c->resp_res;
    m->initiator_depth = c->init_depth;
    m->remote_cm_response_timeout = CM_RESPONSE_TIMEOUT;
    m->local_cm_response_timeout = CM_RESPONSE_TIMEOUT;
    m->flow_control = c->flow_control;
    m->starting_psn = c->local_psn;
    m->retry_count = c->retry_count;
    m->rnr_retry_count = c->rnr_retry_count;
    m->pkey = 0xFFFF;
    m->path_mtu = (uint8_t)c->mtu;
    m->max_cm_retries = CM_MAX_CM_RETRIES;
    m->srq = c->srq;
    /* RoCE: no LIDs; the kernel puts the permissive LID in a routed (hop limit > 1) path */
    m->primary.local_lid = m->primary.remote_lid = 0xFFFF;
    m->primary.local_gid = c->path.sgid;
    m->primary.remote_gid = c->path.dgid;
    m->primary.packet_rate = c->path.rate;
    m->primary.traffic_class = c->path.traffic_class;
    m->primary.hop_limit = c->path.hop_limit;
    m->primary.subnet_local = c->path.hop_limit <= 1;
    m->primary.local_ack_timeout = c->ack_timeout;
    return 0;
}

static uint32_t rand_psn(const struct cm_id *c)
{
    return (c->local_comm_id * 2654435761u ^ (uint32_t)cm_now_ms()) & 0xFFFFFFu;
}

int rdma_connect(struct rdma_cm_id *id, struct rdma_conn_param *param)
{
    pthread_mutex_lock(&g_cm.lock);
    struct cm_id *c = cm_id_checked(id);
    if (!c || c->state != CM_ST_ROUTE_RESOLVED) {
        pthread_mutex_unlock(&g_cm.lock);
        return cm_err(EINVAL);
    }
    uint8_t maxrd = c->dev->max_rd_atomic;
    c->init_depth = !param || param->initiator_depth == RDMA_MAX_INIT_DEPTH ? maxrd : param->initiator_depth;
    c->resp_res = !param || param->responder_resources == RDMA_MAX_RESP_RES ? maxrd : param->responder_resources;
    if (c->init_depth > maxrd || c->resp_res > maxrd) {
        pthread_mutex_unlock(&g_cm.lock);
        return cm_err(EINVAL);
    }
    c->retry_count = param ? (param->retry_count > 7 ? 7 : param->retry_count) : 0;
    c->rnr_retry_count = param ? (param->rnr_retry_count > 7 ? 7 : param->rnr_retry_count) : 0;
    c->flow_control = param ? param->flow_control : 0;
    c->local_qpn = id->qp ? id->qp->qp_num : param ? param->qp_num : 0;
    c->srq = id->qp ? id->qp->srq != NULL : param ? param->srq : 0;
    c->local_psn = rand_psn(c);
    c->mtu = (enum ibv_mtu)c->path.mtu;
    if (!c->ack_timeout)
        c->ack_timeout = CM_PACKET_LIFETIME + 1;   /* cm_ack_timeout(ack delay 15, life 16) */
    struct cm_msg m;
    int err = build_req(c, param, &m);
    if (err) {
        pthread_mutex_unlock(&g_cm.lock);
        return cm_err(err);
    }
    c->state = c->id.qp_type == IBV_QPT_UD ? CM_ST_SIDR_REQ_SENT : CM_ST_REQ_SENT;
    cm_send_request(c, &m, CM_REQ_TIMEOUT_MS);
    pthread_mutex_unlock(&g_cm.lock);
    return c->sync ? cm_sync_wait(c, RDMA_CM_EVENT_ESTABLISHED) : 0;
}

int cm_conn_establish(struct cm_id *c)
{
    if (c->state != CM_ST_REP_RCVD)
        return EINVAL;
    struct cm_msg rtu = {.attr = CM_ATTR_RTU, .tid = c->tid, .local_comm_id = c->local_comm_id,
                         .remote_comm_id = c->remote_comm_id};
    cm_send(c->dev, c->peer_ip_be, &rtu);
    c->state = CM_ST_ESTABLISHED;
    return 0;
}

int rdma_establish(struct rdma_cm_id *id)
{
    pthread_mutex_lock(&g_cm.lock);
    struct cm_id *c = cm_id_checked(id);
    int err = c ? cm_conn_establish(c) : EINVAL;
    pthread_mutex_unlock(&g_cm.lock);
    return err ? cm_err(err) : 0;
}

int rdma_accept(struct rdma_cm_id *id, struct rdma_conn_param *param)
{
    pthread_mutex_lock(&g_cm.lock);
    struct cm_id *c = cm_id_checked(id);
    if (!c || (c->state != CM_ST_REQ_RCVD && c->state != CM_ST_SIDR_REQ_RCVD)) {
        pthread_mutex_unlock(&g_cm.lock);
        return cm_err(EINVAL);
    }
    if (param && param->private_data_len && !param->private_data) {
        pthread_mutex_unlock(&g_cm.lock);
        return cm_err(EINVAL);
    }
    struct cm_msg m = {.tid = c->tid, .local_comm_id = c->local_comm_id, .remote_comm_id = c->remote_comm_id};
    if (c->state == CM_ST_SIDR_REQ_RCVD) {
        m.attr = CM_ATTR_SIDR_REP;
        m.local_comm_id = c->remote_comm_id;   /* the request ID */
        m.remote_comm_id = 0;
        m.status = CM_SIDR_SUCCESS;
        m.qpn = id->qp ? id->qp->qp_num : param ? param->qp_num : 0;
        m.qkey = c->qkey;
        m.service_id = cm_service_id(c->id.ps, cm_src_port(c));
        if (param && param->private_data_len)
            memcpy(m.private_data, param->private_data, param->private_data_len > 136 ? 136 : param->private_data_len);
        c->state = CM_ST_UD_READY;
        c->last = m;
        c->has_last = true;
        cm_send(c->dev, c->peer_ip_be, &m);
        pthread_mutex_unlock(&g_cm.lock);
        return 0;
    }
    uint8_t maxrd = c->dev->max_rd_atomic;
    if (param && param->initiator_depth != RDMA_MAX_INIT_DEPTH)
        c->init_depth = param->initiator_depth;
    else if (c->init_depth > maxrd)
        c->init_depth = maxrd;
    if (param && param->responder_resources != RDMA_MAX_RESP_RES)
        c->resp_res = param->responder_resources;
    else if (c->resp_res > maxrd)
        c->resp_res = maxrd;
    c->local_qpn = id->qp ? id->qp->qp_num : param ? param->qp_num : 0;
    c->local_psn = rand_psn(c);
    int err = cm_qp_to_rts(c, c->resp_res, c->init_depth);
    if (err) {
        pthread_mutex_unlock(&g_cm.lock);
        return cm_err(err);
    }
    m.attr = CM_ATTR_REP;
    m.qpn = c->local_qpn;
    m.starting_psn = c->local_psn;
    m.responder_resources = c->resp_res;
    m.initiator_depth = c->init_depth;
    m.target_ack_delay = c->dev->ack_delay;
    m.flow_control = param ? param->flow_control : 0;
    m.rnr_retry_count = param ? (param->rnr_retry_count > 7 ? 7 : param->rnr_retry_count) : 0;
    m.srq = id->qp ? id->qp->srq != NULL : param ? param->srq : 0;
    m.local_ca_guid = be64toh(c->dev->guid_be);
    if (param && param->private_data_len)
        memcpy(m.private_data, param->private_data, param->private_data_len > 196 ? 196 : param->private_data_len);
    c->state = CM_ST_REP_SENT;
    cm_send_request(c, &m, CM_REQ_TIMEOUT_MS);
    pthread_mutex_unlock(&g_cm.lock);
    return c->sync ? cm_sync_wait(c, RDMA_CM_EVENT_ESTABLISHED) : 0;
}

static int reject(struct rdma_cm_id *id, const void *priv, uint8_t len, uint16_t reason)
{
    pthread_mutex_lock(&g_cm.lock);
    struct cm_id *c = cm_id_checked(id);
    if (!c || (len && !priv)) {
        pthread_mutex_unlock(&g_cm.lock);
        return cm_err(EINVAL);
    }
    if (c->state == CM_ST_REQ_RCVD || c->state == CM_ST_REP_RCVD) {
        cm_send_rej(c->dev, c->peer_ip_be, c->tid, c->local_comm_id, c->remote_comm_id,
                 c->state == CM_ST_REQ_RCVD ? CM_MSG_REF_REQ : CM_MSG_REF_REP, reason, priv, len);
    } else if (c->state == CM_ST_SIDR_REQ_RCVD) {
        struct cm_msg m = {.attr = CM_ATTR_SIDR_REP, .tid = c->tid, .local_comm_id = c->remote_comm_id,
                           .status = CM_SIDR_REJECT, .service_id = cm_service_id(c->id.ps, cm_src_port(c))};
        if (len)
            memcpy(m.private_data, priv, len > 136 ? 136 : len);
        cm_send(c->dev, c->peer_ip_be, &m);
    } else {
        pthread_mutex_unlock(&g_cm.lock);
        return cm_err(EINVAL);
    }
    c->state = CM_ST_DEAD;
    pthread_mutex_unlock(&g_cm.lock);
    return 0;
}

int rdma_reject(struct rdma_cm_id *id, const void *private_data, uint8_t private_data_len)
{
    /* a consumer's reject is reason 28, "consumer defined", carrying its private data */
    return reject(id, private_data, private_data_len, CM_REJ_CONSUMER_DEFINED);
}

int rdma_reject_ece(struct rdma_cm_id *id, const void *private_data, uint8_t private_data_len)
{
    return reject(id, private_data, private_data_len, CM_REJ_VENDOR_OPTION_NOT_SUPPORTED);
}

int rdma_disconnect(struct rdma_cm_id *id)
{
    pthread_mutex_lock(&g_cm.lock);
    struct cm_id *c = cm_id_checked(id);
    if (!c) {
        pthread_mutex_unlock(&g_cm.lock);
        return cm_err(EINVAL);
    }
    cm_qp_to_err(c);                 /* librdmacm's ucma_shutdown on an IB/RoCE transport */
    struct cm_msg m = {.tid = c->tid, .local_comm_id = c->local_comm_id, .remote_comm_id = c->remote_comm_id};
    int rc = 0;
    switch (c->state) {
    case CM_ST_ESTABLISHED: case CM_ST_REP_SENT: case CM_ST_REP_RCVD:
        m.attr = CM_ATTR_DREQ;
        m.qpn = c->remote_qpn;
        c->state = CM_ST_DREQ_SENT;
        cm_send_request(c, &m, CM_REQ_TIMEOUT_MS);
        break;
    case CM_ST_DREQ_RCVD:
        m.attr = CM_ATTR_DREP;
        cm_send(c->dev, c->peer_ip_be, &m);
        cm_enter_timewait(c);
        break;
    case CM_ST_DREQ_SENT: case CM_ST_TIMEWAIT:
        break;                       /* already on its way down */
    case CM_ST_UD_READY:
        c->state = CM_ST_IDLE;
        break;
    default:
        rc = EINVAL;
        break;
    }
    pthread_mutex_unlock(&g_cm.lock);
    return rc ? cm_err(rc) : 0;
}

int rdma_notify(struct rdma_cm_id *id, enum ibv_event_type event)
{
    pthread_mutex_lock(&g_cm.lock);
    struct cm_id *c = cm_id_checked(id);
    int rc = c ? 0 : EINVAL;
    /* IBV_EVENT_COMM_EST: data arrived before the RTU - the connection is established (IBA 12.9.7) */
    if (c && event == IBV_EVENT_COMM_EST && c->state == CM_ST_REP_SENT) {
        c->state = CM_ST_ESTABLISHED;
        c->has_last = false;
        cm_arm(c, CM_TIMER_NONE, 0, 0);
        cm_emit(c, RDMA_CM_EVENT_ESTABLISHED, 0, NULL, 0);
    }
    pthread_mutex_unlock(&g_cm.lock);
    return rc ? cm_err(rc) : 0;
}

void cm_conn_abandon(struct cm_id *c)
{
    if (!c->dev)
        return;
    struct cm_msg m = {.tid = c->tid, .local_comm_id = c->local_comm_id, .remote_comm_id = c->remote_comm_id};
    switch (c->state) {
    case CM_ST_ESTABLISHED: case CM_ST_REP_RCVD:
        m.attr = CM_ATTR_DREQ;
        m.qpn = c->remote_qpn;
        cm_send(c->dev, c->peer_ip_be, &m);
        break;
    case CM_ST_DREQ_RCVD:
        m.attr = CM_ATTR_DREP;
        cm_send(c->dev, c->peer_ip_be, &m);
        break;
    case CM_ST_REQ_RCVD: case CM_ST_REP_SENT:
        cm_send_rej(c->dev, c->peer_ip_be, c->tid, c->local_comm_id, c->remote_comm_id,
                 c->state == CM_ST_REQ_RCVD ? CM_MSG_REF_REQ : CM_MSG_REF_OTHER, CM_REJ_CONSUMER_DEFINED, NULL, 0);
        break;
    case CM_ST_REQ_SENT: case CM_ST_MRA_RCVD:
        cm_send_rej(c->dev, c->peer_ip_be, c->tid, c->local_comm_id, c->remote_comm_id, CM_MSG_REF_OTHER,
                 CM_REJ_TIMEOUT, NULL, 0);
        break;
    case CM_ST_SIDR_REQ_RCVD: {
        struct cm_msg r = {.attr = CM_ATTR_SIDR_REP, .tid = c->tid, .local_comm_id = c->remote_comm_id,
                           .status = CM_SIDR_REJECT};
        cm_send(c->dev, c->peer_ip_be, &r);
        break;
    }
    default:
        break;
    }
    c->state = CM_ST_DEAD;
    c->has_last = false;
    cm_arm(c, CM_TIMER_NONE, 0, 0);
}
