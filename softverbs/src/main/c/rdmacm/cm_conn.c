/* The connection state machine of the IB CM as the kernel's ib_cm + rdma_cm drive it over RoCE:
 *   active:  ROUTE_RESOLVED -REQ-> REQ_SENT [-MRA-> MRA_RCVD] -REP-> REP_RCVD -RTU-> ESTABLISHED
 *   passive: LISTEN: REQ -> child REQ_RCVD (CONNECT_REQUEST) -accept/REP-> REP_SENT -RTU-> ESTABLISHED
 *   either:  ESTABLISHED -DREQ-> DREQ_SENT -DREP-> TIMEWAIT -> TIMEWAIT_EXIT
 *            ESTABLISHED or DREQ_SENT <-DREQ- DREQ_RCVD (DISCONNECTED) -DREP-> TIMEWAIT
 *            a DREQ for no connection is answered with a DREP, as ib_cm's cm_issue_drep
 *   UD:      ROUTE_RESOLVED -SIDR_REQ-> SIDR_REQ_SENT -SIDR_REP-> UD_READY (ESTABLISHED)
 * Requests are retransmitted every 2 * packet life + response timeout (4.6 s) up to 15 times;
 * then UNREACHABLE (-ETIMEDOUT) as IB_CM_REQ_ERROR/REP_ERROR, or DISCONNECTED for a DREQ.
 * A message that fits no state is dropped and counted. g_cm.lock is held throughout. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cm_loc.h"

void cm_arm(struct cm_id *c, enum cm_timer kind, uint32_t timeout_ms, int retries)
{
    c->timer = kind;
    c->timeout_ms = timeout_ms;
    c->retries_left = retries;
    c->deadline_ms = kind == CM_TIMER_NONE ? 0 : cm_now_ms() + timeout_ms;
    pthread_cond_broadcast(&g_cm.cond);
}

void cm_emit(struct cm_id *c, enum rdma_cm_event_type type, int status, const void *priv, size_t len)
{
    if (c->destroying)
        return;
    struct cm_event *e = cm_event_new(c, type, status, priv, len);
    if (e)
        cm_channel_push(c->channel, e);
    cm_log(c->dev, "event", "id %p %s: %s status %d", (void *)c, cm_state_name(c->state),
           rdma_event_str(type), status);
}

/* sends m and keeps it for retransmission */
void cm_send_request(struct cm_id *c, const struct cm_msg *m, uint32_t timeout_ms)
{
    c->last = *m;
    c->has_last = true;
    cm_send(c->dev, c->peer_ip_be, m);
    cm_arm(c, CM_TIMER_RETRY, timeout_ms, CM_MAX_CM_RETRIES);
}

void cm_enter_timewait(struct cm_id *c)
{
    c->state = CM_ST_TIMEWAIT;
    c->has_last = false;
    /* the kernel waits the QP's local ACK timeout before a QPN/comm ID may be reused */
    cm_arm(c, CM_TIMER_TIMEWAIT, cm_iba_time_ms(c->ack_timeout ? c->ack_timeout : CM_PACKET_LIFETIME + 1), 0);
}

void cm_send_rej(struct cm_dev *dev, uint32_t dst, uint64_t tid, uint32_t local, uint32_t remote,
                 enum cm_msg_ref ref, uint16_t reason, const void *priv, size_t len)
{
    struct cm_msg m = {.attr = CM_ATTR_REJ, .tid = tid, .local_comm_id = local, .remote_comm_id = remote,
                       .msg_ref = ref, .reason = reason};
    if (reason == CM_REJ_TIMEOUT) {  /* ARI: the rejecting CA's GUID */
        m.ari_len = 8;
        memcpy(m.ari, &dev->guid_be, 8);
    }
    if (priv && len)
        memcpy(m.private_data, priv, len > 148 ? 148 : len);
    cm_send(dev, dst, &m);
}

static struct cm_id *find_by_local(const struct cm_dev *dev, uint32_t comm_id)
{
    for (struct cm_id *c = g_cm.ids; c; c = c->next)
        if (c->dev == dev && c->local_comm_id == comm_id && c->state != CM_ST_DEAD && c->state != CM_ST_LISTEN)
            return c;
    return NULL;
}

