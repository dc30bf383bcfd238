/*
 * The extended context ops of struct verbs_context, reached by verbs.h's inline helpers without an
 * exported symbol: ibv_query_port (when the provider has query_port), ibv_query_device_ex,
 * ibv_create_qp_ex and ibv_create_cq_ex. Swapped at open like the data-path ops; recorded as the
 * plain verbs they extend (IBV_QUERY_PORT, IBV_QUERY_DEVICE, IBV_CREATE_QP with VIA = 1,
 * IBV_CREATE_CQ).
 */
#include <pthread.h>
#include <stdatomic.h>

#include "tr_loc.h"

#define TR_MAX_CONTEXTS 64

struct tr_vops {
    _Atomic(struct ibv_context *) ctx;
    int (*query_port)(struct ibv_context *, uint8_t, struct ibv_port_attr *, size_t);
    int (*query_device_ex)(struct ibv_context *, const struct ibv_query_device_ex_input *,
                           struct ibv_device_attr_ex *, size_t);
    struct ibv_qp *(*create_qp_ex)(struct ibv_context *, struct ibv_qp_init_attr_ex *);
    struct ibv_cq_ex *(*create_cq_ex)(struct ibv_context *, struct ibv_cq_init_attr_ex *);
};

static struct tr_vops vops_table[TR_MAX_CONTEXTS];
static pthread_mutex_t vops_lock = PTHREAD_MUTEX_INITIALIZER;

static const struct tr_vops *vops_of(struct ibv_context *ctx)
{
    for (int i = 0; i < TR_MAX_CONTEXTS; i++) {
        if (atomic_load_explicit(&vops_table[i].ctx, memory_order_acquire) == ctx) {
            return &vops_table[i];
        }
    }
    return NULL;
}

static int tr_query_port_ex(struct ibv_context *ctx, uint8_t port, struct ibv_port_attr *attr, size_t size)
{
    const struct tr_vops *o = vops_of(ctx);
    if (o == NULL) {
        return ENOSYS;
    }
    int64_t t0 = tr_now();
    int ret = o->query_port(ctx, port, attr, size);
    int64_t t1 = tr_now();
    int err = errno;
    struct ibv_port_attr copy;
    memset(&copy, 0, sizeof copy);
    if (ret == 0 && attr != NULL) {
        memcpy(&copy, attr, size < sizeof copy ? size : sizeof copy);
    }
    tr_port_record(TR_IBV_QUERY_PORT, 0, t0, t1 - t0, ctx, port, ret, tr_err_of_ret(ret, err), &copy);
    errno = err;
    return ret;
}

static int tr_query_device_ex(struct ibv_context *ctx, const struct ibv_query_device_ex_input *input,
                              struct ibv_device_attr_ex *attr, size_t size)
{
    const struct tr_vops *o = vops_of(ctx);
    if (o == NULL) {
        return ENOSYS;
    }
    int64_t t0 = tr_now();
    int ret = o->query_device_ex(ctx, input, attr, size);
    int64_t t1 = tr_now();
    int err = errno;
    uint32_t n = TR_PAYLOAD + TX_NSLOTS + DA_NSLOTS;
    int64_t *r = tr_reserve(n);
    if (r != NULL) {
        tr_head(r, TR_IBV_QUERY_DEVICE, 0, n, t0, ctx, ret, tr_err_of_ret(ret, err), t1 - t0);
        memset(r + TR_PAYLOAD, 0, (TX_NSLOTS + DA_NSLOTS) * 8);
        if (ret == 0 && attr != NULL) {
            char fw[sizeof(attr->orig_attr.fw_ver) + 1];
            memcpy(fw, attr->orig_attr.fw_ver, sizeof attr->orig_attr.fw_ver);
            fw[sizeof attr->orig_attr.fw_ver] = '\0';
            tr_text(r + TR_PAYLOAD, fw);
            device_attr_to_slots(&attr->orig_attr, r + TR_PAYLOAD + TX_NSLOTS);
        }
        tr_commit(r, n);
    }
    errno = err;
    return ret;
}

static void init_ex_to_slots(const struct ibv_qp_init_attr_ex *init, int64_t *o)
{
    struct ibv_qp_init_attr common = {
        .send_cq = init->send_cq, .recv_cq = init->recv_cq, .srq = init->srq, .cap = init->cap,
        .qp_type = init->qp_type, .sq_sig_all = init->sq_sig_all,
    };
    qp_init_to_slots(&common, o);
}

