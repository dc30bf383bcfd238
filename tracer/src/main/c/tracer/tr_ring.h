/*
 * The tracer's event ring: one file per traced process, mapped shared, read by `rdmatrace record`.
 *
 * File layout (all integers native-endian, every offset a multiple of 8):
 *   struct tr_ring_header    magic, version, geometry, pid, drop counter, closed flag, the clock
 *                            pair, the command line, the RDMA-steering environment, and the names
 *                            of every slot layout (so the reader checks its mirror before decoding)
 *   TR_SUBRINGS x struct tr_sub   one single-producer/single-consumer ring per writing thread:
 *                            head (slots written, the writer's), tail (slots consumed, the reader's),
 *                            owner tid, then capacity int64 slots of records
 *
 * A record is a run of int64 slots that never wraps: a RING_HEADER block (KIND_LEN = kind in the low
 * 16 bits, flags in bits 16..31, length in slots in the high 32; MONO_NS = CLOCK_MONOTONIC at the
 * call's start (for an event a blocking call returned, async or CM: when it was returned); TID;
 * HANDLE = the object the call acts on), a STATUS block of layout.h (RET, ERRNO, DURATION_NS, EXTRA),
 * then the kind's payload, made of layout.h blocks (QP_ATTR, SEND_WR, SGE, WC, ...). Kind 0 is padding up to the end of the sub-ring. The writer publishes head with a release
 * store after the record is complete; the reader consumes up to head and publishes tail.
 * When a record does not fit, the writer counts it in `dropped` and moves on: it never waits.
 */
#ifndef RDMATRACE_TR_RING_H
#define RDMATRACE_TR_RING_H

#include <stdint.h>

#include "layout.h"

#define TR_RING_MAGIC 0x31474e4952525452ULL /* "RTRRING1" */
#define TR_RING_VERSION 1
#define TR_SUBRINGS 64
#define TR_CMDLINE_BYTES 4096
#define TR_ENV_BYTES 8192
#define TR_NAMES_BYTES 8192
#define TR_MAX_RECORD_SLOTS 4096

#define RING_HEADER_SLOTS(X) X(KIND_LEN) X(MONO_NS) X(TID) X(HANDLE)
#define RING_HEADER_SLOT_(n) RH_##n,
enum { RING_HEADER_SLOTS(RING_HEADER_SLOT_) RH_NSLOTS };

/* Payload starts after the ring header and the status block. */
#define TR_PAYLOAD (RH_NSLOTS + STATUS_NSLOTS)

/* Record flags (bits 16..31 of KIND_LEN). */
#define TR_FLAG_RECORDER 0x1u  /* a call the tracer made itself (the query_qp after a modify_qp) */
#define TR_FLAG_MORE 0x2u      /* the next record on this sub-ring continues this call (long WR chain, many WCs) */

/*
 * Record kinds: the verbs (named as trace-format's Verb enum) and the tracer's own records.
 * Payload per kind is documented in tr_loc.h next to the code that writes it.
 */
#define TR_KIND_LIST(X) \
    X(PAD) X(IBV_GET_DEVICE_LIST) X(IBV_FREE_DEVICE_LIST) X(IBV_OPEN_DEVICE) X(IBV_CLOSE_DEVICE) \
    X(IBV_QUERY_DEVICE) X(IBV_QUERY_PORT) X(IBV_QUERY_GID) X(IBV_QUERY_GID_EX) X(IBV_QUERY_PKEY) \
    X(IBV_ALLOC_PD) X(IBV_DEALLOC_PD) X(IBV_REG_MR) X(IBV_DEREG_MR) X(IBV_CREATE_COMP_CHANNEL) \
    X(IBV_DESTROY_COMP_CHANNEL) X(IBV_CREATE_CQ) X(IBV_RESIZE_CQ) X(IBV_DESTROY_CQ) X(IBV_REQ_NOTIFY_CQ) \
    X(IBV_GET_CQ_EVENT) X(IBV_ACK_CQ_EVENTS) X(IBV_POLL_CQ) X(IBV_CREATE_QP) X(IBV_MODIFY_QP) \
    X(IBV_QUERY_QP) X(IBV_DESTROY_QP) X(IBV_POST_SEND) X(IBV_POST_RECV) X(IBV_CREATE_AH) \
    X(IBV_DESTROY_AH) X(IBV_GET_ASYNC_EVENT) X(IBV_ACK_ASYNC_EVENT) X(IBV_CREATE_SRQ) X(IBV_MODIFY_SRQ) \
    X(IBV_QUERY_SRQ) X(IBV_DESTROY_SRQ) X(IBV_POST_SRQ_RECV) X(IBV_REREG_MR) X(IBV_QP_TO_QP_EX) \
    X(DEVICE_INFO) X(PORT_INFO) X(GID_INFO) \
    X(RDMA_CALL) X(RDMA_CM_EVENT)

#define TR_KIND_(n) TR_##n,
enum tr_kind { TR_KIND_LIST(TR_KIND_) TR_KIND_COUNT };

/* A sub-ring's control block (192 bytes: each counter on its own cache line); its slots follow. */
struct tr_sub {
    uint64_t head;                /* slots ever written (writer), offset 0 */
    uint64_t pad0[7];
    uint64_t tail;                /* slots ever consumed (reader), offset 64 */
    uint64_t pad1[7];
    uint64_t owner;               /* tid of the writing thread, 0 = free, offset 128 */
    uint64_t pad2[7];
};
#define TR_SUB_CONTROL_BYTES 192
#define TR_SUB_OFFSET 24576       /* sub-ring 0 starts on a page boundary after the header */

struct tr_ring_header {
    uint64_t magic;
    uint32_t version;
    uint32_t subrings;
    uint64_t sub_slots;           /* capacity of each sub-ring, in int64 slots (a power of two) */
    uint64_t sub_offset;          /* file offset of sub-ring 0's struct tr_sub */
    uint64_t sub_stride;          /* bytes from one struct tr_sub to the next (header + data) */
    uint64_t pid;
    uint64_t dropped;             /* records not written because a sub-ring was full (atomic) */
    uint64_t closed;              /* 1 once the process ran its exit handlers */
    uint64_t threads_refused;     /* threads that found no free sub-ring (their records are dropped) */
    uint64_t mono_at_open;        /* CLOCK_MONOTONIC and CLOCK_REALTIME read together at open */
    uint64_t wall_at_open;
    uint64_t data_path_summary;   /* 1: --data-path summary (the reader keeps histograms) */
    uint64_t reserved[4];
    char real_lib[512];           /* the real libibverbs this process forwards to */
    char cmdline[TR_CMDLINE_BYTES];   /* /proc/self/cmdline: NUL-separated arguments */
    char env[TR_ENV_BYTES];       /* NUL-separated KEY=VALUE of the RDMA-steering variables */
    char names[TR_NAMES_BYTES];   /* "LAYOUT:NAME,NAME,...;" for every layout and the kind list */
};

/* Exported by the tracing libibverbs in RDMATRACE_PRIVATE_1.0 for the tracing librdmacm (tracer/cm/):
 * reserve a record of nslots slots on the calling thread's sub-ring (NULL: not recording or full),
 * fill it (tr_head's layout), commit it. */
int64_t *rdmatrace_ring_reserve(uint32_t nslots);
void rdmatrace_ring_commit(int64_t *rec, uint32_t nslots);

#endif