static struct cm_id *find_by_remote(const struct cm_dev *dev, uint32_t remote_comm_id, uint32_t peer_ip)
{
    for (struct cm_id *c = g_cm.ids; c; c = c->next)
        if (c->dev == dev && c->remote_comm_id == remote_comm_id && c->peer_ip_be == peer_ip &&
            c->state != CM_ST_DEAD && c->state != CM_ST_LISTEN)
            return c;
    return NULL;
}

static struct cm_id *find_listener(const struct cm_dev *dev, uint64_t service_id, uint32_t dst_ip,
                                   enum ibv_qp_type qp_type)
{
    if ((service_id & 0xFFFFFFFFFF000000ull) != 0x0000000001000000ull)
        return NULL;
    enum rdma_port_space ps = (enum rdma_port_space)((service_id >> 16) & 0xFF);
    uint16_t port = (uint16_t)service_id;
    for (struct cm_id *c = g_cm.ids; c; c = c->next) {
        if (c->state != CM_ST_LISTEN || c->destroying || (c->id.ps & 0xFF) != ps || cm_src_port(c) != port)
            continue;
        if ((c->dev && c->dev != dev) || (cm_src_ip(c) != INADDR_ANY && cm_src_ip(c) != dst_ip))
            continue;
        if (c->id.qp_type != qp_type)
            continue;
        return c;
    }
    return NULL;
}

static int pending_children(const struct cm_id *l)
{
    int n = 0;
    for (const struct cm_id *c = g_cm.ids; c; c = c->next)
        if (c->listener == l && !c->delivered)
            n++;
    return n;
}

/* a child id for a request that reached listener l */
static struct cm_id *new_child(struct cm_id *l, struct cm_dev *dev, const struct cm_ip_hdr *h, uint32_t src_ip)
{
    struct cm_id *c = cm_id_alloc(l->channel, l->id.context, l->id.ps, l->id.qp_type);
    if (!c)
        return NULL;
    c->listener = l;
    c->sync = false;
    cm_id_set_dev(c, dev);
    struct sockaddr_in *s = &c->id.route.addr.src_sin, *d = &c->id.route.addr.dst_sin;
    s->sin_family = d->sin_family = AF_INET;
    s->sin_addr.s_addr = dev->ip_be;
    s->sin_port = l->id.route.addr.src_sin.sin_port;
    d->sin_addr.s_addr = h->src_ip_be ? h->src_ip_be : src_ip;
    d->sin_port = htons(h->src_port);
    c->peer_ip_be = src_ip;
    c->tos = l->tos;
    cm_id_fill_path(c, src_ip);
    return c;
}

