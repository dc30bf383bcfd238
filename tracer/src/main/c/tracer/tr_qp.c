/* Queue pairs: create, modify (followed by the tracer's own query), query, destroy, qp_to_qp_ex. */
#include "tr_loc.h"

struct ibv_qp *(ibv_create_qp)(struct ibv_pd *pd, struct ibv_qp_init_attr *init)
{
    struct ibv_qp_init_attr asked;
    if (init != NULL) {
        asked = *init;
    } else {
        memset(&asked, 0, sizeof asked);
    }
    int64_t t0 = tr_now();
    struct ibv_qp *qp = real_ibv_create_qp(pd, init);
    int64_t t1 = tr_now();
    int err = qp == NULL ? errno : 0;
    uint32_t n = TR_PAYLOAD + CQP_NSLOTS + 2 * QI_NSLOTS;
    int64_t *r = tr_reserve(n);
    if (r != NULL) {
        tr_head(r, TR_IBV_CREATE_QP, 0, n, t0, qp, qp != NULL ? 0 : -1, err, t1 - t0);
        int64_t *p = r + TR_PAYLOAD;
        memset(p, 0, (CQP_NSLOTS + 2 * QI_NSLOTS) * 8);
        p[CQP_PD] = (int64_t)(uintptr_t)pd;
        p[CQP_CONTEXT] = pd != NULL ? (int64_t)(uintptr_t)pd->context : 0;
        qp_init_to_slots(&asked, p + CQP_NSLOTS);
        if (qp != NULL && init != NULL) {
            qp_init_to_slots(init, p + CQP_NSLOTS + QI_NSLOTS);
            p[CQP_NSLOTS + QI_NSLOTS + QI_QP_NUM] = qp->qp_num;
        }
        tr_commit(r, n);
    }
    errno = qp == NULL ? err : errno;
    return qp;
}

static void qp_attr_record(enum tr_kind kind, uint32_t flags, int64_t t0, int64_t dur, struct ibv_qp *qp, int ret,
                           int err, int mask, const struct ibv_qp_attr *attr, const struct ibv_qp_init_attr *init)
{
    uint32_t n = TR_PAYLOAD + QP_NSLOTS + QA_BLOCK_NSLOTS + (init != NULL ? QI_NSLOTS : 0);
    int64_t *r = tr_reserve(n);
    if (r == NULL) {
        return;
    }
    tr_head(r, kind, flags, n, t0, qp, ret, err, dur);
    int64_t *p = r + TR_PAYLOAD;
    memset(p, 0, (n - TR_PAYLOAD) * 8);
    p[QP_QP_NUM] = qp != NULL ? qp->qp_num : 0;
    p[QP_ATTR_MASK] = (uint32_t)mask;
    if (attr != NULL) {
        qp_attr_to_slots(attr, p + QP_NSLOTS);
    }
    if (init != NULL) {
        qp_init_to_slots(init, p + QP_NSLOTS + QA_BLOCK_NSLOTS);
        p[QP_NSLOTS + QA_BLOCK_NSLOTS + QI_QP_NUM] = qp != NULL ? qp->qp_num : 0;
    }
    tr_commit(r, n);
}

int (ibv_modify_qp)(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask)
{
    int64_t t0 = tr_now();
    int ret = real_ibv_modify_qp(qp, attr, mask);
    int64_t t1 = tr_now();
    int err = errno;
    qp_attr_record(TR_IBV_MODIFY_QP, 0, t0, t1 - t0, qp, ret, tr_err_of_ret(ret, err), mask, attr, NULL);
    tr_query_after_modify(qp);
    errno = err;
    return ret;
}

/* Every attribute a query can return: what the QP really holds after a modify. */
#define TR_QUERY_ALL_MASK                                                                                   \
    (IBV_QP_STATE | IBV_QP_CUR_STATE | IBV_QP_EN_SQD_ASYNC_NOTIFY | IBV_QP_ACCESS_FLAGS | IBV_QP_PKEY_INDEX | \
     IBV_QP_PORT | IBV_QP_QKEY | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |          \
     IBV_QP_RNR_RETRY | IBV_QP_RQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_ALT_PATH | IBV_QP_MIN_RNR_TIMER |   \
     IBV_QP_SQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_PATH_MIG_STATE | IBV_QP_CAP | IBV_QP_DEST_QPN)

void tr_query_after_modify(struct ibv_qp *qp)
{
    if (!tr_recording || qp == NULL) {
        return;
    }
    struct ibv_qp_attr attr;
    struct ibv_qp_init_attr init;
    memset(&attr, 0, sizeof attr);
    memset(&init, 0, sizeof init);
    int64_t t0 = tr_now();
    int ret = real_ibv_query_qp(qp, &attr, TR_QUERY_ALL_MASK, &init);
    int64_t t1 = tr_now();
    qp_attr_record(TR_IBV_QUERY_QP, TR_FLAG_RECORDER, t0, t1 - t0, qp, ret, tr_err_of_ret(ret, errno),
                   TR_QUERY_ALL_MASK, ret == 0 ? &attr : NULL, ret == 0 ? &init : NULL);
}

int (ibv_query_qp)(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask, struct ibv_qp_init_attr *init)
{
    int64_t t0 = tr_now();
    int ret = real_ibv_query_qp(qp, attr, mask, init);
    int64_t t1 = tr_now();
    int err = errno;
    qp_attr_record(TR_IBV_QUERY_QP, 0, t0, t1 - t0, qp, ret, tr_err_of_ret(ret, err), mask,
                   ret == 0 ? attr : NULL, ret == 0 ? init : NULL);
    errno = err;
    return ret;
}

int (ibv_destroy_qp)(struct ibv_qp *qp)
{
    uint32_t qpn = qp != NULL ? qp->qp_num : 0;
    int64_t t0 = tr_now();
    int ret = real_ibv_destroy_qp(qp);
    int64_t t1 = tr_now();
    int err = errno;
    int64_t args[1] = {qpn};
    tr_args(TR_IBV_DESTROY_QP, t0, t1 - t0, qp, ret, tr_err_of_ret(ret, err), 1, args);
    errno = err;
    return ret;
}

struct ibv_qp_ex *(ibv_qp_to_qp_ex)(struct ibv_qp *qp)
{
    int64_t t0 = tr_now();
    struct ibv_qp_ex *qpx = real_ibv_qp_to_qp_ex(qp);
    int64_t t1 = tr_now();
    int err = qpx == NULL ? errno : 0;
    int64_t args[1] = {(int64_t)(uintptr_t)qpx};
    tr_args(TR_IBV_QP_TO_QP_EX, t0, t1 - t0, qp, qpx != NULL ? 0 : -1, err, 1, args);
    errno = qpx == NULL ? err : errno;
    return qpx;
}

/* Bind each wrapper to its default version where an older one also exists (see tr_syms.h). */
TR_SYMVER(ibv_create_qp)
TR_SYMVER(ibv_destroy_qp)
TR_SYMVER(ibv_modify_qp)
TR_SYMVER(ibv_qp_to_qp_ex)
TR_SYMVER(ibv_query_qp)
