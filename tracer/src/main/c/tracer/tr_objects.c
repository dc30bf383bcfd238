/* PDs, MRs, completion channels, CQs and their events, SRQs, AHs, async events. */
#include <stdlib.h>

#include "tr_loc.h"

#define ARGS(...) ((const int64_t[]){__VA_ARGS__})
#define NARGS(...) ((int)(sizeof(ARGS(__VA_ARGS__)) / sizeof(int64_t)))
/* Records kind with scalar args; handle = the object; ret/err as given. */
#define RECORD(kind, handle, ret, err, ...) \
    tr_args(kind, t0, t1 - t0, handle, ret, err, NARGS(__VA_ARGS__), ARGS(__VA_ARGS__))
#define P(x) ((int64_t)(uintptr_t)(x))

struct ibv_pd *(ibv_alloc_pd)(struct ibv_context *ctx)
{
    int64_t t0 = tr_now();
    struct ibv_pd *pd = real_ibv_alloc_pd(ctx);
    int64_t t1 = tr_now();
    int err = pd == NULL ? errno : 0;
    RECORD(TR_IBV_ALLOC_PD, pd, pd != NULL ? 0 : -1, err, P(ctx));
    errno = pd == NULL ? err : errno;
    return pd;
}

int (ibv_dealloc_pd)(struct ibv_pd *pd)
{
    int64_t t0 = tr_now();
    int ret = real_ibv_dealloc_pd(pd);
    int64_t t1 = tr_now();
    int err = errno;
    tr_args(TR_IBV_DEALLOC_PD, t0, t1 - t0, pd, ret, tr_err_of_ret(ret, err), 0, NULL);
    errno = err;
    return ret;
}

static void mr_record(int64_t t0, int64_t t1, struct ibv_mr *mr, int err, struct ibv_pd *pd, void *addr,
                      size_t length, uint64_t iova, unsigned access, int variant)
{
    RECORD(TR_IBV_REG_MR, mr, mr != NULL ? 0 : -1, err, P(pd), P(addr), (int64_t)length, access,
           mr != NULL ? mr->lkey : 0, mr != NULL ? mr->rkey : 0, (int64_t)iova, variant);
}

struct ibv_mr *(ibv_reg_mr)(struct ibv_pd *pd, void *addr, size_t length, int access)
{
    int64_t t0 = tr_now();
    struct ibv_mr *mr = real_ibv_reg_mr(pd, addr, length, access);
    int64_t t1 = tr_now();
    int err = mr == NULL ? errno : 0;
    mr_record(t0, t1, mr, err, pd, addr, length, (uintptr_t)addr, (unsigned)access, 0);
    errno = mr == NULL ? err : errno;
    return mr;
}

struct ibv_mr *(ibv_reg_mr_iova)(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova, int access)
{
    int64_t t0 = tr_now();
    struct ibv_mr *mr = real_ibv_reg_mr_iova(pd, addr, length, iova, access);
    int64_t t1 = tr_now();
    int err = mr == NULL ? errno : 0;
    mr_record(t0, t1, mr, err, pd, addr, length, iova, (unsigned)access, 1);
    errno = mr == NULL ? err : errno;
    return mr;
}

struct ibv_mr *(ibv_reg_mr_iova2)(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova,
                                  unsigned int access)
{
    int64_t t0 = tr_now();
    struct ibv_mr *mr = real_ibv_reg_mr_iova2(pd, addr, length, iova, access);
    int64_t t1 = tr_now();
    int err = mr == NULL ? errno : 0;
    mr_record(t0, t1, mr, err, pd, addr, length, iova, access, 2);
    errno = mr == NULL ? err : errno;
    return mr;
}

int (ibv_rereg_mr)(struct ibv_mr *mr, int flags, struct ibv_pd *pd, void *addr, size_t length, int access)
{
    int64_t t0 = tr_now();
    int ret = real_ibv_rereg_mr(mr, flags, pd, addr, length, access);
    int64_t t1 = tr_now();
    int err = errno;
    RECORD(TR_IBV_REREG_MR, mr, ret, ret != 0 ? (err != 0 ? err : EINVAL) : 0, P(pd), P(addr), (int64_t)length,
           access, ret == 0 ? mr->lkey : 0, ret == 0 ? mr->rkey : 0, 0, flags);
    errno = err;
    return ret;
}