static void handle_req(struct cm_dev *dev, const struct cm_msg *m, uint32_t src_ip)
{
    struct cm_id *dup = find_by_remote(dev, m->local_comm_id, src_ip);
    if (dup) {                       /* a retransmitted REQ */
        if (dup->state == CM_ST_REQ_RCVD) {
            struct cm_msg mra = {.attr = CM_ATTR_MRA, .tid = dup->tid, .local_comm_id = dup->local_comm_id,
                                 .remote_comm_id = dup->remote_comm_id, .msg_ref = CM_MSG_REF_REQ,
                                 .service_timeout = CM_MRA_SERVICE_TIMEOUT};
            cm_send(dev, src_ip, &mra);
        } else if (dup->state == CM_ST_REP_SENT && dup->has_last) {
            cm_send(dev, src_ip, &dup->last);
        } else {
            cm_note(dev, CM_CNT_MADS_UNMATCHED, "duplicate REQ in state %s dropped", cm_state_name(dup->state));
        }
        return;
    }
    struct cm_ip_hdr h;
    if (!cm_ip_hdr_get(m->private_data, &h)) {
        cm_note(dev, CM_CNT_MADS_REFUSED, "REQ without an IPv4 CM private data header: rejected");
        cm_send_rej(dev, src_ip, m->tid, 0, m->local_comm_id, CM_MSG_REF_REQ, CM_REJ_CONSUMER_DEFINED, NULL, 0);
        return;
    }
    if (m->transport_type != 0) {    /* RC only */
        cm_note(dev, CM_CNT_MADS_REFUSED, "REQ for transport %u: rejected", m->transport_type);
        cm_send_rej(dev, src_ip, m->tid, 0, m->local_comm_id, CM_MSG_REF_REQ, CM_REJ_INVALID_TRANSPORT_TYPE, NULL, 0);
        return;
    }
    struct cm_id *l = find_listener(dev, m->service_id, h.dst_ip_be, IBV_QPT_RC);
    if (!l || pending_children(l) >= l->backlog) {
        /* nobody listens on this service ID: the CM answers REJ "invalid service ID" (IBA 12.6.7.2) */
        cm_note(dev, CM_CNT_MADS_REFUSED, "REQ for service ID 0x%016llx: %s, REJ reason 8",
                (unsigned long long)m->service_id, l ? "backlog full" : "no listener");
        cm_send_rej(dev, src_ip, m->tid, 0, m->local_comm_id, CM_MSG_REF_REQ,
                 l ? CM_REJ_NO_RESOURCES : CM_REJ_INVALID_SERVICE_ID, NULL, 0);
        return;
    }
    struct cm_id *c = new_child(l, dev, &h, src_ip);
    if (!c)
        return;
    c->tid = m->tid;
    c->remote_comm_id = m->local_comm_id;
    c->remote_qpn = m->qpn;
    c->remote_psn = m->starting_psn;
    c->resp_res = m->initiator_depth;          /* our responder resources serve its initiator depth */
    c->init_depth = m->responder_resources;
    c->retry_count = m->retry_count;
    c->rnr_retry_count = m->rnr_retry_count;
    c->flow_control = m->flow_control;
    c->srq = m->srq;
    c->mtu = m->path_mtu && m->path_mtu < (uint8_t)dev->active_mtu ? (enum ibv_mtu)m->path_mtu : dev->active_mtu;
    c->path.mtu = (uint8_t)c->mtu;
    c->ack_timeout = m->primary.local_ack_timeout ? m->primary.local_ack_timeout : CM_PACKET_LIFETIME + 1;
    c->state = CM_ST_REQ_RCVD;
    struct cm_event *e = cm_event_new(c, RDMA_CM_EVENT_CONNECT_REQUEST, 0, m->private_data + CM_IP_HDR_LEN,
                                      m->private_len - CM_IP_HDR_LEN);
    if (!e)
        return;
    e->ev.listen_id = &l->id;
    struct rdma_conn_param *p = &e->ev.param.conn;
    p->responder_resources = c->resp_res;
    p->initiator_depth = c->init_depth;
    p->flow_control = m->flow_control;
    p->retry_count = m->retry_count;
    p->rnr_retry_count = m->rnr_retry_count;
    p->srq = m->srq;
    p->qp_num = m->qpn;
    cm_channel_push(c->channel, e);
    cm_log(dev, "event", "child %p of listener %p: CONNECT_REQUEST", (void *)c, (void *)l);
}

static void handle_sidr_req(struct cm_dev *dev, const struct cm_msg *m, uint32_t src_ip)
{
    struct cm_id *dup = find_by_remote(dev, m->local_comm_id, src_ip);
    if (dup) {
        if (dup->state == CM_ST_UD_READY && dup->has_last)
            cm_send(dev, src_ip, &dup->last);
        return;
    }
    struct cm_ip_hdr h;
    struct cm_id *l = cm_ip_hdr_get(m->private_data, &h) ? find_listener(dev, m->service_id, h.dst_ip_be, IBV_QPT_UD)
                                                         : NULL;
    if (!l) {
        cm_note(dev, CM_CNT_MADS_REFUSED, "SIDR_REQ for service ID 0x%016llx: no listener",
                (unsigned long long)m->service_id);
        struct cm_msg rep = {.attr = CM_ATTR_SIDR_REP, .tid = m->tid, .local_comm_id = m->local_comm_id,
                             .status = CM_SIDR_UNSUPPORTED, .service_id = m->service_id};
        cm_send(dev, src_ip, &rep);
        return;
    }
    struct cm_id *c = new_child(l, dev, &h, src_ip);
    if (!c)
        return;
    c->tid = m->tid;
    c->remote_comm_id = m->local_comm_id;
    c->state = CM_ST_SIDR_REQ_RCVD;
    struct cm_event *e = cm_event_new(c, RDMA_CM_EVENT_CONNECT_REQUEST, 0, m->private_data + CM_IP_HDR_LEN,
                                      m->private_len - CM_IP_HDR_LEN);
    if (!e)
        return;
    e->ev.listen_id = &l->id;
    struct ibv_ah_attr *ah = &e->ev.param.ud.ah_attr;
    ah->is_global = 1;
    ah->port_num = 1;
    ah->grh.dgid = c->path.dgid;
    ah->grh.sgid_index = CM_GID_INDEX;
    ah->grh.hop_limit = CM_HOP_LIMIT;
    cm_channel_push(c->channel, e);
}