static struct ibv_qp *tr_create_qp_ex(struct ibv_context *ctx, struct ibv_qp_init_attr_ex *init)
{
    const struct tr_vops *o = vops_of(ctx);
    if (o == NULL) {
        errno = ENOSYS;
        return NULL;
    }
    struct ibv_qp_init_attr_ex asked;
    if (init != NULL) {
        asked = *init;
    } else {
        memset(&asked, 0, sizeof asked);
    }
    int64_t t0 = tr_now();
    struct ibv_qp *qp = o->create_qp_ex(ctx, init);
    int64_t t1 = tr_now();
    int err = qp == NULL ? errno : 0;
    if (qp != NULL && init != NULL && (init->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS)) {
        tr_qpx_attach(qp);
    }
    uint32_t n = TR_PAYLOAD + CQP_NSLOTS + 2 * QI_NSLOTS;
    int64_t *r = tr_reserve(n);
    if (r != NULL) {
        tr_head(r, TR_IBV_CREATE_QP, 0, n, t0, qp, qp != NULL ? 0 : -1, err, t1 - t0);
        int64_t *p = r + TR_PAYLOAD;
        memset(p, 0, (CQP_NSLOTS + 2 * QI_NSLOTS) * 8);
        p[CQP_PD] = (asked.comp_mask & IBV_QP_INIT_ATTR_PD) ? (int64_t)(uintptr_t)asked.pd : 0;
        p[CQP_CONTEXT] = (int64_t)(uintptr_t)ctx;
        p[CQP_VIA] = 1;
        init_ex_to_slots(&asked, p + CQP_NSLOTS);
        if (qp != NULL && init != NULL) {
            init_ex_to_slots(init, p + CQP_NSLOTS + QI_NSLOTS);
            p[CQP_NSLOTS + QI_NSLOTS + QI_QP_NUM] = qp->qp_num;
        }
        tr_commit(r, n);
    }
    errno = qp == NULL ? err : errno;
    return qp;
}

static struct ibv_cq_ex *tr_create_cq_ex(struct ibv_context *ctx, struct ibv_cq_init_attr_ex *init)
{
    const struct tr_vops *o = vops_of(ctx);
    if (o == NULL) {
        errno = ENOSYS;
        return NULL;
    }
    int64_t t0 = tr_now();
    struct ibv_cq_ex *cq = o->create_cq_ex(ctx, init);
    int64_t t1 = tr_now();
    int err = cq == NULL ? errno : 0;
    if (cq != NULL) {
        tr_cqx_attach(cq, init != NULL ? init->wc_flags : 0);
    }
    int64_t args[6] = {(int64_t)(uintptr_t)ctx, init != NULL ? init->cqe : 0,
                       init != NULL ? (int64_t)(uintptr_t)init->channel : 0, init != NULL ? init->comp_vector : 0,
                       cq != NULL ? cq->cqe : 0, init != NULL ? (int64_t)init->wc_flags : 0};
    tr_args(TR_IBV_CREATE_CQ, t0, t1 - t0, cq, cq != NULL ? 0 : -1, err, 6, args);
    errno = cq == NULL ? err : errno;
    return cq;
}

void tr_vops_attach(struct ibv_context *ctx)
{
    struct verbs_context *v = verbs_get_ctx(ctx);
    if (v == NULL) {
        return;
    }
    pthread_mutex_lock(&vops_lock);
    for (int i = 0; i < TR_MAX_CONTEXTS; i++) {
        struct tr_vops *o = &vops_table[i];
        if (atomic_load(&o->ctx) != NULL) {
            continue;
        }
        /* an op is swapped only when the context's size says the provider has the field */
        o->query_port = verbs_get_ctx_op(ctx, query_port) != NULL ? v->query_port : NULL;
        o->query_device_ex = verbs_get_ctx_op(ctx, query_device_ex) != NULL ? v->query_device_ex : NULL;
        o->create_qp_ex = verbs_get_ctx_op(ctx, create_qp_ex) != NULL ? v->create_qp_ex : NULL;
        o->create_cq_ex = verbs_get_ctx_op(ctx, create_cq_ex) != NULL ? v->create_cq_ex : NULL;
        atomic_store_explicit(&o->ctx, ctx, memory_order_release);
        if (o->query_port != NULL) {
            v->query_port = tr_query_port_ex;
        }
        if (o->query_device_ex != NULL) {
            v->query_device_ex = tr_query_device_ex;
        }
        if (o->create_qp_ex != NULL) {
            v->create_qp_ex = tr_create_qp_ex;
        }
        if (o->create_cq_ex != NULL) {
            v->create_cq_ex = tr_create_cq_ex;
        }
        break;
    }
    pthread_mutex_unlock(&vops_lock);
}

void tr_vops_detach(struct ibv_context *ctx)
{
    pthread_mutex_lock(&vops_lock);
    for (int i = 0; i < TR_MAX_CONTEXTS; i++) {
        if (atomic_load(&vops_table[i].ctx) == ctx) {
            atomic_store(&vops_table[i].ctx, NULL);
        }
    }
    pthread_mutex_unlock(&vops_lock);
}