int (ibv_dereg_mr)(struct ibv_mr *mr)
{
    int64_t t0 = tr_now();
    int ret = real_ibv_dereg_mr(mr);
    int64_t t1 = tr_now();
    int err = errno;
    tr_args(TR_IBV_DEREG_MR, t0, t1 - t0, mr, ret, tr_err_of_ret(ret, err), 0, NULL);
    errno = err;
    return ret;
}

struct ibv_comp_channel *(ibv_create_comp_channel)(struct ibv_context *ctx)
{
    int64_t t0 = tr_now();
    struct ibv_comp_channel *ch = real_ibv_create_comp_channel(ctx);
    int64_t t1 = tr_now();
    int err = ch == NULL ? errno : 0;
    RECORD(TR_IBV_CREATE_COMP_CHANNEL, ch, ch != NULL ? 0 : -1, err, P(ctx), ch != NULL ? ch->fd : -1);
    errno = ch == NULL ? err : errno;
    return ch;
}

int (ibv_destroy_comp_channel)(struct ibv_comp_channel *ch)
{
    int64_t t0 = tr_now();
    int ret = real_ibv_destroy_comp_channel(ch);
    int64_t t1 = tr_now();
    int err = errno;
    tr_args(TR_IBV_DESTROY_COMP_CHANNEL, t0, t1 - t0, ch, ret, tr_err_of_ret(ret, err), 0, NULL);
    errno = err;
    return ret;
}

struct ibv_cq *(ibv_create_cq)(struct ibv_context *ctx, int cqe, void *cq_context, struct ibv_comp_channel *ch,
                               int comp_vector)
{
    int64_t t0 = tr_now();
    struct ibv_cq *cq = real_ibv_create_cq(ctx, cqe, cq_context, ch, comp_vector);
    int64_t t1 = tr_now();
    int err = cq == NULL ? errno : 0;
    RECORD(TR_IBV_CREATE_CQ, cq, cq != NULL ? 0 : -1, err, P(ctx), cqe, P(ch), comp_vector, cq != NULL ? cq->cqe : 0);
    errno = cq == NULL ? err : errno;
    return cq;
}

int (ibv_resize_cq)(struct ibv_cq *cq, int cqe)
{
    int64_t t0 = tr_now();
    int ret = real_ibv_resize_cq(cq, cqe);
    int64_t t1 = tr_now();
    int err = errno;
    RECORD(TR_IBV_RESIZE_CQ, cq, ret, tr_err_of_ret(ret, err), cqe, ret == 0 ? cq->cqe : 0);
    errno = err;
    return ret;
}

int (ibv_destroy_cq)(struct ibv_cq *cq)
{
    tr_poll_flush();
    int64_t t0 = tr_now();
    int ret = real_ibv_destroy_cq(cq);
    int64_t t1 = tr_now();
    int err = errno;
    tr_args(TR_IBV_DESTROY_CQ, t0, t1 - t0, cq, ret, tr_err_of_ret(ret, err), 0, NULL);
    errno = err;
    return ret;
}

int (ibv_get_cq_event)(struct ibv_comp_channel *ch, struct ibv_cq **cq, void **cq_context)
{
    tr_poll_flush();
    int64_t t0 = tr_now();
    int ret = real_ibv_get_cq_event(ch, cq, cq_context);
    int64_t t1 = tr_now();
    int err = errno;
    RECORD(TR_IBV_GET_CQ_EVENT, ch, ret, ret != 0 ? (err != 0 ? err : EIO) : 0, ret == 0 && cq ? P(*cq) : 0);
    errno = err;
    return ret;
}