static void handle_rep(struct cm_dev *dev, const struct cm_msg *m, uint32_t src_ip)
{
    struct cm_id *c = find_by_local(dev, m->remote_comm_id);
    if (c && (c->state == CM_ST_ESTABLISHED || c->state == CM_ST_REP_RCVD) && c->remote_comm_id == m->local_comm_id) {
        if (c->state == CM_ST_ESTABLISHED) {   /* our RTU was lost: repeat it */
            struct cm_msg rtu = {.attr = CM_ATTR_RTU, .tid = c->tid, .local_comm_id = c->local_comm_id,
                                 .remote_comm_id = c->remote_comm_id};
            cm_send(dev, src_ip, &rtu);
        }
        return;
    }
    if (!c || (c->state != CM_ST_REQ_SENT && c->state != CM_ST_MRA_RCVD) || src_ip != c->peer_ip_be) {
        cm_note(dev, CM_CNT_MADS_UNMATCHED, "REP for comm ID 0x%08x matches no pending REQ", m->remote_comm_id);
        return;
    }
    c->remote_comm_id = m->local_comm_id;
    c->remote_qpn = m->qpn;
    c->remote_psn = m->starting_psn;
    c->resp_res = m->initiator_depth < c->resp_res ? m->initiator_depth : c->resp_res;
    c->init_depth = m->responder_resources < c->init_depth ? m->responder_resources : c->init_depth;
    c->rnr_retry_count = m->rnr_retry_count;
    c->state = CM_ST_REP_RCVD;
    c->has_last = false;
    cm_arm(c, CM_TIMER_NONE, 0, 0);
    struct cm_event *e = cm_event_new(c, RDMA_CM_EVENT_CONNECT_RESPONSE, 0, m->private_data, m->private_len);
    if (!e)
        return;
    e->conn_response = true;
    struct rdma_conn_param *p = &e->ev.param.conn;
    p->responder_resources = m->initiator_depth;
    p->initiator_depth = m->responder_resources;
    p->flow_control = m->flow_control;
    p->rnr_retry_count = m->rnr_retry_count;
    p->srq = m->srq;
    p->qp_num = m->qpn;
    if (!c->destroying)
        cm_channel_push(c->channel, e);
    else
        free(e);
}

static void handle_rtu(struct cm_dev *dev, const struct cm_msg *m, uint32_t src_ip)
{
    struct cm_id *c = find_by_local(dev, m->remote_comm_id);
    if (!c || c->state != CM_ST_REP_SENT || c->remote_comm_id != m->local_comm_id || src_ip != c->peer_ip_be) {
        cm_note(dev, CM_CNT_MADS_UNMATCHED, "RTU for comm ID 0x%08x matches no REP", m->remote_comm_id);
        return;
    }
    c->state = CM_ST_ESTABLISHED;
    c->has_last = false;
    cm_arm(c, CM_TIMER_NONE, 0, 0);
    cm_emit(c, RDMA_CM_EVENT_ESTABLISHED, 0, m->private_data, m->private_len);
}

static void handle_rej(struct cm_dev *dev, const struct cm_msg *m, uint32_t src_ip)
{
    struct cm_id *c = find_by_local(dev, m->remote_comm_id);
    if (!c || src_ip != c->peer_ip_be ||
        (c->state != CM_ST_REQ_SENT && c->state != CM_ST_MRA_RCVD && c->state != CM_ST_REP_SENT &&
         c->state != CM_ST_REP_RCVD)) {
        cm_note(dev, CM_CNT_MADS_UNMATCHED, "REJ for comm ID 0x%08x matches no pending connection", m->remote_comm_id);
        return;
    }
    cm_log(dev, "rej", "REJ reason %u (%s)", m->reason, cm_rej_reason_name(m->reason));
    c->state = CM_ST_DEAD;
    c->has_last = false;
    cm_arm(c, CM_TIMER_NONE, 0, 0);
    cm_emit(c, RDMA_CM_EVENT_REJECTED, m->reason, m->private_data, m->private_len);
}

