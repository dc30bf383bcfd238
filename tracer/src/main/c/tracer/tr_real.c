/*
 * Loading the real libibverbs and resolving every symbol it exports, per version.
 *
 * The real library is opened by absolute path with RTLD_LOCAL | RTLD_DEEPBIND: LOCAL keeps its
 * symbols out of the global scope (the program must keep binding to ours), DEEPBIND makes the
 * real library's own calls to its exported functions (and its compat versions) bind inside
 * itself instead of coming back through the tracer. Provider libraries it dlopens (libmlx5, ...)
 * list libibverbs.so.1 as NEEDED; the loader satisfies that with the first object of that soname,
 * the tracer, so providers reach the private IBVERBS_PRIVATE_34 entry points through the
 * trampolines of tr_fwd.S, which jump to the real ones.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tr_loc.h"

#define TR_REAL_DEF_(name, ver) __typeof__(name) *real_##name;
TR_WRAP_LIST(TR_REAL_DEF_)

/* The private ABI exports one data object; it cannot be forwarded, so the tracer owns a copy. */
bool verbs_allow_disassociate_destroy;

#define TR_FWD_COUNT_(name, ver) +1
enum { TR_FWD_COUNT = 0 TR_FWD_LIST(TR_FWD_COUNT_) };

/* What an unresolved forwarded symbol does: nothing, errno ENOSYS (the real library lacks it). */
static long tr_unresolved(void)
{
    errno = ENOSYS;
    return 0;
}

/* Read by the trampolines of tr_fwd.S (hidden: they address it PC-relative). */
__attribute__((visibility("hidden"))) void *tr_fwd_ptr[TR_FWD_COUNT] = {
    [0 ... TR_FWD_COUNT - 1] = (void *)tr_unresolved,
};

#define TR_FWD_NAME_(name, ver) {#name, ver},
static const struct {
    const char *name;
    const char *version;
} fwd_syms[TR_FWD_COUNT] = {TR_FWD_LIST(TR_FWD_NAME_)};

static const char *const standard_dirs[] = {
    "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64", "/usr/lib", "/lib", NULL,
};

static void *real_handle;

static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The system's libibverbs when `record` did not name one: the first standard dir that has it. */
static const char *find_real(const char *self_path, char *buf, size_t cap)
{
    const char *env = getenv(TR_ENV_REAL);
    if (env != NULL && env[0] != '\0') {
        return env;
    }
    for (int i = 0; standard_dirs[i] != NULL; i++) {
        snprintf(buf, cap, "%s/libibverbs.so.1", standard_dirs[i]);
        if (access(buf, R_OK) == 0 && !same_file(buf, self_path)) {
            return buf;
        }
    }
    return NULL;
}

/*
 * The command record started dies with record: a SIGKILLed recorder cannot pass a signal on, and
 * a hung program left behind would hold its device. Only record's direct child (its parent is
 * the pid record named; checked after prctl, so a recorder that died meanwhile is noticed too).
 */
static void tie_to_recorder(void)
{
    const char *rec = getenv(TR_ENV_RECORDER);
    if (rec == NULL || rec[0] == '\0') {
        return;
    }
    char *end;
    long pid = strtol(rec, &end, 10);
    if (*end != '\0' || pid <= 1 || (long)getppid() != pid) {
        return;
    }
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) == 0 && (long)getppid() != pid) {
        raise(SIGKILL);
    }
}

static void after_fork_child(void)
{
    tr_ring_after_fork();
}

__attribute__((constructor)) void tr_init(void)
{
    static int done;
    if (done) {
        return;
    }
    done = 1;
    Dl_info self;
    const char *self_path = dladdr((void *)tr_init, &self) != 0 ? self.dli_fname : "";
    char buf[512];
    const char *path = find_real(self_path, buf, sizeof buf);
    if (path == NULL) {
        fprintf(stderr, "rdmatrace tracer: no real libibverbs.so.1 found; set %s to its path\n", TR_ENV_REAL);
        return;
    }
    if (same_file(path, self_path)) {
        fprintf(stderr, "rdmatrace tracer: %s=%s is the tracer itself; verbs calls will fail\n", TR_ENV_REAL, path);
        return;
    }
    real_handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (real_handle == NULL) {
        fprintf(stderr, "rdmatrace tracer: cannot load the real libibverbs: %s\n", dlerror());
        return;
    }
    /* a verb the real library lacks answers 0 / NULL with errno ENOSYS instead of crashing */
#define TR_RESOLVE_(name, ver)                                                  \
    real_##name = (__typeof__(name) *)dlvsym(real_handle, #name, ver);          \
    if (real_##name == NULL) {                                                  \
        real_##name = (__typeof__(name) *)(void *)tr_unresolved;                \
    }
    TR_WRAP_LIST(TR_RESOLVE_)
    for (int i = 0; i < TR_FWD_COUNT; i++) {
        void *p = dlvsym(real_handle, fwd_syms[i].name, fwd_syms[i].version);
        if (p != NULL) {
            tr_fwd_ptr[i] = p;
        }
    }
    const char *dir = getenv(TR_ENV_RING_DIR);
    if (dir != NULL && dir[0] != '\0') {
        if (tr_ring_open(dir, path) != 0) {
            fprintf(stderr, "rdmatrace tracer: cannot create the event ring in %s: %s (not recording)\n", dir,
                    strerror(errno));
            return;
        }
        pthread_atfork(NULL, NULL, after_fork_child);
        tie_to_recorder();
    }
}

/* At exit (or dlclose): mark the ring closed so the reader knows the trace is complete. */
__attribute__((destructor)) static void tr_fini(void)
{
    tr_ring_close();
}
