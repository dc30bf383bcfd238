/* Connection calls (connect, accept, reject, disconnect), QPs and SRQs on ids, and the CM events. */
#include <stdbool.h>

#include "tc_loc.h"

#define P(x) ((int64_t)(uintptr_t)(x))
#define CALL(f, idp) struct tc_call c = {.func = CMF_##f, .id = (idp), .t0 = tc_now()}
#define DONE_INT(ret) do { c.t1 = tc_now(); c.ret = (ret); c.err = tc_err((ret), errno); } while (0)

static void conn_param(struct tc_call *c, const struct rdma_conn_param *p)
{
    if (p == NULL) {
        return;
    }
    c->a[0] = p->responder_resources;
    c->a[1] = p->initiator_depth;
    c->a[2] = p->flow_control;
    c->a[3] = p->retry_count;
    c->a[4] = p->rnr_retry_count;
    c->a[5] = p->srq;
    c->a[6] = p->qp_num;
    c->a[7] = 1;
    c->pdata = p->private_data;
    c->plen = p->private_data != NULL ? p->private_data_len : 0;
}

int (rdma_connect)(struct rdma_cm_id *id, struct rdma_conn_param *conn_param_in)
{
    CALL(rdma_connect, id);
    int ret = real_rdma_connect(id, conn_param_in);
    int saved = errno;
    DONE_INT(ret);
    conn_param(&c, conn_param_in);
    tc_use_id_addrs(&c, id);
    tc_record_call(&c);
    errno = saved;
    return ret;
}

int (rdma_accept)(struct rdma_cm_id *id, struct rdma_conn_param *conn_param_in)
{
    CALL(rdma_accept, id);
    int ret = real_rdma_accept(id, conn_param_in);
    int saved = errno;
    DONE_INT(ret);
    conn_param(&c, conn_param_in);
    tc_use_id_addrs(&c, id);
    tc_record_call(&c);
    errno = saved;
    return ret;
}

int (rdma_reject)(struct rdma_cm_id *id, const void *private_data, uint8_t private_data_len)
{
    CALL(rdma_reject, id);
    int ret = real_rdma_reject(id, private_data, private_data_len);
    int saved = errno;
    DONE_INT(ret);
    c.pdata = private_data;
    c.plen = private_data_len;
    tc_use_id_addrs(&c, id);
    tc_record_call(&c);
    errno = saved;
    return ret;
}

int (rdma_reject_ece)(struct rdma_cm_id *id, const void *private_data, uint8_t private_data_len)
{
    CALL(rdma_reject_ece, id);
    int ret = real_rdma_reject_ece(id, private_data, private_data_len);
    int saved = errno;
    DONE_INT(ret);
    c.pdata = private_data;
    c.plen = private_data_len;
    tc_use_id_addrs(&c, id);
    tc_record_call(&c);
    errno = saved;
    return ret;
}

int (rdma_establish)(struct rdma_cm_id *id)
{
    CALL(rdma_establish, id);
    int ret = real_rdma_establish(id);
    int saved = errno;
    DONE_INT(ret);
    tc_use_id_addrs(&c, id);
    tc_record_call(&c);
    errno = saved;
    return ret;
}

int (rdma_disconnect)(struct rdma_cm_id *id)
{
    CALL(rdma_disconnect, id);
    int ret = real_rdma_disconnect(id);
    int saved = errno;
    DONE_INT(ret);
    tc_use_id_addrs(&c, id);
    tc_record_call(&c);
    errno = saved;
    return ret;
}

int (rdma_notify)(struct rdma_cm_id *id, enum ibv_event_type event)
{
    CALL(rdma_notify, id);
    int ret = real_rdma_notify(id, event);
    int saved = errno;
    DONE_INT(ret);
    c.a[0] = event;
    tc_record_call(&c);
    errno = saved;
    return ret;
}

static void qp_args(struct tc_call *c, struct rdma_cm_id *id, struct ibv_pd *pd, int qp_type, uint32_t send_wr,
                    uint32_t recv_wr, struct ibv_cq *scq, struct ibv_cq *rcq)
{
    struct ibv_qp *qp = c->ret == 0 && id != NULL ? id->qp : NULL;
    c->a[0] = P(pd);
    c->a[1] = qp_type;
    c->a[2] = P(qp);
    c->a[3] = qp != NULL ? (int64_t)qp->qp_num : -1;
    c->a[4] = send_wr;
    c->a[5] = recv_wr;
    c->a[6] = P(qp != NULL ? qp->send_cq : scq);
    c->a[7] = P(qp != NULL ? qp->recv_cq : rcq);
    tc_use_id_addrs(c, id);
}

int (rdma_create_qp)(struct rdma_cm_id *id, struct ibv_pd *pd, struct ibv_qp_init_attr *attr)
{
    CALL(rdma_create_qp, id);
    int ret = real_rdma_create_qp(id, pd, attr);
    int saved = errno;
    DONE_INT(ret);
    if (attr != NULL) {
        qp_args(&c, id, pd, attr->qp_type, attr->cap.max_send_wr, attr->cap.max_recv_wr, attr->send_cq,
                attr->recv_cq);
    }
    tc_record_call(&c);
    errno = saved;
    return ret;
}

