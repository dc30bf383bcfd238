/* Loading a libibverbs (Verbs), the device list, softverbs extras, layouts and errno names. */
#include <string.h>

#include "jni_util.h"

/* Bits of Verbs.features0: which optional exports this library has. */
enum {
    FEATURE_SOFTVERBS_CONFIGURE = 1 << 0,
    FEATURE_SOFTVERBS_LAST_ERROR = 1 << 1,
    FEATURE_SOFTVERBS_COUNTERS = 1 << 2,
    FEATURE_QUERY_GID_EX = 1 << 3,
    FEATURE_SOFTVERBS_WIRE = 1 << 4,
};

JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_Verbs_open0(JNIEnv *env, jclass cls, jstring path,
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
    struct ibvwrap *w = ibvwrap_open(cpath, reason, sizeof(reason));
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

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_Verbs_close0(JNIEnv *env, jclass cls, jlong lib)
{
    struct ibvwrap *w = check_lib(env, lib);
    if (w != NULL) {
        ibvwrap_close(w);
    }
}

JNIEXPORT jstring JNICALL Java_io_rdmatrace_verbs_Verbs_loadedPath0(JNIEnv *env, jclass cls, jlong lib)
{
    struct ibvwrap *w = check_lib(env, lib);
    return w != NULL ? (*env)->NewStringUTF(env, w->path) : NULL;
}

JNIEXPORT jint JNICALL Java_io_rdmatrace_verbs_Verbs_features0(JNIEnv *env, jclass cls, jlong lib)
{
    struct ibvwrap *w = check_lib(env, lib);
    if (w == NULL) {
        return 0;
    }
    return (w->softverbs_configure ? FEATURE_SOFTVERBS_CONFIGURE : 0)
         | (w->softverbs_last_error ? FEATURE_SOFTVERBS_LAST_ERROR : 0)
         | (w->softverbs_query_counters ? FEATURE_SOFTVERBS_COUNTERS : 0)
         | (w->query_gid_ex ? FEATURE_QUERY_GID_EX : 0)
         | (w->softverbs_wire ? FEATURE_SOFTVERBS_WIRE : 0);
}

JNIEXPORT jstring JNICALL Java_io_rdmatrace_verbs_Verbs_softverbsConfigure0(JNIEnv *env, jclass cls, jlong lib,
                                                                            jstring spec, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || s == NULL || !require_symbol(env, w, w->softverbs_configure, "softverbs_configure")) {
        return NULL;
    }
    /* a NULL spec sends softverbs back to SOFTVERBS_DEVICES */
    const char *cspec = spec != NULL ? (*env)->GetStringUTFChars(env, spec, NULL) : NULL;
    if (spec != NULL && cspec == NULL) {
        return NULL;
    }
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->softverbs_configure(cspec);
    int64_t t1 = now_ns();
    int err = errno;
    if (cspec != NULL) {
        (*env)->ReleaseStringUTFChars(env, spec, cspec);
    }
    status_from_errno_ret(s, ret, err, t1 - t0);
    if (ret != 0 && w->softverbs_last_error != NULL) {
        const char *why = w->softverbs_last_error();
        return why != NULL ? (*env)->NewStringUTF(env, why) : NULL;
    }
    return NULL;
}

/* softverbs_wire(dir): 0 or the errno; -1 when the library has no such function. */
JNIEXPORT jint JNICALL Java_io_rdmatrace_verbs_Verbs_softverbsWire0(JNIEnv *env, jclass cls, jlong lib, jstring dir)
{
    struct ibvwrap *w = check_lib(env, lib);
    if (w == NULL || w->softverbs_wire == NULL) {
        return -1;
    }
    const char *cdir = dir != NULL ? (*env)->GetStringUTFChars(env, dir, NULL) : NULL;
    if (dir != NULL && cdir == NULL) {
        return -1;
    }
    int ret = w->softverbs_wire(cdir);
    if (cdir != NULL) {
        (*env)->ReleaseStringUTFChars(env, dir, cdir);
    }
    return ret;
}

JNIEXPORT jstring JNICALL Java_io_rdmatrace_verbs_Verbs_softverbsLastError0(JNIEnv *env, jclass cls, jlong lib)
{
    struct ibvwrap *w = check_lib(env, lib);
    if (w == NULL || w->softverbs_last_error == NULL) {
        return NULL;
    }
    const char *why = w->softverbs_last_error();
    return why != NULL ? (*env)->NewStringUTF(env, why) : NULL;
}

JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_Verbs_getDeviceList0(JNIEnv *env, jclass cls, jlong lib, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || s == NULL) {
        return 0;
    }
    int num = 0;
    errno = 0;
    int64_t t0 = now_ns();
    struct ibv_device **list = w->get_device_list(&num);
    int64_t t1 = now_ns();
    int err = errno;
    status_from_pointer(s, list, err, t1 - t0);
    s[STATUS_EXTRA] = list != NULL ? num : 0;
    return to_handle(list);
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_DeviceList_freeDeviceList0(JNIEnv *env, jclass cls, jlong lib,
                                                                          jlong list, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_device **devices = check_handle(env, list, "device list");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || devices == NULL || s == NULL) {
        return;
    }
    int64_t t0 = now_ns();
    w->free_device_list(devices);
    int64_t t1 = now_ns();
    status_from_errno_ret(s, 0, 0, t1 - t0);
}

JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_DeviceList_deviceAt0(JNIEnv *env, jclass cls, jlong list,
                                                                     jint index, jint count)
{
    struct ibv_device **devices = check_handle(env, list, "device list");
    if (devices == NULL) {
        return 0;
    }
    if (index < 0 || index >= count) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "device index %d is outside 0..%d", index, count - 1);
        return 0;
    }
    return to_handle(devices[index]);
}

JNIEXPORT jstring JNICALL Java_io_rdmatrace_verbs_NativeLayout_names0(JNIEnv *env, jclass cls, jint id)
{
    const char *names = layout_names(id);
    if (names == NULL) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "unknown layout id %d", id);
        return NULL;
    }
    return (*env)->NewStringUTF(env, names);
}

JNIEXPORT jstring JNICALL Java_io_rdmatrace_verbs_Errno_name0(JNIEnv *env, jclass cls, jint err)
{
    const char *name = strerrorname_np(err);
    return name != NULL ? (*env)->NewStringUTF(env, name) : NULL;
}

JNIEXPORT jstring JNICALL Java_io_rdmatrace_verbs_Errno_describe0(JNIEnv *env, jclass cls, jint err)
{
    const char *text = strerrordesc_np(err);
    return text != NULL ? (*env)->NewStringUTF(env, text) : NULL;
}
