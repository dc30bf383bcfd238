/* IBVERBS_1.0 entry points for SRQs, QPs, AHs and multicast, and the 1.0 op table's post
 * verbs, which rebuild each 1.0 work request list as a current one (field by field; a UD
 * request's AH is the 1.0 wrapper's real AH) and map a failing request back to the caller's. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sv_abi_compat10.h"

#define SV_CHECK_OR(cond, ret) do { if (!(cond)) { errno = EINVAL; return ret; } } while (0)

_Static_assert(sizeof(((struct ibv_send_wr_1_0 *)0)->wr) == sizeof(((struct ibv_send_wr *)0)->wr),
               "the 1.0 and current rdma/atomic/ud unions have one layout");

/* ---- posting ---- */

int sv_compat10_post_send(struct ibv_qp_1_0 *qp, struct ibv_send_wr_1_0 *wr, struct ibv_send_wr_1_0 **bad_wr)
{
    size_t n = 0;
    for (struct ibv_send_wr_1_0 *w = wr; w; w = w->next)
        n++;
    struct ibv_send_wr *real = calloc(n ? n : 1, sizeof *real);
    if (!real) {
        *bad_wr = wr;
        return ENOMEM;
    }
    size_t i = 0;
    for (struct ibv_send_wr_1_0 *w = wr; w; w = w->next, i++) {
        real[i].wr_id = w->wr_id;
        real[i].next = i + 1 < n ? &real[i + 1] : NULL;
        real[i].sg_list = w->sg_list;
        real[i].num_sge = w->num_sge;
        real[i].opcode = w->opcode;
        real[i].send_flags = (unsigned int)w->send_flags;
        real[i].imm_data = w->imm_data;
        memcpy(&real[i].wr, &w->wr, sizeof real[i].wr);
        if (qp->qp_type == IBV_QPT_UD)
            real[i].wr.ud.ah = w->wr.ud.ah ? w->wr.ud.ah->real_ah : NULL;
    }
    struct ibv_send_wr *real_bad = NULL;
    int rc = qp->context->real_context->ops.post_send(qp->real_qp, n ? real : NULL, &real_bad);
    if (rc) {
        struct ibv_send_wr_1_0 *w = wr;
        for (i = 0; w && &real[i] != real_bad; i++)
            w = w->next;
        *bad_wr = w;
    }
    free(real);
    return rc;
}

/* Rebuilds a 1.0 receive list; NULL (ENOMEM) when out of memory. */
static struct ibv_recv_wr *recv_list(struct ibv_recv_wr_1_0 *wr, size_t *count)
{
    size_t n = 0;
    for (struct ibv_recv_wr_1_0 *w = wr; w; w = w->next)
        n++;
    struct ibv_recv_wr *real = calloc(n ? n : 1, sizeof *real);
    if (!real)
        return NULL;
    size_t i = 0;
    for (struct ibv_recv_wr_1_0 *w = wr; w; w = w->next, i++) {
        real[i].wr_id = w->wr_id;
        real[i].next = i + 1 < n ? &real[i + 1] : NULL;
        real[i].sg_list = w->sg_list;
        real[i].num_sge = w->num_sge;
    }
    *count = n;
    return real;
}

static struct ibv_recv_wr_1_0 *recv_bad(struct ibv_recv_wr_1_0 *wr, struct ibv_recv_wr *real,
                                        struct ibv_recv_wr *real_bad)
{
    for (size_t i = 0; wr && &real[i] != real_bad; i++)
        wr = wr->next;
    return wr;
}

int sv_compat10_post_recv(struct ibv_qp_1_0 *qp, struct ibv_recv_wr_1_0 *wr, struct ibv_recv_wr_1_0 **bad_wr)
{
    size_t n = 0;
    struct ibv_recv_wr *real = recv_list(wr, &n);
    if (!real) {
        *bad_wr = wr;
        return ENOMEM;
    }
    struct ibv_recv_wr *real_bad = NULL;
    int rc = qp->context->real_context->ops.post_recv(qp->real_qp, n ? real : NULL, &real_bad);
    if (rc)
        *bad_wr = recv_bad(wr, real, real_bad);
    free(real);
    return rc;
}

int sv_compat10_post_srq_recv(struct ibv_srq_1_0 *srq, struct ibv_recv_wr_1_0 *wr,
                              struct ibv_recv_wr_1_0 **bad_wr)
{
    size_t n = 0;
    struct ibv_recv_wr *real = recv_list(wr, &n);
    if (!real) {
        *bad_wr = wr;
        return ENOMEM;
    }
    struct ibv_recv_wr *real_bad = NULL;
    int rc = srq->context->real_context->ops.post_srq_recv(srq->real_srq, n ? real : NULL, &real_bad);
    if (rc)
        *bad_wr = recv_bad(wr, real, real_bad);
    free(real);
    return rc;
}

