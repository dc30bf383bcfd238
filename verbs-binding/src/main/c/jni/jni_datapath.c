/*
 * The data path: post_send, post_recv and poll_cq over reusable batches. Java fills a batch's
 * slots; the libibverbs structs are built in the batch's own scratch memory (allocated once with
 * the batch), so no call allocates. The verbs are the inline helpers of verbs.h: they call the
 * provider through ctx->ops.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "jni_util.h"

static size_t send_scratch_bytes(jint max_wr, jint max_sge)
{
    return (size_t)max_wr * sizeof(struct ibv_send_wr) + (size_t)max_wr * (size_t)max_sge * sizeof(struct ibv_sge);
}

static size_t recv_scratch_bytes(jint max_wr, jint max_sge)
{
    return (size_t)max_wr * sizeof(struct ibv_recv_wr) + (size_t)max_wr * (size_t)max_sge * sizeof(struct ibv_sge);
}

static int check_shape(JNIEnv *env, jint max_wr, jint max_sge)
{
    if (max_wr <= 0 || max_wr > 1 << 20 || max_sge < 0 || max_sge > 1024) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "batch shape %d WRs x %d SGEs is out of range", max_wr, max_sge);
        return 0;
    }
    return 1;
}

JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_SendBatch_allocScratch0(JNIEnv *env, jclass cls, jint max_wr,
                                                                        jint max_sge)
{
    if (!check_shape(env, max_wr, max_sge)) {
        return 0;
    }
    void *p = calloc(1, send_scratch_bytes(max_wr, max_sge));
    if (p == NULL) {
        jni_throw(env, EXC_OUT_OF_MEMORY, "cannot allocate send batch scratch");
    }
    return to_handle(p);
}

JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_RecvBatch_allocScratch0(JNIEnv *env, jclass cls, jint max_wr,
                                                                        jint max_sge)
{
    if (!check_shape(env, max_wr, max_sge)) {
        return 0;
    }
    void *p = calloc(1, recv_scratch_bytes(max_wr, max_sge));
    if (p == NULL) {
        jni_throw(env, EXC_OUT_OF_MEMORY, "cannot allocate receive batch scratch");
    }
    return to_handle(p);
}

JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_CompletionBatch_allocScratch0(JNIEnv *env, jclass cls, jint max_wc)
{
    if (!check_shape(env, max_wc, 0)) {
        return 0;
    }
    void *p = calloc((size_t)max_wc, sizeof(struct ibv_wc));
    if (p == NULL) {
        jni_throw(env, EXC_OUT_OF_MEMORY, "cannot allocate completion batch scratch");
    }
    return to_handle(p);
}

/* One free for all three kinds of scratch. */
JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_NativeMemory_freeScratch0(JNIEnv *env, jclass cls, jlong scratch)
{
    free(from_handle(scratch));
}

/* The batch header and the count it announces; throws when the count does not fit the batch. */
static int64_t *batch_header(JNIEnv *env, jlong buffer, jlong scratch, jint max_wr, int *count)
{
    int64_t *h = check_slots(env, buffer, "batch");
    if (h == NULL || check_handle(env, scratch, "batch scratch") == NULL) {
        return NULL;
    }
    int64_t n = h[BATCH_COUNT];
    if (n < 0 || n > max_wr) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "batch count %lld is outside 0..%d", (long long)n, max_wr);
        return NULL;
    }
    *count = (int)n;
    return h;
}

static int fill_sges(JNIEnv *env, const int64_t *sge_slots, struct ibv_sge *sges, int64_t num_sge, jint max_sge)
{
    if (num_sge < 0 || num_sge > max_sge) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "work request has %lld SGEs, the batch holds %d", (long long)num_sge,
                  max_sge);
        return 0;
    }
    for (int64_t j = 0; j < num_sge; j++) {
        const int64_t *g = sge_slots + j * SGE_NSLOTS;
        sges[j].addr = (uint64_t)g[SGE_ADDR];
        sges[j].length = (uint32_t)g[SGE_LENGTH];
        sges[j].lkey = (uint32_t)g[SGE_LKEY];
    }
    return 1;
}

