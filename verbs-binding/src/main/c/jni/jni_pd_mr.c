/* Protection domains, memory regions, and the page-aligned native memory they register. */
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jni_util.h"

enum { MR_LKEY, MR_RKEY, MR_ADDR, MR_LENGTH }; /* payload slots of regMr0 */

JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_Context_allocPd0(JNIEnv *env, jclass cls, jlong lib, jlong context,
                                                                 jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_context *ctx = check_handle(env, context, "context");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || ctx == NULL || s == NULL || !require_symbol(env, w, w->alloc_pd, "ibv_alloc_pd")) {
        return 0;
    }
    errno = 0;
    int64_t t0 = now_ns();
    struct ibv_pd *pd = w->alloc_pd(ctx);
    int64_t t1 = now_ns();
    status_from_pointer(s, pd, errno, t1 - t0);
    return to_handle(pd);
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_ProtectionDomain_deallocPd0(JNIEnv *env, jclass cls, jlong lib,
                                                                           jlong pd_handle, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_pd *pd = check_handle(env, pd_handle, "protection domain");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || pd == NULL || s == NULL || !require_symbol(env, w, w->dealloc_pd, "ibv_dealloc_pd")) {
        return;
    }
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->dealloc_pd(pd);
    int64_t t1 = now_ns();
    status_from_errno_ret(s, ret, errno, t1 - t0);
}

JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_ProtectionDomain_regMr0(JNIEnv *env, jclass cls, jlong lib,
                                                                        jlong pd_handle, jlong addr, jlong length,
                                                                        jint access, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_pd *pd = check_handle(env, pd_handle, "protection domain");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || pd == NULL || s == NULL || !require_symbol(env, w, w->reg_mr, "ibv_reg_mr")) {
        return 0;
    }
    if (length < 0) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "memory region length %lld is negative", (long long)length);
        return 0;
    }
    errno = 0;
    int64_t t0 = now_ns();
    struct ibv_mr *mr = w->reg_mr(pd, from_handle(addr), (size_t)length, access);
    int64_t t1 = now_ns();
    status_from_pointer(s, mr, errno, t1 - t0);
    if (mr != NULL) {
        int64_t *o = s + CALL_PAYLOAD;
        o[MR_LKEY] = mr->lkey;
        o[MR_RKEY] = mr->rkey;
        o[MR_ADDR] = to_handle(mr->addr);
        o[MR_LENGTH] = (int64_t)mr->length;
    }
    return to_handle(mr);
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_MemoryRegion_deregMr0(JNIEnv *env, jclass cls, jlong lib,
                                                                     jlong mr_handle, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_mr *mr = check_handle(env, mr_handle, "memory region");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || mr == NULL || s == NULL || !require_symbol(env, w, w->dereg_mr, "ibv_dereg_mr")) {
        return;
    }
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->dereg_mr(mr);
    int64_t t1 = now_ns();
    status_from_errno_ret(s, ret, errno, t1 - t0);
}

JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_NativeMemory_pageSize0(JNIEnv *env, jclass cls)
{
    return sysconf(_SC_PAGESIZE);
}

/* Zeroed memory aligned to `alignment` (a power of two), or 0 when the allocation fails. */
JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_NativeMemory_allocate0(JNIEnv *env, jclass cls, jlong size,
                                                                       jlong alignment)
{
    if (size <= 0 || alignment <= 0 || (alignment & (alignment - 1)) != 0 || (alignment % sizeof(void *)) != 0) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "size %lld must be positive and alignment %lld a power of two",
                  (long long)size, (long long)alignment);
        return 0;
    }
    void *p = NULL;
    if (posix_memalign(&p, (size_t)alignment, (size_t)size) != 0) {
        return 0;
    }
    memset(p, 0, (size_t)size);
    return to_handle(p);
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_NativeMemory_free0(JNIEnv *env, jclass cls, jlong address)
{
    free(from_handle(address));
}

JNIEXPORT jobject JNICALL Java_io_rdmatrace_verbs_NativeMemory_view0(JNIEnv *env, jclass cls, jlong address,
                                                                     jlong length)
{
    if (address == 0 || length < 0) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "cannot view %lld bytes at 0x%llx", (long long)length,
                  (unsigned long long)address);
        return NULL;
    }
    return (*env)->NewDirectByteBuffer(env, from_handle(address), length);
}

JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_NativeMemory_address0(JNIEnv *env, jclass cls, jobject buffer)
{
    void *p = buffer != NULL ? (*env)->GetDirectBufferAddress(env, buffer) : NULL;
    if (p == NULL) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "not a direct buffer");
    }
    return to_handle(p);
}

/* Bytes the C heap has handed out (all arenas plus mmap'ed chunks): for leak checks. */
JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_NativeMemory_mallocInUse0(JNIEnv *env, jclass cls)
{
    struct mallinfo2 mi = mallinfo2();
    return (jlong)(mi.uordblks + mi.hblkhd);
}
