/* Completion channels and completion queues: create/destroy, notify, CQ events (with a timeout). */
#include <poll.h>

#include "jni_util.h"

JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_Context_createCompChannel0(JNIEnv *env, jclass cls, jlong lib,
                                                                           jlong context, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_context *ctx = check_handle(env, context, "context");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || ctx == NULL || s == NULL
        || !require_symbol(env, w, w->create_comp_channel, "ibv_create_comp_channel")) {
        return 0;
    }
    errno = 0;
    int64_t t0 = now_ns();
    struct ibv_comp_channel *ch = w->create_comp_channel(ctx);
    int64_t t1 = now_ns();
    status_from_pointer(s, ch, errno, t1 - t0);
    s[CALL_PAYLOAD] = ch != NULL ? ch->fd : -1;
    return to_handle(ch);
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_CompletionChannel_destroy0(JNIEnv *env, jclass cls, jlong lib,
                                                                          jlong channel, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_comp_channel *ch = check_handle(env, channel, "completion channel");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || ch == NULL || s == NULL
        || !require_symbol(env, w, w->destroy_comp_channel, "ibv_destroy_comp_channel")) {
        return;
    }
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->destroy_comp_channel(ch);
    int64_t t1 = now_ns();
    status_from_errno_ret(s, ret, errno, t1 - t0);
}

JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_Context_createCq0(JNIEnv *env, jclass cls, jlong lib,
                                                                  jlong context, jint cqe, jlong channel,
                                                                  jint comp_vector, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_context *ctx = check_handle(env, context, "context");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || ctx == NULL || s == NULL || !require_symbol(env, w, w->create_cq, "ibv_create_cq")) {
        return 0;
    }
    errno = 0;
    int64_t t0 = now_ns();
    struct ibv_cq *cq = w->create_cq(ctx, cqe, NULL, from_handle(channel), comp_vector);
    int64_t t1 = now_ns();
    status_from_pointer(s, cq, errno, t1 - t0);
    s[CALL_PAYLOAD] = cq != NULL ? cq->cqe : 0;
    return to_handle(cq);
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_CompletionQueue_destroy0(JNIEnv *env, jclass cls, jlong lib,
                                                                        jlong cq_handle, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_cq *cq = check_handle(env, cq_handle, "completion queue");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || cq == NULL || s == NULL || !require_symbol(env, w, w->destroy_cq, "ibv_destroy_cq")) {
        return;
    }
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->destroy_cq(cq);
    int64_t t1 = now_ns();
    status_from_errno_ret(s, ret, errno, t1 - t0);
}

/* ibv_req_notify_cq is an inline that calls the provider through ctx->ops. */
JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_CompletionQueue_reqNotify0(JNIEnv *env, jclass cls, jlong cq_handle,
                                                                          jboolean solicited_only, jlong io)
{
    struct ibv_cq *cq = check_handle(env, cq_handle, "completion queue");
    int64_t *s = check_slots(env, io, "call");
    if (cq == NULL || s == NULL) {
        return;
    }
    if (cq->context->ops.req_notify_cq == NULL) {
        jni_throw(env, EXC_UNSUPPORTED, "the provider has no req_notify_cq");
        return;
    }
    errno = 0;
    int64_t t0 = now_ns();
    int ret = ibv_req_notify_cq(cq, solicited_only ? 1 : 0);
    int64_t t1 = now_ns();
    status_from_errno_ret(s, ret, errno, t1 - t0);
}

/*
 * Waits up to timeout_ms for the channel's fd, then calls ibv_get_cq_event (timed alone).
 * Returns the CQ handle; STATUS_EXTRA is 1 when an event was read, 0 on timeout.
 */
JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_CompletionChannel_getCqEvent0(JNIEnv *env, jclass cls, jlong lib,
                                                                              jlong channel, jint timeout_ms,
                                                                              jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_comp_channel *ch = check_handle(env, channel, "completion channel");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || ch == NULL || s == NULL || !require_symbol(env, w, w->get_cq_event, "ibv_get_cq_event")) {
        return 0;
    }
    if (timeout_ms < 0) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "timeout %d ms is negative", timeout_ms);
        return 0;
    }
    if (ch->fd < 0) {
        jni_throw(env, EXC_UNSUPPORTED, "completion channel has no file descriptor (fd %d)", ch->fd);
        return 0;
    }
    struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };
    int ready = poll(&pfd, 1, timeout_ms);
    if (ready <= 0) {
        status_from_count(s, ready, errno, 0);
        s[STATUS_EXTRA] = 0;
        return 0;
    }
    struct ibv_cq *cq = NULL;
    void *cq_context = NULL;
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->get_cq_event(ch, &cq, &cq_context);
    int64_t t1 = now_ns();
    status_from_errno_ret(s, ret, errno, t1 - t0);
    s[STATUS_EXTRA] = ret == 0 ? 1 : 0;
    return ret == 0 ? to_handle(cq) : 0;
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_CompletionQueue_ackEvents0(JNIEnv *env, jclass cls, jlong lib,
                                                                          jlong cq_handle, jint count, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_cq *cq = check_handle(env, cq_handle, "completion queue");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || cq == NULL || s == NULL || !require_symbol(env, w, w->ack_cq_events, "ibv_ack_cq_events")) {
        return;
    }
    if (count < 0) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "event count %d is negative", count);
        return;
    }
    int64_t t0 = now_ns();
    w->ack_cq_events(cq, (unsigned int)count);
    int64_t t1 = now_ns();
    status_from_errno_ret(s, 0, 0, t1 - t0);
}
