/* Devices and contexts: describe/open a device, close it, query device/port/GID/P_Key, counters. */
#include <endian.h>
#include <string.h>

#include "codec.h"
#include "jni_util.h"

enum { DEVICE_NODE_TYPE, DEVICE_TRANSPORT_TYPE, DEVICE_GUID }; /* payload slots of describe0 */

JNIEXPORT jstring JNICALL Java_io_rdmatrace_verbs_Device_describe0(JNIEnv *env, jclass cls, jlong lib,
                                                                   jlong device, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_device *dev = check_handle(env, device, "device");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || dev == NULL || s == NULL) {
        return NULL;
    }
    int64_t *out = s + CALL_PAYLOAD;
    out[DEVICE_NODE_TYPE] = dev->node_type;
    out[DEVICE_TRANSPORT_TYPE] = dev->transport_type;
    out[DEVICE_GUID] = w->get_device_guid != NULL ? (int64_t)be64toh(w->get_device_guid(dev)) : 0;
    const char *name = w->get_device_name(dev);
    return (*env)->NewStringUTF(env, name != NULL ? name : dev->name);
}

JNIEXPORT jstring JNICALL Java_io_rdmatrace_verbs_Device_ibdevPath0(JNIEnv *env, jclass cls, jlong device)
{
    struct ibv_device *dev = check_handle(env, device, "device");
    return dev != NULL ? (*env)->NewStringUTF(env, dev->ibdev_path) : NULL;
}

JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_Device_open0(JNIEnv *env, jclass cls, jlong lib, jlong device,
                                                             jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_device *dev = check_handle(env, device, "device");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || dev == NULL || s == NULL) {
        return 0;
    }
    errno = 0;
    int64_t t0 = now_ns();
    struct ibv_context *ctx = w->open_device(dev);
    int64_t t1 = now_ns();
    status_from_pointer(s, ctx, errno, t1 - t0);
    return to_handle(ctx);
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_Context_close0(JNIEnv *env, jclass cls, jlong lib, jlong context,
                                                              jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_context *ctx = check_handle(env, context, "context");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || ctx == NULL || s == NULL) {
        return;
    }
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->close_device(ctx);
    int64_t t1 = now_ns();
    status_from_errno_ret(s, ret, errno, t1 - t0);
}

JNIEXPORT jstring JNICALL Java_io_rdmatrace_verbs_Context_queryDevice0(JNIEnv *env, jclass cls, jlong lib,
                                                                       jlong context, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_context *ctx = check_handle(env, context, "context");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || ctx == NULL || s == NULL || !require_symbol(env, w, w->query_device, "ibv_query_device")) {
        return NULL;
    }
    struct ibv_device_attr a;
    memset(&a, 0, sizeof(a));
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->query_device(ctx, &a);
    int64_t t1 = now_ns();
    status_from_errno_ret(s, ret, errno, t1 - t0);
    if (ret != 0) {
        return NULL;
    }
    device_attr_to_slots(&a, s + CALL_PAYLOAD);
    char fw[sizeof(a.fw_ver) + 1];
    memcpy(fw, a.fw_ver, sizeof(a.fw_ver));
    fw[sizeof(a.fw_ver)] = '\0';
    return (*env)->NewStringUTF(env, fw);
}