/* ---- SRQs: the real SRQ's srq_context points back at its 1.0 wrapper ---- */

struct ibv_srq_1_0 *sv_compat10_create_srq(struct ibv_pd_1_0 *pd, struct ibv_srq_init_attr *attr);
SV_COMPAT10(sv_compat10_create_srq, ibv_create_srq);
struct ibv_srq_1_0 *sv_compat10_create_srq(struct ibv_pd_1_0 *pd, struct ibv_srq_init_attr *attr)
{
    SV_CHECK_OR(pd && attr, NULL);
    struct ibv_srq_1_0 *srq = calloc(1, sizeof *srq);
    if (!srq) {
        errno = ENOMEM;
        return NULL;
    }
    srq->real_srq = ibv_create_srq(pd->real_pd, attr);
    if (!srq->real_srq) {
        free(srq);
        return NULL;
    }
    srq->context = pd->context;
    srq->srq_context = attr->srq_context;
    srq->pd = pd;
    srq->handle = srq->real_srq->handle;
    srq->real_srq->srq_context = srq;
    return srq;
}

int sv_compat10_modify_srq(struct ibv_srq_1_0 *srq, struct ibv_srq_attr *attr, int mask);
SV_COMPAT10(sv_compat10_modify_srq, ibv_modify_srq);
int sv_compat10_modify_srq(struct ibv_srq_1_0 *srq, struct ibv_srq_attr *attr, int mask)
{
    SV_CHECK_OR(srq, EINVAL);
    return ibv_modify_srq(srq->real_srq, attr, mask);
}

int sv_compat10_query_srq(struct ibv_srq_1_0 *srq, struct ibv_srq_attr *attr);
SV_COMPAT10(sv_compat10_query_srq, ibv_query_srq);
int sv_compat10_query_srq(struct ibv_srq_1_0 *srq, struct ibv_srq_attr *attr)
{
    SV_CHECK_OR(srq, EINVAL);
    return ibv_query_srq(srq->real_srq, attr);
}

int sv_compat10_destroy_srq(struct ibv_srq_1_0 *srq);
SV_COMPAT10(sv_compat10_destroy_srq, ibv_destroy_srq);
int sv_compat10_destroy_srq(struct ibv_srq_1_0 *srq)
{
    SV_CHECK_OR(srq, EINVAL);
    int rc = ibv_destroy_srq(srq->real_srq);
    if (rc)
        return rc;
    free(srq);
    return 0;
}

/* ---- QPs: the real QP's qp_context points back at its 1.0 wrapper ---- */

struct ibv_qp_1_0 *sv_compat10_create_qp(struct ibv_pd_1_0 *pd, struct ibv_qp_init_attr_1_0 *attr);
SV_COMPAT10(sv_compat10_create_qp, ibv_create_qp);
struct ibv_qp_1_0 *sv_compat10_create_qp(struct ibv_pd_1_0 *pd, struct ibv_qp_init_attr_1_0 *attr)
{
    SV_CHECK_OR(pd && attr && attr->send_cq && attr->recv_cq, NULL);
    struct ibv_qp_1_0 *qp = calloc(1, sizeof *qp);
    if (!qp) {
        errno = ENOMEM;
        return NULL;
    }
    struct ibv_qp_init_attr real_attr = {
        .qp_context = attr->qp_context,
        .send_cq = attr->send_cq->real_cq,
        .recv_cq = attr->recv_cq->real_cq,
        .srq = attr->srq ? attr->srq->real_srq : NULL,
        .cap = attr->cap,
        .qp_type = attr->qp_type,
        .sq_sig_all = attr->sq_sig_all,
    };
    qp->real_qp = ibv_create_qp(pd->real_pd, &real_attr);
    if (!qp->real_qp) {
        free(qp);
        return NULL;
    }
    qp->context = pd->context;
    qp->qp_context = attr->qp_context;
    qp->pd = pd;
    qp->send_cq = attr->send_cq;
    qp->recv_cq = attr->recv_cq;
    qp->srq = attr->srq;
    qp->qp_type = attr->qp_type;
    qp->qp_num = qp->real_qp->qp_num;
    qp->handle = qp->real_qp->handle;
    attr->cap = real_attr.cap;
    qp->real_qp->qp_context = qp;
    return qp;
}

