/*
 * The tracing librdmacm: a librdmacm.so.1 with rdma-core's symbol versions that forwards every call
 * to the real librdmacm (opened by absolute path) and records the rdma_* calls and the CM events
 * into the tracing libibverbs' ring (one ring per process, so verbs and CM records keep their order).
 *
 * RDMA_CALL arguments (CM_CALL A0..A7, tr_payload.h), per function; ID is the rdma_cm_id acted on
 * (for rdma_create_id/_ep and rdma_get_request the one made); SRC/DST texts are the id's addresses
 * after the call unless said otherwise:
 *   rdma_create_event_channel   A0 channel made, A1 its fd
 *   rdma_destroy_event_channel  A0 channel
 *   rdma_create_id              A0 channel, A1 port space, A2 QP type
 *   rdma_create_ep              A0 port space, A1 QP type, A2 pd, A3 QP made (1/0), A4 qp_num
 *   rdma_resolve_addr           A0 timeout ms; SRC/DST = the arguments (SRC empty when NULL)
 *   rdma_bind_addr              SRC = the argument
 *   rdma_resolve_route          A0 timeout ms
 *   rdma_listen                 A0 backlog
 *   rdma_get_request            A0 listen id
 *   rdma_connect, rdma_accept   A0 responder_resources, A1 initiator_depth, A2 flow_control,
 *                               A3 retry_count, A4 rnr_retry_count, A5 srq, A6 qp_num,
 *                               A7 1 when a conn_param was given; PDATA = its private data
 *   rdma_reject, _reject_ece    PDATA = the private data
 *   rdma_notify                 A0 event (enum ibv_event_type)
 *   rdma_create_qp(_ex)         A0 pd, A1 QP type, A2 qp, A3 qp_num, A4 max_send_wr, A5 max_recv_wr,
 *                               A6 send_cq, A7 recv_cq
 *   rdma_destroy_qp             A0 qp_num
 *   rdma_get_cm_event           (only when it fails) A0 channel
 *   rdma_ack_cm_event           A0 event type, A1 status
 *   rdma_set_option             A0 level, A1 optname, A2 optlen, A3 the value's first 4 bytes
 *   rdma_migrate_id             A0 channel
 *   rdma_init_qp_attr           A0 qp_state asked, A1 attr_mask returned
 *   rdma_getaddrinfo            A0 hints' ai_flags, A1 hints' port space, A2 result's port space,
 *                               A3 result's QP type; SRC = node, DST = service as given
 *   rdma_create_srq(_ex)        A0 pd, A1 srq, A2 max_wr
 */
#ifndef RDMATRACE_TC_LOC_H
#define RDMATRACE_TC_LOC_H

#include <errno.h>
#include <stdint.h>
#include <rdma/rdma_cma.h>
#include <rdma/rdma_verbs.h>

#include "tr_payload.h"
#include "tr_ring.h"
#include "tc_syms.h"

#define TC_ENV_REAL "RDMATRACE_REAL_RDMACM"   /* absolute path of the librdmacm to forward to */

/* real_<name>: the real library's version of each wrapped function (an ENOSYS stub when it lacks one). */
#define TC_REAL_DECL_(name, ver) extern __typeof__(name) *real_##name;
TC_WRAP_LIST(TC_REAL_DECL_)

int64_t tc_now(void);

/* One RDMA_CALL record. src/dst: addresses to print (NULL: none); pdata/plen: private data. */
struct tc_call {
    int func;                 /* CMF_* */
    const void *id;
    int64_t t0, t1;
    int64_t ret;
    int err;
    int64_t a[8];
    const struct sockaddr *src, *dst;
    const char *src_text, *dst_text;   /* used instead of src/dst when set */
    const void *pdata;
    unsigned plen;
};
void tc_record_call(const struct tc_call *c);
/* The id's own addresses after a call (when the caller gave none). */
void tc_use_id_addrs(struct tc_call *c, const struct rdma_cm_id *id);
/* One RDMA_CM_EVENT record for an event rdma_get_cm_event returned. */
void tc_record_event(const struct rdma_cm_event *ev, int64_t t0, int64_t t1);

/* Status of an int-returning librdmacm call: -1 and errno. */
static inline int tc_err(int ret, int err)
{
    return ret == 0 ? 0 : (err != 0 ? err : (ret < 0 ? -ret : ret));
}

#endif