void (ibv_ack_cq_events)(struct ibv_cq *cq, unsigned int nevents)
{
    int64_t t0 = tr_now();
    real_ibv_ack_cq_events(cq, nevents);
    int64_t t1 = tr_now();
    RECORD(TR_IBV_ACK_CQ_EVENTS, cq, 0, 0, nevents);
}

struct ibv_srq *(ibv_create_srq)(struct ibv_pd *pd, struct ibv_srq_init_attr *init)
{
    uint32_t want_wr = init != NULL ? init->attr.max_wr : 0;
    uint32_t want_sge = init != NULL ? init->attr.max_sge : 0;
    int64_t t0 = tr_now();
    struct ibv_srq *srq = real_ibv_create_srq(pd, init);
    int64_t t1 = tr_now();
    int err = srq == NULL ? errno : 0;
    RECORD(TR_IBV_CREATE_SRQ, srq, srq != NULL ? 0 : -1, err, P(pd), want_wr, want_sge,
           init != NULL ? init->attr.srq_limit : 0, srq != NULL ? init->attr.max_wr : 0,
           srq != NULL ? init->attr.max_sge : 0);
    errno = srq == NULL ? err : errno;
    return srq;
}

int (ibv_modify_srq)(struct ibv_srq *srq, struct ibv_srq_attr *attr, int mask)
{
    int64_t t0 = tr_now();
    int ret = real_ibv_modify_srq(srq, attr, mask);
    int64_t t1 = tr_now();
    int err = errno;
    RECORD(TR_IBV_MODIFY_SRQ, srq, ret, tr_err_of_ret(ret, err), mask, attr ? attr->max_wr : 0,
           attr ? attr->max_sge : 0, attr ? attr->srq_limit : 0);
    errno = err;
    return ret;
}

int (ibv_query_srq)(struct ibv_srq *srq, struct ibv_srq_attr *attr)
{
    int64_t t0 = tr_now();
    int ret = real_ibv_query_srq(srq, attr);
    int64_t t1 = tr_now();
    int err = errno;
    int ok = ret == 0 && attr != NULL;
    RECORD(TR_IBV_QUERY_SRQ, srq, ret, tr_err_of_ret(ret, err), ok ? attr->max_wr : 0, ok ? attr->max_sge : 0,
           ok ? attr->srq_limit : 0);
    errno = err;
    return ret;
}

int (ibv_destroy_srq)(struct ibv_srq *srq)
{
    int64_t t0 = tr_now();
    int ret = real_ibv_destroy_srq(srq);
    int64_t t1 = tr_now();
    int err = errno;
    tr_args(TR_IBV_DESTROY_SRQ, t0, t1 - t0, srq, ret, tr_err_of_ret(ret, err), 0, NULL);
    errno = err;
    return ret;
}

struct ibv_ah *(ibv_create_ah)(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
    int64_t t0 = tr_now();
    struct ibv_ah *ah = real_ibv_create_ah(pd, attr);
    int64_t t1 = tr_now();
    int err = ah == NULL ? errno : 0;
    uint32_t n = TR_PAYLOAD + AHP_NSLOTS + AH_NSLOTS;
    int64_t *r = tr_reserve(n);
    if (r != NULL) {
        tr_head(r, TR_IBV_CREATE_AH, 0, n, t0, ah, ah != NULL ? 0 : -1, err, t1 - t0);
        memset(r + TR_PAYLOAD, 0, (AHP_NSLOTS + AH_NSLOTS) * 8);
        r[TR_PAYLOAD + AHP_PD] = P(pd);
        if (attr != NULL) {
            ah_attr_to_slots(attr, r + TR_PAYLOAD + AHP_NSLOTS);
        }
        tr_commit(r, n);
    }
    errno = ah == NULL ? err : errno;
    return ah;
}

int (ibv_destroy_ah)(struct ibv_ah *ah)
{
    int64_t t0 = tr_now();
    int ret = real_ibv_destroy_ah(ah);
    int64_t t1 = tr_now();
    int err = errno;
    tr_args(TR_IBV_DESTROY_AH, t0, t1 - t0, ah, ret, tr_err_of_ret(ret, err), 0, NULL);
    errno = err;
    return ret;
}