int sv_compat10_query_qp(struct ibv_qp_1_0 *qp, struct ibv_qp_attr *attr, int attr_mask,
                         struct ibv_qp_init_attr_1_0 *init_attr);
SV_COMPAT10(sv_compat10_query_qp, ibv_query_qp);
int sv_compat10_query_qp(struct ibv_qp_1_0 *qp, struct ibv_qp_attr *attr, int attr_mask,
                         struct ibv_qp_init_attr_1_0 *init_attr)
{
    SV_CHECK_OR(qp && init_attr, EINVAL);
    struct ibv_qp_init_attr real_init;
    int rc = ibv_query_qp(qp->real_qp, attr, attr_mask, &real_init);
    if (rc)
        return rc;
    init_attr->qp_context = qp->qp_context;
    init_attr->send_cq = qp->send_cq;
    init_attr->recv_cq = qp->recv_cq;
    init_attr->srq = qp->srq;
    init_attr->qp_type = real_init.qp_type;
    init_attr->cap = real_init.cap;
    init_attr->sq_sig_all = real_init.sq_sig_all;
    return 0;
}

int sv_compat10_modify_qp(struct ibv_qp_1_0 *qp, struct ibv_qp_attr *attr, int attr_mask);
SV_COMPAT10(sv_compat10_modify_qp, ibv_modify_qp);
int sv_compat10_modify_qp(struct ibv_qp_1_0 *qp, struct ibv_qp_attr *attr, int attr_mask)
{
    SV_CHECK_OR(qp, EINVAL);
    int rc = ibv_modify_qp(qp->real_qp, attr, attr_mask);
    if (!rc && (attr_mask & IBV_QP_STATE))
        qp->state = attr->qp_state;
    return rc;
}

int sv_compat10_destroy_qp(struct ibv_qp_1_0 *qp);
SV_COMPAT10(sv_compat10_destroy_qp, ibv_destroy_qp);
int sv_compat10_destroy_qp(struct ibv_qp_1_0 *qp)
{
    SV_CHECK_OR(qp, EINVAL);
    int rc = ibv_destroy_qp(qp->real_qp);
    if (rc)
        return rc;
    free(qp);
    return 0;
}

/* ---- AHs and multicast ---- */

struct ibv_ah_1_0 *sv_compat10_create_ah(struct ibv_pd_1_0 *pd, struct ibv_ah_attr *attr);
SV_COMPAT10(sv_compat10_create_ah, ibv_create_ah);
struct ibv_ah_1_0 *sv_compat10_create_ah(struct ibv_pd_1_0 *pd, struct ibv_ah_attr *attr)
{
    SV_CHECK_OR(pd, NULL);
    struct ibv_ah_1_0 *ah = calloc(1, sizeof *ah);
    if (!ah) {
        errno = ENOMEM;
        return NULL;
    }
    ah->real_ah = ibv_create_ah(pd->real_pd, attr);
    if (!ah->real_ah) {
        free(ah);
        return NULL;
    }
    ah->context = pd->context;
    ah->pd = pd;
    ah->handle = ah->real_ah->handle;
    return ah;
}

int sv_compat10_destroy_ah(struct ibv_ah_1_0 *ah);
SV_COMPAT10(sv_compat10_destroy_ah, ibv_destroy_ah);
int sv_compat10_destroy_ah(struct ibv_ah_1_0 *ah)
{
    SV_CHECK_OR(ah, EINVAL);
    int rc = ibv_destroy_ah(ah->real_ah);
    if (rc)
        return rc;
    free(ah);
    return 0;
}

int sv_compat10_attach_mcast(struct ibv_qp_1_0 *qp, union ibv_gid *gid, uint16_t lid);
SV_COMPAT10(sv_compat10_attach_mcast, ibv_attach_mcast);
int sv_compat10_attach_mcast(struct ibv_qp_1_0 *qp, union ibv_gid *gid, uint16_t lid)
{
    SV_CHECK_OR(qp, EINVAL);
    return ibv_attach_mcast(qp->real_qp, gid, lid);
}

int sv_compat10_detach_mcast(struct ibv_qp_1_0 *qp, union ibv_gid *gid, uint16_t lid);
SV_COMPAT10(sv_compat10_detach_mcast, ibv_detach_mcast);
int sv_compat10_detach_mcast(struct ibv_qp_1_0 *qp, union ibv_gid *gid, uint16_t lid)
{
    SV_CHECK_OR(qp, EINVAL);
    return ibv_detach_mcast(qp->real_qp, gid, lid);
}