int (rdma_create_qp_ex)(struct rdma_cm_id *id, struct ibv_qp_init_attr_ex *attr)
{
    CALL(rdma_create_qp_ex, id);
    int ret = real_rdma_create_qp_ex(id, attr);
    int saved = errno;
    DONE_INT(ret);
    if (attr != NULL) {
        qp_args(&c, id, attr->pd, attr->qp_type, attr->cap.max_send_wr, attr->cap.max_recv_wr, attr->send_cq,
                attr->recv_cq);
    }
    tc_record_call(&c);
    errno = saved;
    return ret;
}

void (rdma_destroy_qp)(struct rdma_cm_id *id)
{
    CALL(rdma_destroy_qp, id);
    c.a[0] = id != NULL && id->qp != NULL ? (int64_t)id->qp->qp_num : -1;
    real_rdma_destroy_qp(id);
    c.t1 = tc_now();
    tc_record_call(&c);
}

int (rdma_init_qp_attr)(struct rdma_cm_id *id, struct ibv_qp_attr *qp_attr, int *qp_attr_mask)
{
    CALL(rdma_init_qp_attr, id);
    int asked = qp_attr != NULL ? (int)qp_attr->qp_state : -1;
    int ret = real_rdma_init_qp_attr(id, qp_attr, qp_attr_mask);
    int saved = errno;
    DONE_INT(ret);
    c.a[0] = asked;
    c.a[1] = ret == 0 && qp_attr_mask != NULL ? *qp_attr_mask : 0;
    tc_record_call(&c);
    errno = saved;
    return ret;
}

int (rdma_create_srq)(struct rdma_cm_id *id, struct ibv_pd *pd, struct ibv_srq_init_attr *attr)
{
    CALL(rdma_create_srq, id);
    int ret = real_rdma_create_srq(id, pd, attr);
    int saved = errno;
    DONE_INT(ret);
    c.a[0] = P(pd);
    c.a[1] = P(ret == 0 && id != NULL ? id->srq : NULL);
    c.a[2] = attr != NULL ? attr->attr.max_wr : 0;
    tc_record_call(&c);
    errno = saved;
    return ret;
}

int (rdma_create_srq_ex)(struct rdma_cm_id *id, struct ibv_srq_init_attr_ex *attr)
{
    CALL(rdma_create_srq_ex, id);
    int ret = real_rdma_create_srq_ex(id, attr);
    int saved = errno;
    DONE_INT(ret);
    c.a[0] = P(attr != NULL ? attr->pd : NULL);
    c.a[1] = P(ret == 0 && id != NULL ? id->srq : NULL);
    c.a[2] = attr != NULL ? attr->attr.max_wr : 0;
    tc_record_call(&c);
    errno = saved;
    return ret;
}

void (rdma_destroy_srq)(struct rdma_cm_id *id)
{
    CALL(rdma_destroy_srq, id);
    c.a[1] = P(id != NULL ? id->srq : NULL);
    real_rdma_destroy_srq(id);
    c.t1 = tc_now();
    tc_record_call(&c);
}

/* The channel whose last read on this thread was empty (EAGAIN): a program polling a non-blocking
 * channel (libfabric's ofi_rxm does, thousands of times a second) would fill its sub-ring with
 * them, so, as consecutive empty CQ polls, a run of empty reads is one record (its first). */
static __thread struct rdma_event_channel *empty_channel;

int (rdma_get_cm_event)(struct rdma_event_channel *channel, struct rdma_cm_event **event)
{
    int64_t t0 = tc_now();
    int ret = real_rdma_get_cm_event(channel, event);
    int saved = errno;
    int64_t t1 = tc_now();
    bool empty = ret != 0 && saved == EAGAIN;
    bool repeat = empty && empty_channel == channel;
    empty_channel = empty ? channel : NULL;
    if (repeat) {
        errno = saved;
        return ret;
    }
    if (ret == 0 && event != NULL && *event != NULL) {
        tc_record_event(*event, t0, t1);
    } else {
        struct tc_call c = {.func = CMF_rdma_get_cm_event, .t0 = t0, .t1 = t1, .ret = ret, .err = tc_err(ret, saved)};
        c.a[0] = P(channel);
        c.src_text = "";
        c.dst_text = "";
        tc_record_call(&c);
    }
    errno = saved;
    return ret;
}

int (rdma_ack_cm_event)(struct rdma_cm_event *event)
{
    CALL(rdma_ack_cm_event, event != NULL ? event->id : NULL);
    c.a[0] = event != NULL ? (int64_t)event->event : -1;
    c.a[1] = event != NULL ? event->status : 0;
    int ret = real_rdma_ack_cm_event(event);
    int saved = errno;
    DONE_INT(ret);
    c.src_text = "";
    c.dst_text = "";
    tc_record_call(&c);
    errno = saved;
    return ret;
}
