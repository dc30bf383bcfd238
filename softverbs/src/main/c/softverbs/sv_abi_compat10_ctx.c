/* IBVERBS_1.0 entry points for devices, contexts, queries, PDs, MRs, CQs and events: each
 * wraps the current verb, keeping the 1.0 object layouts of sv_abi_compat10.h. A 1.0 device
 * list is one slot longer than it looks: slot -1 keeps the current list so it can be freed. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "sv_abi_compat10.h"

#define SV_CHECK_OR(cond, ret) do { if (!(cond)) { errno = EINVAL; return ret; } } while (0)

/* ---- devices ---- */

struct ibv_device_1_0 **sv_compat10_get_device_list(int *num);
SV_COMPAT10(sv_compat10_get_device_list, ibv_get_device_list);
struct ibv_device_1_0 **sv_compat10_get_device_list(int *num)
{
    int n = 0;
    struct ibv_device **real = ibv_get_device_list(&n);
    if (!real)
        return NULL;
    struct ibv_device_1_0 **l = calloc((size_t)n + 2, sizeof *l);
    if (!l)
        goto fail;
    l[0] = (struct ibv_device_1_0 *)(void *)real;
    for (int i = 0; i < n; i++) {
        l[i + 1] = calloc(1, sizeof **l);
        if (!l[i + 1])
            goto fail;
        l[i + 1]->real_device = real[i];
    }
    if (num)
        *num = n;
    return l + 1;
fail:
    if (l) {
        for (int i = 1; i <= n; i++)
            free(l[i]);
        free(l);
    }
    ibv_free_device_list(real);
    errno = ENOMEM;
    return NULL;
}

void sv_compat10_free_device_list(struct ibv_device_1_0 **list);
SV_COMPAT10(sv_compat10_free_device_list, ibv_free_device_list);
void sv_compat10_free_device_list(struct ibv_device_1_0 **list)
{
    if (!list)
        return;
    for (struct ibv_device_1_0 **l = list; *l; l++)
        free(*l);
    ibv_free_device_list((struct ibv_device **)(void *)list[-1]);
    free(list - 1);
}

const char *sv_compat10_get_device_name(struct ibv_device_1_0 *device);
SV_COMPAT10(sv_compat10_get_device_name, ibv_get_device_name);
const char *sv_compat10_get_device_name(struct ibv_device_1_0 *device)
{
    SV_CHECK_OR(device, NULL);
    return ibv_get_device_name(device->real_device);
}

__be64 sv_compat10_get_device_guid(struct ibv_device_1_0 *device);
SV_COMPAT10(sv_compat10_get_device_guid, ibv_get_device_guid);
__be64 sv_compat10_get_device_guid(struct ibv_device_1_0 *device)
{
    SV_CHECK_OR(device, 0);
    return ibv_get_device_guid(device->real_device);
}

/* ---- contexts: the 1.0 op table's data path goes to the real context's ops ---- */

static int poll_cq_1_0(struct ibv_cq_1_0 *cq, int num_entries, struct ibv_wc *wc)
{
    return cq->context->real_context->ops.poll_cq(cq->real_cq, num_entries, wc);
}

static int req_notify_cq_1_0(struct ibv_cq_1_0 *cq, int solicited_only)
{
    return cq->context->real_context->ops.req_notify_cq(cq->real_cq, solicited_only);
}

struct ibv_context_1_0 *sv_compat10_open_device(struct ibv_device_1_0 *device);
SV_COMPAT10(sv_compat10_open_device, ibv_open_device);
struct ibv_context_1_0 *sv_compat10_open_device(struct ibv_device_1_0 *device)
{
    SV_CHECK_OR(device, NULL);
    struct ibv_context_1_0 *ctx = calloc(1, sizeof *ctx);
    if (!ctx) {
        errno = ENOMEM;
        return NULL;
    }
    struct ibv_context *real = ibv_open_device(device->real_device);
    if (!real) {
        free(ctx);
        return NULL;
    }
    ctx->device = device;
    ctx->real_context = real;
    ctx->cmd_fd = real->cmd_fd;
    ctx->async_fd = real->async_fd;
    ctx->num_comp_vectors = real->num_comp_vectors;
    ctx->ops.poll_cq = poll_cq_1_0;
    ctx->ops.req_notify_cq = req_notify_cq_1_0;
    ctx->ops.post_send = sv_compat10_post_send;
    ctx->ops.post_recv = sv_compat10_post_recv;
    ctx->ops.post_srq_recv = sv_compat10_post_srq_recv;
    return ctx;
}

int sv_compat10_close_device(struct ibv_context_1_0 *context);
SV_COMPAT10(sv_compat10_close_device, ibv_close_device);
int sv_compat10_close_device(struct ibv_context_1_0 *context)
{
    SV_CHECK_OR(context, EINVAL);
    int rc = ibv_close_device(context->real_context);
    if (rc)
        return rc;
    free(context);
    return 0;
}