JNIEXPORT jint JNICALL Java_io_rdmatrace_verbs_QueuePair_postSend0(JNIEnv *env, jclass cls, jlong qp_handle,
                                                                   jlong buffer, jlong scratch, jint max_wr,
                                                                   jint max_sge)
{
    struct ibv_qp *qp = check_handle(env, qp_handle, "queue pair");
    int count = 0;
    int64_t *h = batch_header(env, buffer, scratch, max_wr, &count);
    if (qp == NULL || h == NULL) {
        return -1;
    }
    const int64_t *wr_slots = h + BATCH_NSLOTS;
    const int64_t *sge_area = wr_slots + (size_t)max_wr * SWR_NSLOTS;
    struct ibv_send_wr *wrs = from_handle(scratch);
    struct ibv_sge *sges = (struct ibv_sge *)(wrs + max_wr);
    for (int i = 0; i < count; i++) {
        const int64_t *r = wr_slots + (size_t)i * SWR_NSLOTS;
        struct ibv_send_wr *wr = &wrs[i];
        memset(wr, 0, sizeof(*wr));
        wr->wr_id = (uint64_t)r[SWR_WR_ID];
        wr->next = i + 1 < count ? &wrs[i + 1] : NULL;
        wr->sg_list = &sges[(size_t)i * max_sge];
        wr->num_sge = (int)r[SWR_NUM_SGE];
        wr->opcode = (enum ibv_wr_opcode)r[SWR_OPCODE];
        wr->send_flags = (unsigned int)r[SWR_SEND_FLAGS];
        if (wr->opcode == IBV_WR_SEND_WITH_INV || wr->opcode == IBV_WR_LOCAL_INV) {
            wr->invalidate_rkey = (uint32_t)r[SWR_IMM_DATA]; /* an rkey: host order */
        } else {
            wr->imm_data = htonl((uint32_t)r[SWR_IMM_DATA]);
        }
        if (r[SWR_AH] != 0) {
            wr->wr.ud.ah = from_handle(r[SWR_AH]);
            wr->wr.ud.remote_qpn = (uint32_t)r[SWR_REMOTE_QPN];
            wr->wr.ud.remote_qkey = (uint32_t)r[SWR_REMOTE_QKEY];
        } else if (wr->opcode == IBV_WR_ATOMIC_CMP_AND_SWP || wr->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD) {
            wr->wr.atomic.remote_addr = (uint64_t)r[SWR_REMOTE_ADDR];
            wr->wr.atomic.rkey = (uint32_t)r[SWR_RKEY];
            wr->wr.atomic.compare_add = (uint64_t)r[SWR_COMPARE_ADD];
            wr->wr.atomic.swap = (uint64_t)r[SWR_SWAP];
        } else {
            wr->wr.rdma.remote_addr = (uint64_t)r[SWR_REMOTE_ADDR];
            wr->wr.rdma.rkey = (uint32_t)r[SWR_RKEY];
        }
        if (!fill_sges(env, sge_area + (size_t)i * max_sge * SGE_NSLOTS, wr->sg_list, r[SWR_NUM_SGE], max_sge)) {
            return -1;
        }
    }
    struct ibv_send_wr *bad = NULL;
    errno = 0;
    int64_t t0 = now_ns();
    int ret = count > 0 ? ibv_post_send(qp, wrs, &bad) : 0;
    int64_t t1 = now_ns();
    status_from_errno_ret(h, ret, errno, t1 - t0);
    h[BATCH_BAD_INDEX] = bad != NULL ? (int64_t)(bad - wrs) : -1;
    return ret;
}

JNIEXPORT jint JNICALL Java_io_rdmatrace_verbs_QueuePair_postRecv0(JNIEnv *env, jclass cls, jlong qp_handle,
                                                                   jlong buffer, jlong scratch, jint max_wr,
                                                                   jint max_sge)
{
    struct ibv_qp *qp = check_handle(env, qp_handle, "queue pair");
    int count = 0;
    int64_t *h = batch_header(env, buffer, scratch, max_wr, &count);
    if (qp == NULL || h == NULL) {
        return -1;
    }
    const int64_t *wr_slots = h + BATCH_NSLOTS;
    const int64_t *sge_area = wr_slots + (size_t)max_wr * RWR_NSLOTS;
    struct ibv_recv_wr *wrs = from_handle(scratch);
    struct ibv_sge *sges = (struct ibv_sge *)(wrs + max_wr);
    for (int i = 0; i < count; i++) {
        const int64_t *r = wr_slots + (size_t)i * RWR_NSLOTS;
        struct ibv_recv_wr *wr = &wrs[i];
        wr->wr_id = (uint64_t)r[RWR_WR_ID];
        wr->next = i + 1 < count ? &wrs[i + 1] : NULL;
        wr->sg_list = &sges[(size_t)i * max_sge];
        wr->num_sge = (int)r[RWR_NUM_SGE];
        if (!fill_sges(env, sge_area + (size_t)i * max_sge * SGE_NSLOTS, wr->sg_list, r[RWR_NUM_SGE], max_sge)) {
            return -1;
        }
    }
    struct ibv_recv_wr *bad = NULL;
    errno = 0;
    int64_t t0 = now_ns();
    int ret = count > 0 ? ibv_post_recv(qp, wrs, &bad) : 0;
    int64_t t1 = now_ns();
    status_from_errno_ret(h, ret, errno, t1 - t0);
    h[BATCH_BAD_INDEX] = bad != NULL ? (int64_t)(bad - wrs) : -1;
    return ret;
}

JNIEXPORT jint JNICALL Java_io_rdmatrace_verbs_CompletionQueue_poll0(JNIEnv *env, jclass cls, jlong cq_handle,
                                                                     jlong buffer, jlong scratch, jint max_wc)
{
    struct ibv_cq *cq = check_handle(env, cq_handle, "completion queue");
    int64_t *h = check_slots(env, buffer, "completion batch");
    struct ibv_wc *wcs = check_handle(env, scratch, "completion batch scratch");
    if (cq == NULL || h == NULL || wcs == NULL) {
        return -1;
    }
    if (max_wc <= 0) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "completion batch capacity %d is not positive", max_wc);
        return -1;
    }
    errno = 0;
    int64_t t0 = now_ns();
    int n = ibv_poll_cq(cq, max_wc, wcs);
    int64_t t1 = now_ns();
    status_from_count(h, n, errno, t1 - t0);
    int got = n > 0 ? (n < max_wc ? n : max_wc) : 0;
    h[BATCH_COUNT] = got;
    h[BATCH_BAD_INDEX] = -1;
    int64_t *out = h + BATCH_NSLOTS;
    for (int i = 0; i < got; i++) {
        wc_to_slots(&wcs[i], out + (size_t)i * WC_NSLOTS);
    }
    return n;
}
