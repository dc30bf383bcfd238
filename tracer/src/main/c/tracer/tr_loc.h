/* The tracer's internals: the real library's entry points, the per-thread ring writer, helpers. */
#ifndef RDMATRACE_TR_LOC_H
#define RDMATRACE_TR_LOC_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <infiniband/verbs.h>

#include "codec.h"
#include "layout.h"
#include "tr_clock.h"   /* tr_now() */
#include "tr_payload.h"
#include "tr_ring.h"
#include "tr_syms.h"

/* Environment set by `rdmatrace record`. */
#define TR_ENV_REAL "RDMATRACE_REAL_VERBS"     /* absolute path of the libibverbs to forward to */
#define TR_ENV_RING_DIR "RDMATRACE_RING_DIR"   /* where this process creates its ring file */
#define TR_ENV_RECORDER "RDMATRACE_RECORDER_PID" /* the recording process: its death kills its child */
#define TR_ENV_RING_MB "RDMATRACE_RING_MB"     /* size of each thread's sub-ring in MiB (default 4) */
#define TR_ENV_SUMMARY "RDMATRACE_DATA_PATH"   /* "summary" or "full" (default) */
#define TR_ENV_PREFAULT "RDMATRACE_PREFAULT"   /* "0": no prefault of a thread's sub-ring at its first record */

/* real_<name>: the real library's version of each wrapped symbol (NULL when it lacks one). */
#define TR_REAL_DECL_(name, ver) extern __typeof__(name) *real_##name;
TR_WRAP_LIST(TR_REAL_DECL_)

/* tr_real.c */
extern void *tr_fwd_ptr[];
void tr_init(void);

/* tr_ring.c: a record is reserved, filled, then committed; NULL = not recording or dropped. */
int64_t *tr_reserve(uint32_t nslots);
void tr_commit(int64_t *rec, uint32_t nslots);
int tr_ring_open(const char *dir, const char *real_lib);
void tr_ring_after_fork(void);
void tr_ring_close(void);
extern int tr_recording;   /* 0 until a ring is open */


/* Fills the ring header and status block of a record of nslots slots. */
static inline void tr_head(int64_t *r, enum tr_kind kind, uint32_t flags, uint32_t nslots, int64_t t0,
                           const void *handle, int64_t ret, int err, int64_t dur)
{
    r[RH_KIND_LEN] = (int64_t)((uint64_t)kind | ((uint64_t)(flags & 0xffff) << 16) | ((uint64_t)nslots << 32));
    r[RH_MONO_NS] = t0;
    r[RH_TID] = 0;   /* filled by tr_commit from the thread's cached tid */
    r[RH_HANDLE] = (int64_t)(uintptr_t)handle;
    r[RH_NSLOTS + STATUS_RET] = ret;
    r[RH_NSLOTS + STATUS_ERRNO] = err;
    /* two stamps straddling a re-anchor of tr_now() can be up to ~0.1 us out of order */
    r[RH_NSLOTS + STATUS_DURATION_NS] = dur < 0 ? 0 : dur;
    r[RH_NSLOTS + STATUS_EXTRA] = 0;
}

/* The common case: a control-path call with up to eight scalar arguments (ARGS). */
void tr_args(enum tr_kind kind, int64_t t0, int64_t dur, const void *handle, int64_t ret, int err, int nargs,
             const int64_t *args);

/* 64 bytes of text (NUL-padded) into a TEXT block. */
void tr_text(int64_t *slots, const char *text);

/* Status conventions (as the JNI binding's CallStatus): errno for pointer and -1 returns,
 * the returned error number for verbs that return one. */
static inline int tr_err_of_ret(int ret, int err)
{
    return ret == 0 ? 0 : (ret > 0 ? ret : (err != 0 ? err : -ret));
}

/* tr_device.c */
void tr_device_snapshot(struct ibv_context *ctx);
void tr_port_record(enum tr_kind kind, uint32_t flags, int64_t t0, int64_t dur, struct ibv_context *ctx,
                    uint8_t port, int ret, int err, const struct ibv_port_attr *attr);

/* tr_vctx.c: the same for the extended (verbs_context) ops: query_port, query_device_ex, create_*_ex. */
void tr_vops_attach(struct ibv_context *ctx);
void tr_vops_detach(struct ibv_context *ctx);

/* tr_datapath.c: swap the context's data-path ops for recording ones (and back). */
void tr_ops_attach(struct ibv_context *ctx);
void tr_ops_detach(struct ibv_context *ctx);
void tr_poll_flush(void);
/* One empty poll of cq (summarised with the thread's next ones); a poll's record with its WCs. */
void tr_poll_empty(struct ibv_cq *cq, int num_entries, int64_t t0, int64_t t1);
void tr_poll_record(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc, int ret, int err, int64_t t0,
                    int64_t dur);

/* tr_qpx.c / tr_cqx.c: the function pointers of ibv_qp_ex (new post API) and ibv_cq_ex (extended poll). */
void tr_qpx_attach(struct ibv_qp *qp);
void tr_cqx_attach(struct ibv_cq_ex *cq, uint64_t wc_flags);
extern __thread int tr_empty_pending;   /* an empty-poll summary waits to be written */

/* tr_qp.c */
void tr_query_after_modify(struct ibv_qp *qp);

#endif
