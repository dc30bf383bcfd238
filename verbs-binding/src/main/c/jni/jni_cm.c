/*
 * librdmacm for the capture agent (io.rdmatrace.verbs.RdmaCm): event channels, ids, address and
 * route resolution, connect/accept/reject/establish/disconnect, CM events and rdma_init_qp_attr.
 * Every call fills, behind the status, the same blocks the tracing librdmacm writes into its ring
 * (record/tr_payload.h: CM_CALL scalars with A0..A7 per function as tracer/cm/tc_loc.h lists them,
 * TEXT source, TEXT destination, CM_PDATA; an event: CM_EVENT scalars, TEXT, TEXT, CM_PDATA), so
 * Java maps a capture's rdma_* calls and CM events exactly as it maps a recorded program's.
 */
#include <arpa/inet.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "tr_payload.h"
#include "tr_cm_event.h"
#include "cmwrap.h"
#include "codec.h"
#include "jni_util.h"

enum {
    CM_CALL_BLOCK = CMC_NSLOTS + 2 * TX_NSLOTS + CM_PDATA_NSLOTS,
    CM_EVENT_BLOCK = CME_NSLOTS + 2 * TX_NSLOTS + CM_PDATA_NSLOTS,
};

static struct cmwrap *check_cm(JNIEnv *env, jlong cm)
{
    if (cm == 0) {
        jni_throw(env, EXC_ILLEGAL_STATE, "librdmacm table is not loaded");
        return NULL;
    }
    return from_handle(cm);
}

static void put_addr(int64_t *slots, const struct sockaddr *sa)
{
    char text[TX_NSLOTS * 8];
    tr_cm_addr_text(sa, text, sizeof text);
    memset(slots, 0, TX_NSLOTS * 8);
    memcpy(slots, text, strnlen(text, TX_NSLOTS * 8 - 1));
}

/* The CM_CALL block of one call: addresses are the id's after the call unless given. */
struct call {
    int func;
    const struct rdma_cm_id *id;
    int64_t a[8];
    const struct sockaddr *src, *dst;
    const void *pdata;
    unsigned plen;
};

static void put_call(int64_t *p, const struct call *c)
{
    p[CMC_FUNC] = c->func;
    p[CMC_ID] = (int64_t)(uintptr_t)c->id;
    for (int i = 0; i < 8; i++) {
        p[CMC_A0 + i] = c->a[i];
    }
    p[CMC_PDATA_LEN] = c->pdata != NULL ? c->plen : 0;
    const struct sockaddr *src = c->src, *dst = c->dst;
    if (c->id != NULL && src == NULL) {
        src = &c->id->route.addr.src_addr;
    }
    if (c->id != NULL && dst == NULL) {
        dst = &c->id->route.addr.dst_addr;
    }
    put_addr(p + CMC_NSLOTS, src);
    put_addr(p + CMC_NSLOTS + TX_NSLOTS, dst);
    tr_cm_pdata_block(p + CMC_NSLOTS + 2 * TX_NSLOTS, c->pdata, c->plen);
}

/* librdmacm's int calls: 0, or -1 and errno. */
static void status_cm(int64_t *s, int ret, int err, int64_t dur)
{
    s[STATUS_RET] = ret;
    s[STATUS_ERRNO] = ret == 0 ? 0 : (err != 0 ? err : (ret < 0 ? -ret : ret));
    s[STATUS_DURATION_NS] = dur;
}

/* A dotted IPv4 address and port; 0, or throws IllegalArgumentException. */
static int ipv4(JNIEnv *env, jstring ip, int port, struct sockaddr_in *out)
{
    memset(out, 0, sizeof *out);
    out->sin_family = AF_INET;
    out->sin_port = htons((uint16_t)port);
    const char *text = (*env)->GetStringUTFChars(env, ip, NULL);
    if (text == NULL) {
        return -1;
    }
    int ok = inet_pton(AF_INET, text, &out->sin_addr) == 1;
    if (!ok) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "'%s' is not an IPv4 address", text);
    }
    (*env)->ReleaseStringUTFChars(env, ip, text);
    return ok ? 0 : -1;
}

JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_RdmaCm_open0(JNIEnv *env, jclass cls, jstring path,
                                                             jobjectArray error_out)
{
    if (path == NULL || error_out == NULL || (*env)->GetArrayLength(env, error_out) < 1) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "open0 needs a path and a 1-element error array");
        return 0;
    }
    const char *cpath = (*env)->GetStringUTFChars(env, path, NULL);
    if (cpath == NULL) {
        return 0;
    }
    char reason[1024] = "";
    struct cmwrap *w = cmwrap_open(cpath, reason, sizeof reason);
    (*env)->ReleaseStringUTFChars(env, path, cpath);
    if (w == NULL) {
        jstring jreason = (*env)->NewStringUTF(env, reason);
        if (jreason != NULL) {
            (*env)->SetObjectArrayElement(env, error_out, 0, jreason);
        }
        return 0;
    }
    return to_handle(w);
}

JNIEXPORT jstring JNICALL Java_io_rdmatrace_verbs_RdmaCm_loadedPath0(JNIEnv *env, jclass cls, jlong cm)
{
    struct cmwrap *w = check_cm(env, cm);
    return w != NULL ? (*env)->NewStringUTF(env, w->path) : NULL;
}

/* C's names of the CM lists, "NAME:A,B,;..." as the ring header writes them, for Java to compare. */
JNIEXPORT jstring JNICALL Java_io_rdmatrace_verbs_RdmaCm_layoutNames0(JNIEnv *env, jclass cls)
{
#define NAME_(n) #n ","
    static const char names[] = "CM_FUNC:" CM_FUNC_LIST(NAME_) ";CM_CALL:" CM_CALL_SLOTS(NAME_)
        ";CM_EVENT:" CM_EVENT_SLOTS(NAME_) ";CM_PDATA:" CM_PDATA_SLOTS(NAME_) ";TEXT:" TEXT_SLOTS(NAME_) ";";
#undef NAME_
    return (*env)->NewStringUTF(env, names);
}

JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_RdmaCm_createEventChannel0(JNIEnv *env, jclass cls, jlong cm, jlong io)
{
    struct cmwrap *w = check_cm(env, cm);
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || s == NULL) {
        return 0;
    }
    errno = 0;
    int64_t t0 = now_ns();
    struct rdma_event_channel *ch = w->create_event_channel();
    int64_t t1 = now_ns();
    status_from_pointer(s, ch, errno, t1 - t0);
    struct call c = {.func = CMF_rdma_create_event_channel};
    if (ch != NULL) {
        c.a[0] = (int64_t)(uintptr_t)ch;
        c.a[1] = ch->fd;
    }
    put_call(s + CALL_PAYLOAD, &c);
    return to_handle(ch);
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_RdmaCm_destroyEventChannel0(JNIEnv *env, jclass cls, jlong cm,
                                                                           jlong channel, jlong io)
{
    struct cmwrap *w = check_cm(env, cm);
    struct rdma_event_channel *ch = check_handle(env, channel, "event channel");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || ch == NULL || s == NULL) {
        return;
    }
    int64_t t0 = now_ns();
    w->destroy_event_channel(ch);
    int64_t t1 = now_ns();
    status_cm(s, 0, 0, t1 - t0);
    struct call c = {.func = CMF_rdma_destroy_event_channel, .a = {(int64_t)(uintptr_t)ch}};
    put_call(s + CALL_PAYLOAD, &c);
}

JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_RdmaCm_createId0(JNIEnv *env, jclass cls, jlong cm, jlong channel,
                                                                 jint ps, jlong io)
{
    struct cmwrap *w = check_cm(env, cm);
    struct rdma_event_channel *ch = check_handle(env, channel, "event channel");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || ch == NULL || s == NULL) {
        return 0;
    }
    struct rdma_cm_id *id = NULL;
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->create_id(ch, &id, NULL, (enum rdma_port_space)ps);
    int64_t t1 = now_ns();
    status_cm(s, ret, errno, t1 - t0);
    struct call c = {.func = CMF_rdma_create_id, .id = ret == 0 ? id : NULL,
                     .a = {(int64_t)(uintptr_t)ch, ps, ret == 0 ? id->qp_type : 0}};
    put_call(s + CALL_PAYLOAD, &c);
    return ret == 0 ? to_handle(id) : 0;
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_RdmaCm_destroyId0(JNIEnv *env, jclass cls, jlong cm, jlong id_handle,
                                                                 jlong io)
{
    struct cmwrap *w = check_cm(env, cm);
    struct rdma_cm_id *id = check_handle(env, id_handle, "rdma_cm id");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || id == NULL || s == NULL) {
        return;
    }
    struct call c = {.func = CMF_rdma_destroy_id, .id = id};
    put_call(s + CALL_PAYLOAD, &c);   /* before: the id's addresses die with it */
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->destroy_id(id);
    int64_t t1 = now_ns();
    status_cm(s, ret, errno, t1 - t0);
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_RdmaCm_bindAddr0(JNIEnv *env, jclass cls, jlong cm, jlong id_handle,
                                                                jstring ip, jint port, jlong io)
{
    struct cmwrap *w = check_cm(env, cm);
    struct rdma_cm_id *id = check_handle(env, id_handle, "rdma_cm id");
    int64_t *s = check_slots(env, io, "call");
    struct sockaddr_in addr;
    if (w == NULL || id == NULL || s == NULL || ipv4(env, ip, port, &addr) != 0) {
        return;
    }
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->bind_addr(id, (struct sockaddr *)&addr);
    int64_t t1 = now_ns();
    status_cm(s, ret, errno, t1 - t0);
    struct call c = {.func = CMF_rdma_bind_addr, .id = id, .src = (struct sockaddr *)&addr};
    put_call(s + CALL_PAYLOAD, &c);
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_RdmaCm_resolveAddr0(JNIEnv *env, jclass cls, jlong cm,
                                                                   jlong id_handle, jstring src_ip, jstring dst_ip,
                                                                   jint port, jint timeout_ms, jlong io)
{
    struct cmwrap *w = check_cm(env, cm);
    struct rdma_cm_id *id = check_handle(env, id_handle, "rdma_cm id");
    int64_t *s = check_slots(env, io, "call");
    struct sockaddr_in src, dst;
    if (w == NULL || id == NULL || s == NULL || ipv4(env, dst_ip, port, &dst) != 0
        || (src_ip != NULL && ipv4(env, src_ip, 0, &src) != 0)) {
        return;
    }
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->resolve_addr(id, src_ip != NULL ? (struct sockaddr *)&src : NULL, (struct sockaddr *)&dst,
                              timeout_ms);
    int64_t t1 = now_ns();
    status_cm(s, ret, errno, t1 - t0);
    /* the arguments, as the tracer records them (SRC empty when none was given) */
    struct sockaddr_in none = {.sin_family = AF_UNSPEC};
    struct call c = {.func = CMF_rdma_resolve_addr, .id = id, .a = {timeout_ms},
                     .src = src_ip != NULL ? (struct sockaddr *)&src : (struct sockaddr *)&none,
                     .dst = (struct sockaddr *)&dst};
    put_call(s + CALL_PAYLOAD, &c);
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_RdmaCm_resolveRoute0(JNIEnv *env, jclass cls, jlong cm,
                                                                    jlong id_handle, jint timeout_ms, jlong io)
{
    struct cmwrap *w = check_cm(env, cm);
    struct rdma_cm_id *id = check_handle(env, id_handle, "rdma_cm id");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || id == NULL || s == NULL) {
        return;
    }
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->resolve_route(id, timeout_ms);
    int64_t t1 = now_ns();
    status_cm(s, ret, errno, t1 - t0);
    struct call c = {.func = CMF_rdma_resolve_route, .id = id, .a = {timeout_ms}};
    put_call(s + CALL_PAYLOAD, &c);
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_RdmaCm_listen0(JNIEnv *env, jclass cls, jlong cm, jlong id_handle,
                                                              jint backlog, jlong io)
{
    struct cmwrap *w = check_cm(env, cm);
    struct rdma_cm_id *id = check_handle(env, id_handle, "rdma_cm id");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || id == NULL || s == NULL) {
        return;
    }
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->listen(id, backlog);
    int64_t t1 = now_ns();
    status_cm(s, ret, errno, t1 - t0);
    struct call c = {.func = CMF_rdma_listen, .id = id, .a = {backlog}};
    put_call(s + CALL_PAYLOAD, &c);
}

/* rdma_connect (accept false) or rdma_accept with a conn_param built from the arguments. */
JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_RdmaCm_connect0(JNIEnv *env, jclass cls, jlong cm, jlong id_handle,
                                                               jboolean accept, jint responder_resources,
                                                               jint initiator_depth, jint retry_count,
                                                               jint rnr_retry_count, jint qp_num, jbyteArray pdata,
                                                               jlong io)
{
    struct cmwrap *w = check_cm(env, cm);
    struct rdma_cm_id *id = check_handle(env, id_handle, "rdma_cm id");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || id == NULL || s == NULL) {
        return;
    }
    uint8_t bytes[256];
    jsize len = pdata != NULL ? (*env)->GetArrayLength(env, pdata) : 0;
    if (len > 255) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "private data of %d bytes: a conn_param holds at most 255", (int)len);
        return;
    }
    if (len > 0) {
        (*env)->GetByteArrayRegion(env, pdata, 0, len, (jbyte *)bytes);
    }
    struct rdma_conn_param p = {.responder_resources = (uint8_t)responder_resources,
                                .initiator_depth = (uint8_t)initiator_depth,
                                .retry_count = (uint8_t)retry_count,
                                .rnr_retry_count = (uint8_t)rnr_retry_count,
                                .qp_num = (uint32_t)qp_num,
                                .private_data = len > 0 ? bytes : NULL,
                                .private_data_len = (uint8_t)len};
    errno = 0;
    int64_t t0 = now_ns();
    int ret = accept ? w->accept(id, &p) : w->connect(id, &p);
    int64_t t1 = now_ns();
    status_cm(s, ret, errno, t1 - t0);
    struct call c = {.func = accept ? CMF_rdma_accept : CMF_rdma_connect, .id = id,
                     .a = {p.responder_resources, p.initiator_depth, p.flow_control, p.retry_count,
                           p.rnr_retry_count, p.srq, p.qp_num, 1},
                     .pdata = p.private_data, .plen = p.private_data_len};
    put_call(s + CALL_PAYLOAD, &c);
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_RdmaCm_reject0(JNIEnv *env, jclass cls, jlong cm, jlong id_handle,
                                                              jbyteArray pdata, jlong io)
{
    struct cmwrap *w = check_cm(env, cm);
    struct rdma_cm_id *id = check_handle(env, id_handle, "rdma_cm id");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || id == NULL || s == NULL) {
        return;
    }
    uint8_t bytes[256];
    jsize len = pdata != NULL ? (*env)->GetArrayLength(env, pdata) : 0;
    if (len > 255) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "private data of %d bytes: rdma_reject takes at most 255", (int)len);
        return;
    }
    if (len > 0) {
        (*env)->GetByteArrayRegion(env, pdata, 0, len, (jbyte *)bytes);
    }
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->reject(id, len > 0 ? bytes : NULL, (uint8_t)len);
    int64_t t1 = now_ns();
    status_cm(s, ret, errno, t1 - t0);
    struct call c = {.func = CMF_rdma_reject, .id = id, .pdata = len > 0 ? bytes : NULL, .plen = (unsigned)len};
    put_call(s + CALL_PAYLOAD, &c);
}

