/* Address handles (UD destinations). */
#include "codec.h"
#include "jni_util.h"

JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_ProtectionDomain_createAh0(JNIEnv *env, jclass cls, jlong lib,
                                                                           jlong pd_handle, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_pd *pd = check_handle(env, pd_handle, "protection domain");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || pd == NULL || s == NULL || !require_symbol(env, w, w->create_ah, "ibv_create_ah")) {
        return 0;
    }
    struct ibv_ah_attr attr;
    ah_attr_from_slots(s + CALL_PAYLOAD, &attr);
    errno = 0;
    int64_t t0 = now_ns();
    struct ibv_ah *ah = w->create_ah(pd, &attr);
    int64_t t1 = now_ns();
    status_from_pointer(s, ah, errno, t1 - t0);
    return to_handle(ah);
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_AddressHandle_destroy0(JNIEnv *env, jclass cls, jlong lib,
                                                                      jlong ah_handle, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_ah *ah = check_handle(env, ah_handle, "address handle");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || ah == NULL || s == NULL || !require_symbol(env, w, w->destroy_ah, "ibv_destroy_ah")) {
        return;
    }
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->destroy_ah(ah);
    int64_t t1 = now_ns();
    status_from_errno_ret(s, ret, errno, t1 - t0);
}
