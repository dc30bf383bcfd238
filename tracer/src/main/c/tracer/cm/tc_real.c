/*
 * Loading the real librdmacm and resolving every symbol it exports, per version.
 *
 * It is opened by absolute path (RDMATRACE_REAL_RDMACM, set by `record`; without it the first
 * librdmacm.so.1 in the standard library folders that is not this library) with RTLD_LOCAL |
 * RTLD_DEEPBIND, as the tracing libibverbs opens the real libibverbs: its internal calls to its own
 * exports (rdma_create_ep calling rdma_create_id, ...) stay inside it and are not recorded twice.
 * Its libibverbs.so.1 is the tracing one (the first object of that soname), so the QPs and modifies
 * the CM makes on the program's behalf are recorded as verbs calls.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tc_loc.h"

#define TC_REAL_DEF_(name, ver) __typeof__(name) *real_##name;
TC_WRAP_LIST(TC_REAL_DEF_)

#define TC_FWD_COUNT_(name, ver) +1
enum { TC_FWD_COUNT = 0 TC_FWD_LIST(TC_FWD_COUNT_) };

/* What a function the real library lacks does: nothing, -1 / NULL with errno ENOSYS. */
static long tc_unresolved(void)
{
    errno = ENOSYS;
    return -1;
}
static long tc_unresolved_ptr(void)
{
    errno = ENOSYS;
    return 0;
}

__attribute__((visibility("hidden"))) void *tc_fwd_ptr[TC_FWD_COUNT] = {
    [0 ... TC_FWD_COUNT - 1] = (void *)tc_unresolved,
};

#define TC_FWD_NAME_(name, ver) {#name, ver},
static const struct {
    const char *name;
    const char *version;
} fwd_syms[TC_FWD_COUNT] = {TC_FWD_LIST(TC_FWD_NAME_)};

static const char *const standard_dirs[] = {
    "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64", "/usr/lib", "/lib", NULL,
};

int64_t tc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static const char *find_real(const char *self_path, char *buf, size_t cap)
{
    const char *env = getenv(TC_ENV_REAL);
    if (env != NULL && env[0] != '\0') {
        return env;
    }
    for (int i = 0; standard_dirs[i] != NULL; i++) {
        snprintf(buf, cap, "%s/librdmacm.so.1", standard_dirs[i]);
        if (access(buf, R_OK) == 0 && !same_file(buf, self_path)) {
            return buf;
        }
    }
    return NULL;
}

/* Functions returning pointers get the NULL stub, the others -1. */
static int returns_pointer(const char *name)
{
    static const char *const ptr_fns[] = {"rdma_create_event_channel", "rdma_get_devices", "rdma_event_str", NULL};
    for (int i = 0; ptr_fns[i] != NULL; i++) {
        if (strcmp(ptr_fns[i], name) == 0) {
            return 1;
        }
    }
    return 0;
}

__attribute__((constructor)) static void tc_init(void)
{
    Dl_info self;
    const char *self_path = dladdr((void *)tc_init, &self) != 0 ? self.dli_fname : "";
    char buf[512];
    const char *path = find_real(self_path, buf, sizeof buf);
    void *h = NULL;
    if (path == NULL) {
        fprintf(stderr, "rdmatrace tracer: no real librdmacm.so.1 found; set %s to its path\n", TC_ENV_REAL);
    } else if (same_file(path, self_path)) {
        fprintf(stderr, "rdmatrace tracer: %s=%s is the tracer itself; rdma_cm calls will fail\n", TC_ENV_REAL, path);
    } else if ((h = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND)) == NULL) {
        fprintf(stderr, "rdmatrace tracer: cannot load the real librdmacm: %s\n", dlerror());
    }
#define TC_RESOLVE_(name, ver)                                                               \
    real_##name = h != NULL ? (__typeof__(name) *)dlvsym(h, #name, ver) : NULL;              \
    if (real_##name == NULL) {                                                               \
        real_##name = (__typeof__(name) *)(void *)(returns_pointer(#name) ? tc_unresolved_ptr \
                                                                           : tc_unresolved); \
    }
    TC_WRAP_LIST(TC_RESOLVE_)
    for (int i = 0; h != NULL && i < TC_FWD_COUNT; i++) {
        void *p = dlvsym(h, fwd_syms[i].name, fwd_syms[i].version);
        if (p != NULL) {
            tc_fwd_ptr[i] = p;
        } else if (returns_pointer(fwd_syms[i].name)) {
            tc_fwd_ptr[i] = (void *)tc_unresolved_ptr;
        }
    }
}