/* rdma_establish (disconnect false) or rdma_disconnect. */
JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_RdmaCm_establish0(JNIEnv *env, jclass cls, jlong cm,
                                                                 jlong id_handle, jboolean disconnect, jlong io)
{
    struct cmwrap *w = check_cm(env, cm);
    struct rdma_cm_id *id = check_handle(env, id_handle, "rdma_cm id");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || id == NULL || s == NULL) {
        return;
    }
    errno = 0;
    int64_t t0 = now_ns();
    int ret = disconnect ? w->disconnect(id) : w->establish(id);
    int64_t t1 = now_ns();
    status_cm(s, ret, errno, t1 - t0);
    struct call c = {.func = disconnect ? CMF_rdma_disconnect : CMF_rdma_establish, .id = id};
    put_call(s + CALL_PAYLOAD, &c);
}

/*
 * Waits up to timeout_ms for an event on the channel (poll on its fd), then rdma_get_cm_event.
 * Returns the event (its CM_EVENT block filled, duration = the rdma_get_cm_event call alone), or 0:
 * a timeout (status ok, EXTRA 1) or a failure (status with errno, and a CM_CALL block of
 * rdma_get_cm_event, as the tracer records only failed ones).
 */
JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_RdmaCm_getCmEvent0(JNIEnv *env, jclass cls, jlong cm,
                                                                   jlong channel, jint timeout_ms, jlong io)
{
    struct cmwrap *w = check_cm(env, cm);
    struct rdma_event_channel *ch = check_handle(env, channel, "event channel");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || ch == NULL || s == NULL) {
        return 0;
    }
    struct pollfd pfd = {.fd = ch->fd, .events = POLLIN};
    int n;
    do {
        n = poll(&pfd, 1, timeout_ms);
    } while (n < 0 && errno == EINTR);
    if (n == 0) {
        status_cm(s, 0, 0, 0);
        s[STATUS_EXTRA] = 1;
        return 0;
    }
    struct rdma_cm_event *ev = NULL;
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->get_cm_event(ch, &ev);
    int64_t t1 = now_ns();
    status_cm(s, ret, errno, t1 - t0);
    int64_t *p = s + CALL_PAYLOAD;
    if (ret != 0 || ev == NULL) {
        struct call c = {.func = CMF_rdma_get_cm_event, .a = {(int64_t)(uintptr_t)ch}};
        put_call(p, &c);
        return 0;
    }
    const struct rdma_cm_id *id = ev->id;
    unsigned plen;
    const void *pdata = tr_cm_event_block(p, ev, &plen);
    put_addr(p + CME_NSLOTS, id != NULL ? &id->route.addr.src_addr : NULL);
    put_addr(p + CME_NSLOTS + TX_NSLOTS, id != NULL ? &id->route.addr.dst_addr : NULL);
    tr_cm_pdata_block(p + CME_NSLOTS + 2 * TX_NSLOTS, pdata, plen);
    s[STATUS_EXTRA] = t1;   /* when it was returned (monotonic ns), as the tracer dates events */
    return to_handle(ev);
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_RdmaCm_ackCmEvent0(JNIEnv *env, jclass cls, jlong cm, jlong event,
                                                                  jlong io)
{
    struct cmwrap *w = check_cm(env, cm);
    struct rdma_cm_event *ev = check_handle(env, event, "rdma_cm event");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || ev == NULL || s == NULL) {
        return;
    }
    struct call c = {.func = CMF_rdma_ack_cm_event, .id = ev->id, .a = {ev->event, ev->status}};
    put_call(s + CALL_PAYLOAD, &c);   /* before: the event is freed by the ack */
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->ack_cm_event(ev);
    int64_t t1 = now_ns();
    status_cm(s, ret, errno, t1 - t0);
}

/* rdma_init_qp_attr: the CM_CALL block, then the QP_ATTR block (+ two AH blocks) it returned. */
JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_RdmaCm_initQpAttr0(JNIEnv *env, jclass cls, jlong cm,
                                                                  jlong id_handle, jint state, jlong io)
{
    struct cmwrap *w = check_cm(env, cm);
    struct rdma_cm_id *id = check_handle(env, id_handle, "rdma_cm id");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || id == NULL || s == NULL) {
        return;
    }
    struct ibv_qp_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.qp_state = (enum ibv_qp_state)state;
    int mask = 0;
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->init_qp_attr(id, &attr, &mask);
    int64_t t1 = now_ns();
    status_cm(s, ret, errno, t1 - t0);
    struct call c = {.func = CMF_rdma_init_qp_attr, .id = id, .a = {state, ret == 0 ? mask : 0}};
    put_call(s + CALL_PAYLOAD, &c);
    qp_attr_to_slots(&attr, s + CALL_PAYLOAD + CM_CALL_BLOCK);
}