/* The inline ___ibv_query_port of verbs.h, with its fallback going through the table. */
static int query_port_inline(const struct ibvwrap *w, struct ibv_context *ctx, uint8_t port, struct ibv_port_attr *attr)
{
    struct verbs_context *vctx = verbs_get_ctx_op(ctx, query_port);
    if (vctx == NULL) {
        memset(attr, 0, sizeof(*attr));
        return w->query_port(ctx, port, (struct _compat_ibv_port_attr *)attr);
    }
    return vctx->query_port(ctx, port, attr, sizeof(*attr));
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_Context_queryPort0(JNIEnv *env, jclass cls, jlong lib,
                                                                  jlong context, jint port, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_context *ctx = check_handle(env, context, "context");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || ctx == NULL || s == NULL || !require_symbol(env, w, w->query_port, "ibv_query_port")) {
        return;
    }
    if (port < 0 || port > 255) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "port number %d is outside 0..255", port);
        return;
    }
    struct ibv_port_attr a;
    memset(&a, 0, sizeof(a));
    errno = 0;
    int64_t t0 = now_ns();
    int ret = query_port_inline(w, ctx, (uint8_t)port, &a);
    int64_t t1 = now_ns();
    status_from_errno_ret(s, ret, errno, t1 - t0);
    if (ret != 0) {
        return;
    }
    port_attr_to_slots(&a, s + CALL_PAYLOAD);
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_Context_queryGid0(JNIEnv *env, jclass cls, jlong lib,
                                                                 jlong context, jint port, jint index, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_context *ctx = check_handle(env, context, "context");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || ctx == NULL || s == NULL || !require_symbol(env, w, w->query_gid, "ibv_query_gid")) {
        return;
    }
    if (port < 0 || port > 255) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "port number %d is outside 0..255", port);
        return;
    }
    union ibv_gid gid;
    memset(&gid, 0, sizeof(gid));
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->query_gid(ctx, (uint8_t)port, index, &gid);
    int64_t t1 = now_ns();
    /* ibv_query_gid returns -1 with errno set; the helper also accepts a positive errno */
    status_from_errno_ret(s, ret, errno, t1 - t0);
    memcpy(s + CALL_PAYLOAD + GE_GID_0, gid.raw, sizeof(gid.raw));
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_Context_queryGidEx0(JNIEnv *env, jclass cls, jlong lib,
                                                                   jlong context, jint port, jint index, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_context *ctx = check_handle(env, context, "context");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || ctx == NULL || s == NULL || !require_symbol(env, w, w->query_gid_ex, "_ibv_query_gid_ex")) {
        return;
    }
    if (port < 0 || index < 0) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "port %d / GID index %d must not be negative", port, index);
        return;
    }
    struct ibv_gid_entry e;
    memset(&e, 0, sizeof(e));
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->query_gid_ex(ctx, (uint32_t)port, (uint32_t)index, &e, 0, sizeof(e));
    int64_t t1 = now_ns();
    status_from_errno_ret(s, ret, errno, t1 - t0);
    int64_t *o = s + CALL_PAYLOAD;
    memcpy(o + GE_GID_0, e.gid.raw, sizeof(e.gid.raw));
    o[GE_GID_INDEX] = e.gid_index;
    o[GE_PORT_NUM] = e.port_num;
    o[GE_GID_TYPE] = e.gid_type;
    o[GE_NDEV_IFINDEX] = e.ndev_ifindex;
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_Context_queryPkey0(JNIEnv *env, jclass cls, jlong lib,
                                                                  jlong context, jint port, jint index, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_context *ctx = check_handle(env, context, "context");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || ctx == NULL || s == NULL || !require_symbol(env, w, w->query_pkey, "ibv_query_pkey")) {
        return;
    }
    if (port < 0 || port > 255) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "port number %d is outside 0..255", port);
        return;
    }
    __be16 pkey = 0;
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->query_pkey(ctx, (uint8_t)port, index, &pkey);
    int64_t t1 = now_ns();
    status_from_errno_ret(s, ret, errno, t1 - t0);
    s[CALL_PAYLOAD] = be16toh(pkey);
}

/* softverbs counters; names are the library's static strings, copied into Java. */
JNIEXPORT jint JNICALL Java_io_rdmatrace_verbs_Context_queryCounters0(JNIEnv *env, jclass cls, jlong lib,
                                                                      jlong context, jobjectArray names_out,
                                                                      jlongArray values_out, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_context *ctx = check_handle(env, context, "context");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || ctx == NULL || s == NULL
        || !require_symbol(env, w, w->softverbs_query_counters, "softverbs_query_counters")) {
        return 0;
    }
    if (names_out == NULL || values_out == NULL) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "counter output arrays are null");
        return 0;
    }
    enum { MAX_COUNTERS = 256 };
    jsize max = (*env)->GetArrayLength(env, names_out);
    if ((*env)->GetArrayLength(env, values_out) < max) {
        max = (*env)->GetArrayLength(env, values_out);
    }
    if (max > MAX_COUNTERS) {
        max = MAX_COUNTERS;
    }
    const char *names[MAX_COUNTERS];
    uint64_t values[MAX_COUNTERS];
    memset(names, 0, sizeof(names));
    errno = 0;
    int64_t t0 = now_ns();
    int n = w->softverbs_query_counters(ctx, names, values, max);
    int64_t t1 = now_ns();
    status_from_count(s, n, errno, t1 - t0);
    if (n < 0) {
        return n;
    }
    if (n > max) {
        n = max; /* the library has more than we asked for */
    }
    for (int i = 0; i < n; i++) {
        jstring name = (*env)->NewStringUTF(env, names[i] != NULL ? names[i] : "?");
        if (name == NULL) {
            return -1;
        }
        (*env)->SetObjectArrayElement(env, names_out, i, name);
        (*env)->DeleteLocalRef(env, name);
    }
    (*env)->SetLongArrayRegion(env, values_out, 0, n, (const jlong *)values);
    return n;
}