static void handle_mra(struct cm_dev *dev, const struct cm_msg *m)
{
    struct cm_id *c = find_by_local(dev, m->remote_comm_id);
    if (!c || (c->state != CM_ST_REQ_SENT && c->state != CM_ST_MRA_RCVD) || m->msg_ref != CM_MSG_REF_REQ) {
        cm_note(dev, CM_CNT_MADS_UNMATCHED, "MRA for comm ID 0x%08x matches no REQ", m->remote_comm_id);
        return;
    }
    /* the peer needs service_timeout more: wait that plus the packet life, without resending */
    c->state = CM_ST_MRA_RCVD;
    cm_arm(c, CM_TIMER_RETRY, cm_iba_time_ms(m->service_timeout) + cm_iba_time_ms(CM_PACKET_LIFETIME),
           c->retries_left);
}

static void handle_dreq(struct cm_dev *dev, const struct cm_msg *m, uint32_t src_ip)
{
    struct cm_id *c = find_by_local(dev, m->remote_comm_id);
    if (c && c->state != CM_ST_DEAD && c->remote_comm_id == m->local_comm_id && src_ip == c->peer_ip_be) {
        switch (c->state) {
        case CM_ST_DREQ_SENT:        /* both ends disconnect at once: theirs answers ours (no more retries) */
        case CM_ST_ESTABLISHED: case CM_ST_REP_SENT: case CM_ST_REP_RCVD:
            c->state = CM_ST_DREQ_RCVD;   /* the DREP leaves at rdma_disconnect or rdma_destroy_id */
            c->has_last = false;
            cm_arm(c, CM_TIMER_NONE, 0, 0);
            cm_emit(c, RDMA_CM_EVENT_DISCONNECTED, 0, m->private_data, m->private_len);
            return;
        case CM_ST_TIMEWAIT: {       /* our DREP was lost */
            struct cm_msg drep = {.attr = CM_ATTR_DREP, .tid = c->tid, .local_comm_id = c->local_comm_id,
                                  .remote_comm_id = c->remote_comm_id};
            cm_send(dev, src_ip, &drep);
            return;
        }
        case CM_ST_DREQ_RCVD:        /* a retry while the consumer has not answered yet: ib_cm ignores it */
            return;
        default:
            cm_note(dev, CM_CNT_MADS_UNMATCHED, "DREQ for comm ID 0x%08x in state %s ignored", m->remote_comm_id,
                    cm_state_name(c->state));
            return;
        }
    }
    /* no such connection (any more, e.g. destroyed while its DREQ was out): ib_cm answers anyway
     * (cm_issue_drep), so the peer stops retrying instead of waiting out 15 timeouts */
    cm_note(dev, CM_CNT_MADS_UNMATCHED, "DREQ for comm ID 0x%08x matches no connection: DREP sent", m->remote_comm_id);
    struct cm_msg drep = {.attr = CM_ATTR_DREP, .tid = m->tid, .local_comm_id = m->remote_comm_id,
                          .remote_comm_id = m->local_comm_id};
    cm_send(dev, src_ip, &drep);
}

static void handle_drep(struct cm_dev *dev, const struct cm_msg *m, uint32_t src_ip)
{
    struct cm_id *c = find_by_local(dev, m->remote_comm_id);
    if (!c || (c->state != CM_ST_DREQ_SENT && c->state != CM_ST_DREQ_RCVD) ||
        c->remote_comm_id != m->local_comm_id || src_ip != c->peer_ip_be) {
        cm_note(dev, CM_CNT_MADS_UNMATCHED, "DREP for comm ID 0x%08x matches no DREQ", m->remote_comm_id);
        return;
    }
    if (c->state == CM_ST_DREQ_SENT)     /* DREQ_RCVD (crossed DREQs) told the consumer already */
        cm_emit(c, RDMA_CM_EVENT_DISCONNECTED, 0, m->private_data, m->private_len);
    cm_enter_timewait(c);
}

