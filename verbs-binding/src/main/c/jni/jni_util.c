/* Argument checks, the throw helper and status conventions shared by every JNI entry point. */
#include "jni_util.h"

#include <stdarg.h>
#include <stdio.h>

int jni_throw(JNIEnv *env, const char *cls, const char *fmt, ...)
{
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof(message), fmt, ap);
    va_end(ap);
    if ((*env)->ExceptionCheck(env)) {
        return 0; /* keep the first exception: it names the real cause */
    }
    jclass c = (*env)->FindClass(env, cls);
    if (c != NULL) {
        (*env)->ThrowNew(env, c, message);
    }
    return 0;
}

struct ibvwrap *check_lib(JNIEnv *env, jlong lib)
{
    if (lib == 0) {
        jni_throw(env, EXC_ILLEGAL_STATE, "libibverbs table is not loaded");
        return NULL;
    }
    return from_handle(lib);
}

void *check_handle(JNIEnv *env, jlong handle, const char *what)
{
    if (handle == 0) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "%s handle is 0 (closed or never created)", what);
        return NULL;
    }
    return from_handle(handle);
}

int64_t *check_slots(JNIEnv *env, jlong address, const char *what)
{
    if (address == 0 || (address & 7) != 0) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "%s buffer address 0x%llx is null or not 8-byte aligned", what,
                  (unsigned long long)address);
        return NULL;
    }
    return from_handle(address);
}

int require_symbol(JNIEnv *env, const struct ibvwrap *w, const void *fn, const char *name)
{
    if (fn == NULL) {
        jni_throw(env, EXC_UNSUPPORTED, "%s is not exported by %s", name, w->path);
        return 0;
    }
    return 1;
}

void status_from_errno_ret(int64_t *s, int ret, int err, int64_t duration_ns)
{
    s[STATUS_RET] = ret;
    s[STATUS_ERRNO] = ret == 0 ? 0 : (ret > 0 ? ret : (err != 0 ? err : -ret));
    s[STATUS_DURATION_NS] = duration_ns;
}

void status_from_pointer(int64_t *s, const void *result, int err, int64_t duration_ns)
{
    s[STATUS_RET] = result != NULL ? 0 : -1;
    s[STATUS_ERRNO] = result != NULL ? 0 : err;
    s[STATUS_DURATION_NS] = duration_ns;
}

void status_from_count(int64_t *s, int ret, int err, int64_t duration_ns)
{
    s[STATUS_RET] = ret;
    s[STATUS_ERRNO] = ret >= 0 ? 0 : (err != 0 ? err : -ret);
    s[STATUS_DURATION_NS] = duration_ns;
}