int (ibv_get_async_event)(struct ibv_context *ctx, struct ibv_async_event *event)
{
    int64_t t0 = tr_now();
    int ret = real_ibv_get_async_event(ctx, event);
    int64_t t1 = tr_now();
    int err = errno;
    uint32_t n = TR_PAYLOAD + AE_NSLOTS;
    int64_t *r = tr_reserve(n);
    if (r != NULL) {
        /* an event is stamped when it was returned, not when the program began to wait */
        tr_head(r, TR_IBV_GET_ASYNC_EVENT, 0, n, t1, ctx, ret, ret != 0 ? (err != 0 ? err : EIO) : 0, t1 - t0);
        int64_t *a = r + TR_PAYLOAD;
        memset(a, 0, AE_NSLOTS * 8);
        if (ret == 0 && event != NULL) {
            a[AE_EVENT_TYPE] = event->event_type;
            a[AE_QP_NUM] = -1;
            switch (event->event_type) {
            case IBV_EVENT_QP_FATAL: case IBV_EVENT_QP_REQ_ERR: case IBV_EVENT_QP_ACCESS_ERR:
            case IBV_EVENT_COMM_EST: case IBV_EVENT_SQ_DRAINED: case IBV_EVENT_PATH_MIG:
            case IBV_EVENT_PATH_MIG_ERR: case IBV_EVENT_QP_LAST_WQE_REACHED:
                a[AE_ELEMENT] = P(event->element.qp);
                a[AE_QP_NUM] = event->element.qp != NULL ? (int64_t)event->element.qp->qp_num : -1;
                break;
            case IBV_EVENT_CQ_ERR:
                a[AE_ELEMENT] = P(event->element.cq);
                break;
            case IBV_EVENT_SRQ_ERR: case IBV_EVENT_SRQ_LIMIT_REACHED:
                a[AE_ELEMENT] = P(event->element.srq);
                break;
            case IBV_EVENT_WQ_FATAL:
                a[AE_ELEMENT] = P(event->element.wq);
                break;
            default:
                a[AE_ELEMENT] = event->element.port_num;
                a[AE_PORT_NUM] = event->element.port_num;
                break;
            }
        }
        tr_commit(r, n);
    }
    errno = err;
    return ret;
}

void (ibv_ack_async_event)(struct ibv_async_event *event)
{
    int64_t t0 = tr_now();
    int type = event != NULL ? (int)event->event_type : -1;
    int64_t element = event != NULL ? P(event->element.qp) : 0;
    real_ibv_ack_async_event(event);
    int64_t t1 = tr_now();
    RECORD(TR_IBV_ACK_ASYNC_EVENT, NULL, 0, 0, type, element);
}

/* Bind each wrapper to its default version where an older one also exists (see tr_syms.h). */
TR_SYMVER(ibv_ack_async_event)
TR_SYMVER(ibv_ack_cq_events)
TR_SYMVER(ibv_alloc_pd)
TR_SYMVER(ibv_create_ah)
TR_SYMVER(ibv_create_comp_channel)
TR_SYMVER(ibv_create_cq)
TR_SYMVER(ibv_create_srq)
TR_SYMVER(ibv_dealloc_pd)
TR_SYMVER(ibv_dereg_mr)
TR_SYMVER(ibv_destroy_ah)
TR_SYMVER(ibv_destroy_comp_channel)
TR_SYMVER(ibv_destroy_cq)
TR_SYMVER(ibv_destroy_srq)
TR_SYMVER(ibv_get_async_event)
TR_SYMVER(ibv_get_cq_event)
TR_SYMVER(ibv_modify_srq)
TR_SYMVER(ibv_query_srq)
TR_SYMVER(ibv_reg_mr)
TR_SYMVER(ibv_reg_mr_iova)
TR_SYMVER(ibv_reg_mr_iova2)
TR_SYMVER(ibv_rereg_mr)
TR_SYMVER(ibv_resize_cq)