/* ---- async events: the element is the 1.0 object (the real object's user context) ---- */

static bool event_is_qp(enum ibv_event_type t)
{
    return t == IBV_EVENT_QP_FATAL || t == IBV_EVENT_QP_REQ_ERR || t == IBV_EVENT_QP_ACCESS_ERR ||
           t == IBV_EVENT_COMM_EST || t == IBV_EVENT_SQ_DRAINED || t == IBV_EVENT_PATH_MIG ||
           t == IBV_EVENT_PATH_MIG_ERR || t == IBV_EVENT_QP_LAST_WQE_REACHED;
}

static bool event_is_srq(enum ibv_event_type t)
{
    return t == IBV_EVENT_SRQ_ERR || t == IBV_EVENT_SRQ_LIMIT_REACHED;
}

int sv_compat10_get_async_event(struct ibv_context_1_0 *context, struct ibv_async_event *event);
SV_COMPAT10(sv_compat10_get_async_event, ibv_get_async_event);
int sv_compat10_get_async_event(struct ibv_context_1_0 *context, struct ibv_async_event *event)
{
    SV_CHECK_OR(context && event, -1);
    int rc = ibv_get_async_event(context->real_context, event);
    if (rc)
        return rc;
    if (event->event_type == IBV_EVENT_CQ_ERR)
        event->element.cq = event->element.cq->cq_context;
    else if (event_is_qp(event->event_type))
        event->element.qp = event->element.qp->qp_context;
    else if (event_is_srq(event->event_type))
        event->element.srq = event->element.srq->srq_context;
    return 0;
}

void sv_compat10_ack_async_event(struct ibv_async_event *event);
SV_COMPAT10(sv_compat10_ack_async_event, ibv_ack_async_event);
void sv_compat10_ack_async_event(struct ibv_async_event *event)
{
    if (!event)
        return;
    struct ibv_async_event real = *event;
    if (event->event_type == IBV_EVENT_CQ_ERR)
        real.element.cq = ((struct ibv_cq_1_0 *)(void *)event->element.cq)->real_cq;
    else if (event_is_qp(event->event_type))
        real.element.qp = ((struct ibv_qp_1_0 *)(void *)event->element.qp)->real_qp;
    else if (event_is_srq(event->event_type))
        real.element.srq = ((struct ibv_srq_1_0 *)(void *)event->element.srq)->real_srq;
    ibv_ack_async_event(&real);
}

/* ---- queries ---- */

int sv_compat10_query_device(struct ibv_context_1_0 *context, struct ibv_device_attr *attr);
SV_COMPAT10(sv_compat10_query_device, ibv_query_device);
int sv_compat10_query_device(struct ibv_context_1_0 *context, struct ibv_device_attr *attr)
{
    SV_CHECK_OR(context, EINVAL);
    return ibv_query_device(context->real_context, attr);
}

int sv_compat10_query_port(struct ibv_context_1_0 *context, uint8_t port_num, struct ibv_port_attr *attr);
SV_COMPAT10(sv_compat10_query_port, ibv_query_port);
int sv_compat10_query_port(struct ibv_context_1_0 *context, uint8_t port_num, struct ibv_port_attr *attr)
{
    SV_CHECK_OR(context && attr, EINVAL);
    return ibv_query_port(context->real_context, port_num, attr);
}

int sv_compat10_query_gid(struct ibv_context_1_0 *context, uint8_t port_num, int index, union ibv_gid *gid);
SV_COMPAT10(sv_compat10_query_gid, ibv_query_gid);
int sv_compat10_query_gid(struct ibv_context_1_0 *context, uint8_t port_num, int index, union ibv_gid *gid)
{
    SV_CHECK_OR(context, -1);
    return ibv_query_gid(context->real_context, port_num, index, gid);
}

int sv_compat10_query_pkey(struct ibv_context_1_0 *context, uint8_t port_num, int index, __be16 *pkey);
SV_COMPAT10(sv_compat10_query_pkey, ibv_query_pkey);
int sv_compat10_query_pkey(struct ibv_context_1_0 *context, uint8_t port_num, int index, __be16 *pkey)
{
    SV_CHECK_OR(context, -1);
    return ibv_query_pkey(context->real_context, port_num, index, pkey);
}

/* ---- PDs and MRs ---- */

struct ibv_pd_1_0 *sv_compat10_alloc_pd(struct ibv_context_1_0 *context);
SV_COMPAT10(sv_compat10_alloc_pd, ibv_alloc_pd);
struct ibv_pd_1_0 *sv_compat10_alloc_pd(struct ibv_context_1_0 *context)
{
    SV_CHECK_OR(context, NULL);
    struct ibv_pd_1_0 *pd = calloc(1, sizeof *pd);
    if (!pd) {
        errno = ENOMEM;
        return NULL;
    }
    pd->real_pd = ibv_alloc_pd(context->real_context);
    if (!pd->real_pd) {
        free(pd);
        return NULL;
    }
    pd->context = context;
    pd->handle = pd->real_pd->handle;
    return pd;
}

