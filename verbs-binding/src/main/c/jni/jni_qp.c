/* Queue pairs: create with full init attributes, modify, query (every field), destroy. */
#include <string.h>

#include "codec.h"
#include "jni_util.h"

/* Payload of queryQp0: the QP_ATTR block (+ two AH blocks), then a QP_INIT block. */
#define QUERY_INIT_BASE QA_BLOCK_NSLOTS

/* query0 starts from this (all zero): gcc zeroes a 144-byte struct with `rep stos`, ~30 cycles on
 * the AMD EPYC this was measured on (a twelfth of a JNI query_qp); a copy is nine vector stores. */
static const struct ibv_qp_attr zero_qp_attr;

JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_ProtectionDomain_createQp0(JNIEnv *env, jclass cls, jlong lib,
                                                                           jlong pd_handle, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_pd *pd = check_handle(env, pd_handle, "protection domain");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || pd == NULL || s == NULL || !require_symbol(env, w, w->create_qp, "ibv_create_qp")) {
        return 0;
    }
    int64_t *in = s + CALL_PAYLOAD;
    struct ibv_qp_init_attr init;
    memset(&init, 0, sizeof(init));
    init.send_cq = from_handle(in[QI_SEND_CQ]);
    init.recv_cq = from_handle(in[QI_RECV_CQ]);
    init.srq = from_handle(in[QI_SRQ]);
    init.qp_type = (enum ibv_qp_type)in[QI_QP_TYPE];
    init.sq_sig_all = (int)in[QI_SQ_SIG_ALL];
    init.cap.max_send_wr = (uint32_t)in[QI_MAX_SEND_WR];
    init.cap.max_recv_wr = (uint32_t)in[QI_MAX_RECV_WR];
    init.cap.max_send_sge = (uint32_t)in[QI_MAX_SEND_SGE];
    init.cap.max_recv_sge = (uint32_t)in[QI_MAX_RECV_SGE];
    init.cap.max_inline_data = (uint32_t)in[QI_MAX_INLINE_DATA];
    errno = 0;
    int64_t t0 = now_ns();
    struct ibv_qp *qp = w->create_qp(pd, &init);
    int64_t t1 = now_ns();
    status_from_pointer(s, qp, errno, t1 - t0);
    if (qp != NULL) {
        /* create_qp writes the capabilities it actually granted back into init.cap */
        in[QI_MAX_SEND_WR] = init.cap.max_send_wr;
        in[QI_MAX_RECV_WR] = init.cap.max_recv_wr;
        in[QI_MAX_SEND_SGE] = init.cap.max_send_sge;
        in[QI_MAX_RECV_SGE] = init.cap.max_recv_sge;
        in[QI_MAX_INLINE_DATA] = init.cap.max_inline_data;
        in[QI_QP_NUM] = qp->qp_num;
    }
    return to_handle(qp);
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_QueuePair_modify0(JNIEnv *env, jclass cls, jlong lib,
                                                                 jlong qp_handle, jint mask, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_qp *qp = check_handle(env, qp_handle, "queue pair");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || qp == NULL || s == NULL || !require_symbol(env, w, w->modify_qp, "ibv_modify_qp")) {
        return;
    }
    struct ibv_qp_attr attr;
    qp_attr_from_slots(s + CALL_PAYLOAD, &attr);
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->modify_qp(qp, &attr, mask);
    int64_t t1 = now_ns();
    status_from_errno_ret(s, ret, errno, t1 - t0);
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_QueuePair_query0(JNIEnv *env, jclass cls, jlong lib,
                                                                jlong qp_handle, jint mask, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_qp *qp = check_handle(env, qp_handle, "queue pair");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || qp == NULL || s == NULL || !require_symbol(env, w, w->query_qp, "ibv_query_qp")) {
        return;
    }
    struct ibv_qp_attr attr = zero_qp_attr;   /* the provider may leave fields unanswered */
    struct ibv_qp_init_attr init;
    memset(&init, 0, sizeof(init));
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->query_qp(qp, &attr, mask, &init);
    int64_t t1 = now_ns();
    status_from_errno_ret(s, ret, errno, t1 - t0);
    int64_t *o = s + CALL_PAYLOAD;
    qp_attr_to_slots(&attr, o);
    int64_t *io_init = o + QUERY_INIT_BASE;
    io_init[QI_SEND_CQ] = to_handle(init.send_cq);
    io_init[QI_RECV_CQ] = to_handle(init.recv_cq);
    io_init[QI_SRQ] = to_handle(init.srq);
    io_init[QI_QP_TYPE] = init.qp_type;
    io_init[QI_SQ_SIG_ALL] = init.sq_sig_all;
    io_init[QI_MAX_SEND_WR] = init.cap.max_send_wr;
    io_init[QI_MAX_RECV_WR] = init.cap.max_recv_wr;
    io_init[QI_MAX_SEND_SGE] = init.cap.max_send_sge;
    io_init[QI_MAX_RECV_SGE] = init.cap.max_recv_sge;
    io_init[QI_MAX_INLINE_DATA] = init.cap.max_inline_data;
    io_init[QI_QP_NUM] = qp->qp_num;
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_QueuePair_destroy0(JNIEnv *env, jclass cls, jlong lib,
                                                                  jlong qp_handle, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_qp *qp = check_handle(env, qp_handle, "queue pair");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || qp == NULL || s == NULL || !require_symbol(env, w, w->destroy_qp, "ibv_destroy_qp")) {
        return;
    }
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->destroy_qp(qp);
    int64_t t1 = now_ns();
    status_from_errno_ret(s, ret, errno, t1 - t0);
}

/* The state libibverbs caches in qp->state after a successful modify (rdma-facts §2.10). */
JNIEXPORT jint JNICALL Java_io_rdmatrace_verbs_QueuePair_cachedState0(JNIEnv *env, jclass cls, jlong qp_handle)
{
    struct ibv_qp *qp = check_handle(env, qp_handle, "queue pair");
    return qp != NULL ? (jint)qp->state : -1;
}
