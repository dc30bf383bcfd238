/* Synchronous ids (created without a channel, as rdma_create_ep makes them): each call waits for
 * the event it produces on the id's private channel, keeps it in id->event and turns its status
 * into the return value, as librdmacm's ucma_complete does. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/rdma_verbs.h>

#include "cm_loc.h"

int cm_sync_wait(struct cm_id *c, enum rdma_cm_event_type expected)
{
    if (c->id.event) {
        rdma_ack_cm_event(c->id.event);
        c->id.event = NULL;
    }
    struct rdma_cm_event *e;
    if (rdma_get_cm_event(c->id.channel, &e) != 0)
        return -1;
    c->id.event = e;
    if (e->status > 0)
        return cm_err(ECONNREFUSED);   /* REJECTED with an IB reason, UNREACHABLE with a SIDR status */
    if (e->status < 0)
        return cm_err(-e->status);
    if (e->event != expected)
        return cm_err(e->event == RDMA_CM_EVENT_REJECTED ? ECONNREFUSED : EINVAL);
    return 0;
}

int rdma_get_request(struct rdma_cm_id *listen, struct rdma_cm_id **id)
{
    struct cm_id *l = cm_id_checked(listen);
    if (!l || !id || !l->sync)
        return cm_err(EINVAL);
    if (listen->event) {
        rdma_ack_cm_event(listen->event);
        listen->event = NULL;
    }
    struct rdma_cm_event *e;
    if (rdma_get_cm_event(listen->channel, &e) != 0)
        return -1;
    if (e->status) {
        int st = e->status;
        rdma_ack_cm_event(e);
        return cm_err(st < 0 ? -st : ECONNREFUSED);
    }
    if (e->event != RDMA_CM_EVENT_CONNECT_REQUEST) {
        rdma_ack_cm_event(e);
        return cm_err(EINVAL);
    }
    struct rdma_cm_id *child = e->id;
    /* the request's id becomes synchronous too, with its own channel (librdmacm does the same) */
    if (rdma_migrate_id(child, NULL) != 0) {
        rdma_ack_cm_event(e);
        return -1;
    }
    if (l->ep_qp_attr) {
        struct ibv_qp_init_attr qa = *l->ep_qp_attr;
        if (rdma_create_qp(child, listen->pd, &qa) != 0) {
            int err = errno;
            rdma_ack_cm_event(e);
            rdma_reject(child, NULL, 0);
            rdma_destroy_id(child);
            return cm_err(err);
        }
    }
    child->event = e;   /* acked by the next synchronous call on the child or its destroy */
    *id = child;
    return 0;
}

int rdma_create_ep(struct rdma_cm_id **id, struct rdma_addrinfo *res, struct ibv_pd *pd,
                   struct ibv_qp_init_attr *qp_init_attr)
{
    if (!id || !res)
        return cm_err(EINVAL);
    struct rdma_cm_id *cid;
    enum rdma_port_space ps = res->ai_port_space ? (enum rdma_port_space)res->ai_port_space
                            : res->ai_qp_type == IBV_QPT_UD ? RDMA_PS_UDP : RDMA_PS_TCP;
    if (rdma_create_id(NULL, &cid, NULL, ps) != 0)
        return -1;
    struct cm_id *c = cm_id_of(cid);
    int rc;
    if (res->ai_flags & RAI_PASSIVE) {
        rc = res->ai_src_addr ? rdma_bind_addr(cid, res->ai_src_addr) : cm_err(EINVAL);
        if (!rc && qp_init_attr) {
            c->ep_qp_attr = malloc(sizeof *c->ep_qp_attr);
            if (c->ep_qp_attr)
                *c->ep_qp_attr = *qp_init_attr;
            else
                rc = cm_err(ENOMEM);
            cid->pd = pd;
        }
    } else {
        rc = rdma_resolve_addr(cid, res->ai_src_addr, res->ai_dst_addr, 2000);
        if (!rc)
            rc = rdma_resolve_route(cid, 2000);
        if (!rc && qp_init_attr) {
            if (!pd) {
                pd = ibv_alloc_pd(cid->verbs);
                if (!pd)
                    rc = -1;
            }
            if (!rc)
                rc = rdma_create_qp(cid, pd, qp_init_attr);
        }
    }
    if (rc) {
        int err = errno;
        rdma_destroy_id(cid);
        return cm_err(err);
    }
    *id = cid;
    return 0;
}

void rdma_destroy_ep(struct rdma_cm_id *id)
{
    if (!cm_id_checked(id))
        return;
    if (id->qp)
        rdma_destroy_qp(id);
    if (id->srq)
        rdma_destroy_srq(id);
    if (id->event) {
        rdma_ack_cm_event(id->event);
        id->event = NULL;
    }
    rdma_destroy_id(id);
}