int sv_compat10_dealloc_pd(struct ibv_pd_1_0 *pd);
SV_COMPAT10(sv_compat10_dealloc_pd, ibv_dealloc_pd);
int sv_compat10_dealloc_pd(struct ibv_pd_1_0 *pd)
{
    SV_CHECK_OR(pd, EINVAL);
    int rc = ibv_dealloc_pd(pd->real_pd);
    if (rc)
        return rc;
    free(pd);
    return 0;
}

struct ibv_mr_1_0 *sv_compat10_reg_mr(struct ibv_pd_1_0 *pd, void *addr, size_t length, int access);
SV_COMPAT10(sv_compat10_reg_mr, ibv_reg_mr);
struct ibv_mr_1_0 *sv_compat10_reg_mr(struct ibv_pd_1_0 *pd, void *addr, size_t length, int access)
{
    SV_CHECK_OR(pd, NULL);
    struct ibv_mr_1_0 *mr = calloc(1, sizeof *mr);
    if (!mr) {
        errno = ENOMEM;
        return NULL;
    }
    mr->real_mr = ibv_reg_mr(pd->real_pd, addr, length, access);
    if (!mr->real_mr) {
        free(mr);
        return NULL;
    }
    mr->context = pd->context;
    mr->pd = pd;
    mr->handle = mr->real_mr->handle;
    mr->lkey = mr->real_mr->lkey;
    mr->rkey = mr->real_mr->rkey;
    return mr;
}

int sv_compat10_dereg_mr(struct ibv_mr_1_0 *mr);
SV_COMPAT10(sv_compat10_dereg_mr, ibv_dereg_mr);
int sv_compat10_dereg_mr(struct ibv_mr_1_0 *mr)
{
    SV_CHECK_OR(mr, EINVAL);
    int rc = ibv_dereg_mr(mr->real_mr);
    if (rc)
        return rc;
    free(mr);
    return 0;
}

/* ---- CQs: the real CQ's cq_context points back at its 1.0 wrapper ---- */

struct ibv_cq_1_0 *sv_compat10_create_cq(struct ibv_context_1_0 *context, int cqe, void *cq_context,
                                         struct ibv_comp_channel *channel, int comp_vector);
SV_COMPAT10(sv_compat10_create_cq, ibv_create_cq);
struct ibv_cq_1_0 *sv_compat10_create_cq(struct ibv_context_1_0 *context, int cqe, void *cq_context,
                                         struct ibv_comp_channel *channel, int comp_vector)
{
    SV_CHECK_OR(context, NULL);
    struct ibv_cq_1_0 *cq = calloc(1, sizeof *cq);
    if (!cq) {
        errno = ENOMEM;
        return NULL;
    }
    cq->real_cq = ibv_create_cq(context->real_context, cqe, cq_context, channel, comp_vector);
    if (!cq->real_cq) {
        free(cq);
        return NULL;
    }
    cq->context = context;
    cq->cq_context = cq_context;
    cq->cqe = cq->real_cq->cqe;
    cq->handle = cq->real_cq->handle;
    cq->real_cq->cq_context = cq;
    return cq;
}

int sv_compat10_resize_cq(struct ibv_cq_1_0 *cq, int cqe);
SV_COMPAT10(sv_compat10_resize_cq, ibv_resize_cq);
int sv_compat10_resize_cq(struct ibv_cq_1_0 *cq, int cqe)
{
    SV_CHECK_OR(cq, EINVAL);
    return ibv_resize_cq(cq->real_cq, cqe);
}

int sv_compat10_destroy_cq(struct ibv_cq_1_0 *cq);
SV_COMPAT10(sv_compat10_destroy_cq, ibv_destroy_cq);
int sv_compat10_destroy_cq(struct ibv_cq_1_0 *cq)
{
    SV_CHECK_OR(cq, EINVAL);
    int rc = ibv_destroy_cq(cq->real_cq);
    if (rc)
        return rc;
    free(cq);
    return 0;
}

int sv_compat10_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq_1_0 **cq, void **cq_context);
SV_COMPAT10(sv_compat10_get_cq_event, ibv_get_cq_event);
int sv_compat10_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq_1_0 **cq, void **cq_context)
{
    SV_CHECK_OR(channel && cq && cq_context, -1);
    struct ibv_cq *real;
    void *wrapper;
    int rc = ibv_get_cq_event(channel, &real, &wrapper);
    if (rc)
        return rc;
    *cq = wrapper;
    *cq_context = (*cq)->cq_context;
    return 0;
}

void sv_compat10_ack_cq_events(struct ibv_cq_1_0 *cq, unsigned int nevents);
SV_COMPAT10(sv_compat10_ack_cq_events, ibv_ack_cq_events);
void sv_compat10_ack_cq_events(struct ibv_cq_1_0 *cq, unsigned int nevents)
{
    if (cq)
        ibv_ack_cq_events(cq->real_cq, nevents);
}