static void handle_sidr_rep(struct cm_dev *dev, const struct cm_msg *m, uint32_t src_ip)
{
    struct cm_id *c = find_by_local(dev, m->local_comm_id);
    if (!c || c->state != CM_ST_SIDR_REQ_SENT || src_ip != c->peer_ip_be) {
        cm_note(dev, CM_CNT_MADS_UNMATCHED, "SIDR_REP for request 0x%08x matches no SIDR_REQ", m->local_comm_id);
        return;
    }
    c->has_last = false;
    cm_arm(c, CM_TIMER_NONE, 0, 0);
    if (m->status != CM_SIDR_SUCCESS) {
        c->state = CM_ST_DEAD;
        cm_emit(c, RDMA_CM_EVENT_UNREACHABLE, m->status, m->private_data, m->private_len);
        return;
    }
    c->state = CM_ST_UD_READY;
    c->remote_qpn = m->qpn;
    c->remote_qkey = m->qkey;
    struct cm_event *e = cm_event_new(c, RDMA_CM_EVENT_ESTABLISHED, 0, m->private_data, m->private_len);
    if (!e)
        return;
    struct rdma_ud_param *u = &e->ev.param.ud;
    u->qp_num = m->qpn;
    u->qkey = m->qkey;
    u->ah_attr.is_global = 1;
    u->ah_attr.port_num = 1;
    u->ah_attr.grh.dgid = c->path.dgid;
    u->ah_attr.grh.sgid_index = CM_GID_INDEX;
    u->ah_attr.grh.hop_limit = c->path.hop_limit;
    u->ah_attr.grh.traffic_class = c->path.traffic_class;
    if (!c->destroying)
        cm_channel_push(c->channel, e);
    else
        free(e);
}

void cm_conn_handle(struct cm_dev *dev, const struct cm_msg *m, uint32_t src_ip)
{
    switch (m->attr) {
    case CM_ATTR_REQ: handle_req(dev, m, src_ip); break;
    case CM_ATTR_REP: handle_rep(dev, m, src_ip); break;
    case CM_ATTR_RTU: handle_rtu(dev, m, src_ip); break;
    case CM_ATTR_REJ: handle_rej(dev, m, src_ip); break;
    case CM_ATTR_MRA: handle_mra(dev, m); break;
    case CM_ATTR_DREQ: handle_dreq(dev, m, src_ip); break;
    case CM_ATTR_DREP: handle_drep(dev, m, src_ip); break;
    case CM_ATTR_SIDR_REQ: handle_sidr_req(dev, m, src_ip); break;
    case CM_ATTR_SIDR_REP: handle_sidr_rep(dev, m, src_ip); break;
    default: cm_note(dev, CM_CNT_MADS_UNMATCHED, "%s not handled", cm_attr_name(m->attr)); break;
    }
}

static void timer_expired(struct cm_id *c)
{
    if (c->timer == CM_TIMER_TIMEWAIT) {
        cm_arm(c, CM_TIMER_NONE, 0, 0);
        c->state = CM_ST_IDLE;
        cm_emit(c, RDMA_CM_EVENT_TIMEWAIT_EXIT, 0, NULL, 0);
        return;
    }
    if (c->retries_left > 0 && c->has_last && c->state != CM_ST_MRA_RCVD) {
        c->retries_left--;
        cm_count(CM_CNT_RETRANSMITS);
        cm_send(c->dev, c->peer_ip_be, &c->last);
        c->deadline_ms = cm_now_ms() + c->timeout_ms;
        return;
    }
    if (c->state == CM_ST_MRA_RCVD && c->retries_left > 0) {   /* the MRA's grace ran out: ask again */
        c->state = CM_ST_REQ_SENT;
        c->retries_left--;
        cm_send(c->dev, c->peer_ip_be, &c->last);
        c->timeout_ms = CM_REQ_TIMEOUT_MS;
        c->deadline_ms = cm_now_ms() + c->timeout_ms;
        return;
    }
    cm_note(c->dev, CM_CNT_TIMEOUTS, "no response in %s after %d retries", cm_state_name(c->state),
            CM_MAX_CM_RETRIES);
    cm_arm(c, CM_TIMER_NONE, 0, 0);
    c->has_last = false;
    switch (c->state) {
    case CM_ST_DREQ_SENT:            /* IB_CM_DREQ_ERROR: the connection is gone anyway */
        cm_emit(c, RDMA_CM_EVENT_DISCONNECTED, 0, NULL, 0);
        cm_enter_timewait(c);
        break;
    default:                         /* REQ, REP or SIDR_REQ unanswered: IB_CM_*_ERROR */
        c->state = CM_ST_DEAD;
        cm_emit(c, RDMA_CM_EVENT_UNREACHABLE, -ETIMEDOUT, NULL, 0);
        break;
    }
}

uint64_t cm_conn_timers(uint64_t now)
{
    uint64_t next = 0;
    for (struct cm_id *c = g_cm.ids; c; c = c->next) {
        if (c->timer == CM_TIMER_NONE)
            continue;
        if (c->deadline_ms <= now)
            timer_expired(c);
        if (c->timer != CM_TIMER_NONE && (!next || c->deadline_ms < next))
            next = c->deadline_ms;
    }
    return next;
}
