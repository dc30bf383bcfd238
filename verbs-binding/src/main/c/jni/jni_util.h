/* What every JNI entry point shares: argument checks, the one throw helper, call timing and status. */
#ifndef RDMATRACE_JNI_UTIL_H
#define RDMATRACE_JNI_UTIL_H

#include <errno.h>
#include <jni.h>
#include <stdint.h>
#include <time.h>

#include "ibvwrap.h"
#include "layout.h"
#include "tr_clock.h"

#define EXC_ILLEGAL_ARGUMENT "java/lang/IllegalArgumentException"
#define EXC_ILLEGAL_STATE    "java/lang/IllegalStateException"
#define EXC_UNSUPPORTED      "java/lang/UnsupportedOperationException"
#define EXC_OUT_OF_MEMORY    "java/lang/OutOfMemoryError"

/* Throws a new exception of class `cls` with a printf-style message; returns 0 for convenience. */
int jni_throw(JNIEnv *env, const char *cls, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* CLOCK_MONOTONIC from the TSC, as the tracing libibverbs stamps calls (record/tr_clock.h):
 * two clock_gettime per call were a fifth of a query_qp's cost over C. */
static inline int64_t now_ns(void)
{
    return tr_now();
}

static inline void *from_handle(jlong handle)
{
    return (void *)(intptr_t)handle;
}

static inline jlong to_handle(const void *p)
{
    return (jlong)(intptr_t)p;
}

/*
 * Argument checks; each throws IllegalArgumentException naming the argument and returns NULL
 * (or 0), so entry points can write `if (!w) return ...;`.
 */
struct ibvwrap *check_lib(JNIEnv *env, jlong lib);
void *check_handle(JNIEnv *env, jlong handle, const char *what);
int64_t *check_slots(JNIEnv *env, jlong address, const char *what);

/* The verb is optional in the table and this library lacks it: throws UnsupportedOperationException. */
int require_symbol(JNIEnv *env, const struct ibvwrap *w, const void *fn, const char *name);

/*
 * Status conventions of libibverbs (rdma-facts §2.14), written to the STATUS slots:
 * verbs that return 0 or a positive errno; verbs that return a pointer (NULL + errno);
 * verbs that return a count (>= 0) or a negative value with errno.
 */
void status_from_errno_ret(int64_t *s, int ret, int err, int64_t duration_ns);
void status_from_pointer(int64_t *s, const void *result, int err, int64_t duration_ns);
void status_from_count(int64_t *s, int ret, int err, int64_t duration_ns);

#endif
