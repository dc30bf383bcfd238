/* Asynchronous events: wait on the context's async_fd with a timeout (or until a wake-up
 * eventfd is signalled), read one event, ack it. */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "jni_util.h"

/*
 * Returns 1 when an event was read (its fields in the ASYNC_EVENT payload), 0 on timeout or
 * when wake_fd (-1: none) became readable; the wake-up is not consumed, so it ends every later
 * wait too. The event is acknowledged at once so destroying its object can never block on it;
 * the ack is part of the same call.
 */
JNIEXPORT jint JNICALL Java_io_rdmatrace_verbs_Context_getAsyncEvent0(JNIEnv *env, jclass cls, jlong lib,
                                                                      jlong context, jint timeout_ms, jint wake_fd,
                                                                      jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_context *ctx = check_handle(env, context, "context");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || ctx == NULL || s == NULL
        || !require_symbol(env, w, w->get_async_event, "ibv_get_async_event")
        || !require_symbol(env, w, w->ack_async_event, "ibv_ack_async_event")) {
        return 0;
    }
    if (timeout_ms < 0) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "timeout %d ms is negative", timeout_ms);
        return 0;
    }
    if (ctx->async_fd < 0) {
        jni_throw(env, EXC_UNSUPPORTED, "context has no async_fd (%d)", ctx->async_fd);
        return 0;
    }
    if (wake_fd < -1) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "wake-up fd %d is invalid", wake_fd);
        return 0;
    }
    struct pollfd pfd[2] = { { .fd = ctx->async_fd, .events = POLLIN }, { .fd = wake_fd, .events = POLLIN } };
    int ready = poll(pfd, wake_fd >= 0 ? 2 : 1, timeout_ms);
    if (ready > 0 && !(pfd[0].revents & POLLIN)) {
        ready = 0;   /* woken (or the wake-up fd failed): no event, like a timeout */
    }
    if (ready <= 0) {
        status_from_count(s, ready, errno, 0);
        s[STATUS_EXTRA] = 0;
        return 0;
    }
    struct ibv_async_event event;
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->get_async_event(ctx, &event);
    int64_t t1 = now_ns();
    status_from_errno_ret(s, ret, errno, t1 - t0);
    if (ret != 0) {
        s[STATUS_EXTRA] = 0;
        return 0;
    }
    int64_t *o = s + CALL_PAYLOAD;
    o[AE_EVENT_TYPE] = event.event_type;
    o[AE_ELEMENT] = 0;
    o[AE_QP_NUM] = -1;
    o[AE_PORT_NUM] = 0;
    switch (event.event_type) {
    case IBV_EVENT_QP_FATAL:
    case IBV_EVENT_QP_REQ_ERR:
    case IBV_EVENT_QP_ACCESS_ERR:
    case IBV_EVENT_COMM_EST:
    case IBV_EVENT_SQ_DRAINED:
    case IBV_EVENT_PATH_MIG:
    case IBV_EVENT_PATH_MIG_ERR:
    case IBV_EVENT_QP_LAST_WQE_REACHED:
        o[AE_ELEMENT] = to_handle(event.element.qp);
        o[AE_QP_NUM] = event.element.qp != NULL ? (int64_t)event.element.qp->qp_num : -1;
        break;
    case IBV_EVENT_CQ_ERR:
        o[AE_ELEMENT] = to_handle(event.element.cq);
        break;
    case IBV_EVENT_SRQ_ERR:
    case IBV_EVENT_SRQ_LIMIT_REACHED:
        o[AE_ELEMENT] = to_handle(event.element.srq);
        break;
    case IBV_EVENT_WQ_FATAL:
        o[AE_ELEMENT] = to_handle(event.element.wq);
        break;
    case IBV_EVENT_PORT_ACTIVE:
    case IBV_EVENT_PORT_ERR:
    case IBV_EVENT_LID_CHANGE:
    case IBV_EVENT_PKEY_CHANGE:
    case IBV_EVENT_SM_CHANGE:
    case IBV_EVENT_CLIENT_REREGISTER:
    case IBV_EVENT_GID_CHANGE:
        o[AE_PORT_NUM] = event.element.port_num;
        break;
    default: /* device events carry no element */
        break;
    }
    w->ack_async_event(&event);
    s[STATUS_EXTRA] = 1;
    return 1;
}

/* ---- the wake-up (io.rdmatrace.verbs.AsyncWakeup): an eventfd ---- */

JNIEXPORT jint JNICALL Java_io_rdmatrace_verbs_AsyncWakeup_open0(JNIEnv *env, jclass cls)
{
    int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (fd < 0) {
        jni_throw(env, EXC_ILLEGAL_STATE, "eventfd: %s", strerror(errno));
        return -1;
    }
    return fd;
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_AsyncWakeup_wake0(JNIEnv *env, jclass cls, jint fd)
{
    if (fd < 0) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "wake-up fd %d is invalid", fd);
        return;
    }
    uint64_t one = 1;
    /* EAGAIN only when the counter is near overflow: it is readable then, which is all a wait needs */
    ssize_t n = write(fd, &one, sizeof one);
    (void)n;
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_AsyncWakeup_close0(JNIEnv *env, jclass cls, jint fd)
{
    if (fd < 0) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "wake-up fd %d is invalid", fd);
        return;
    }
    close(fd);
}
