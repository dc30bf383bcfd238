/*
 * Raw C loops for the JNI overhead benchmark: the same verb N times without crossing into Java,
 * so the benchmark can subtract the C cost from the cost seen through the Java API. With `timed`
 * each call is wrapped in the same two clock reads the JNI entry points make, which separates
 * the cost of measuring a call from the cost of crossing JNI.
 */
#include <string.h>

#include "jni_util.h"

/* Where timed loops leave their durations, so the clock reads cannot be optimised away. */
static volatile int64_t timing_sink;

JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_NativeLoops_queryQp0(JNIEnv *env, jclass cls, jlong lib,
                                                                     jlong qp_handle, jint mask, jint iterations,
                                                                     jboolean timed)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_qp *qp = check_handle(env, qp_handle, "queue pair");
    if (w == NULL || qp == NULL || !require_symbol(env, w, w->query_qp, "ibv_query_qp")) {
        return -1;
    }
    struct ibv_qp_attr attr;
    struct ibv_qp_init_attr init;
    int64_t t0 = now_ns();
    for (jint i = 0; i < iterations; i++) {
        int64_t c0 = timed ? now_ns() : 0;
        if (w->query_qp(qp, &attr, mask, &init) != 0) {
            return -1;
        }
        if (timed) {
            timing_sink = now_ns() - c0;
        }
    }
    return now_ns() - t0;
}

JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_NativeLoops_reqNotify0(JNIEnv *env, jclass cls, jlong cq_handle,
                                                                       jint iterations, jboolean timed)
{
    struct ibv_cq *cq = check_handle(env, cq_handle, "completion queue");
    if (cq == NULL) {
        return -1;
    }
    int64_t t0 = now_ns();
    for (jint i = 0; i < iterations; i++) {
        int64_t c0 = timed ? now_ns() : 0;
        if (ibv_req_notify_cq(cq, 0) != 0) {
            return -1;
        }
        if (timed) {
            timing_sink = now_ns() - c0;
        }
    }
    return now_ns() - t0;
}

JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_NativeLoops_pollEmpty0(JNIEnv *env, jclass cls, jlong cq_handle,
                                                                       jint iterations)
{
    struct ibv_cq *cq = check_handle(env, cq_handle, "completion queue");
    if (cq == NULL) {
        return -1;
    }
    struct ibv_wc wc[16];
    int64_t t0 = now_ns();
    for (jint i = 0; i < iterations; i++) {
        if (ibv_poll_cq(cq, 16, wc) < 0) {
            return -1;
        }
    }
    return now_ns() - t0;
}

/*
 * `iterations` round trips of one signaled work request (post_send, then poll_cq until its
 * completion); each wait is bounded by timeout_ns. Returns the total nanoseconds, or -1.
 */
JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_NativeLoops_sendPoll0(JNIEnv *env, jclass cls, jlong qp_handle,
                                                                      jlong cq_handle, jint opcode, jlong addr,
                                                                      jint length, jint lkey, jlong remote_addr,
                                                                      jint rkey, jint iterations, jlong timeout_ns)
{
    struct ibv_qp *qp = check_handle(env, qp_handle, "queue pair");
    struct ibv_cq *cq = check_handle(env, cq_handle, "completion queue");
    if (qp == NULL || cq == NULL) {
        return -1;
    }
    struct ibv_sge sge = { .addr = (uint64_t)addr, .length = (uint32_t)length, .lkey = (uint32_t)lkey };
    struct ibv_send_wr wr;
    memset(&wr, 0, sizeof(wr));
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.opcode = (enum ibv_wr_opcode)opcode;
    wr.send_flags = IBV_SEND_SIGNALED;
    wr.wr.rdma.remote_addr = (uint64_t)remote_addr;
    wr.wr.rdma.rkey = (uint32_t)rkey;
    struct ibv_wc wc;
    int64_t t0 = now_ns();
    for (jint i = 0; i < iterations; i++) {
        struct ibv_send_wr *bad = NULL;
        wr.wr_id = (uint64_t)i;
        if (ibv_post_send(qp, &wr, &bad) != 0) {
            return -1;
        }
        int64_t deadline = now_ns() + timeout_ns;
        int n = 0;
        while ((n = ibv_poll_cq(cq, 1, &wc)) == 0) {
            if (now_ns() > deadline) {
                return -1;
            }
        }
        if (n < 0 || wc.status != IBV_WC_SUCCESS) {
            return -1;
        }
    }
    return now_ns() - t0;
}
