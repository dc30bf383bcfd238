/*
 * The CM_EVENT block of an rdma_cm event (tr_payload.h), filled the same way by the tracing
 * librdmacm (a recorded program) and by the JNI binding (capture --cm), so both map alike.
 */
#ifndef RDMATRACE_TR_CM_EVENT_H
#define RDMATRACE_TR_CM_EVENT_H

#include <rdma/rdma_cma.h>
#include <stdint.h>

#include "tr_payload.h"

/* Fills p[CME_*] from `ev` (not NULL); returns its private data, *plen its length (0 when none). */
static inline const void *tr_cm_event_block(int64_t *p, const struct rdma_cm_event *ev, unsigned *plen)
{
    const struct rdma_cm_id *id = ev->id;
    int ud = id != NULL && (id->ps == RDMA_PS_UDP || id->ps == RDMA_PS_IPOIB);
    p[CME_EVENT] = ev->event;
    p[CME_STATUS] = ev->status;
    p[CME_ID] = (int64_t)(uintptr_t)id;
    p[CME_LISTEN_ID] = (int64_t)(uintptr_t)ev->listen_id;
    p[CME_QP_NUM] = id != NULL && id->qp != NULL ? (int64_t)id->qp->qp_num : -1;
    p[CME_PORT_SPACE] = id != NULL ? id->ps : 0;
    p[CME_RESPONDER_RESOURCES] = ud ? 0 : ev->param.conn.responder_resources;
    p[CME_INITIATOR_DEPTH] = ud ? 0 : ev->param.conn.initiator_depth;
    p[CME_FLOW_CONTROL] = ud ? 0 : ev->param.conn.flow_control;
    p[CME_RETRY_COUNT] = ud ? 0 : ev->param.conn.retry_count;
    p[CME_RNR_RETRY_COUNT] = ud ? 0 : ev->param.conn.rnr_retry_count;
    p[CME_SRQ] = ud ? 0 : ev->param.conn.srq;
    p[CME_PEER_QP_NUM] = ud ? ev->param.ud.qp_num : ev->param.conn.qp_num;
    p[CME_QKEY] = ud ? ev->param.ud.qkey : 0;
    /* private_data and its length sit at the same place in both members of the union */
    const void *pdata = ev->param.conn.private_data;
    *plen = pdata != NULL ? ev->param.conn.private_data_len : 0;
    p[CME_PDATA_LEN] = *plen;
    return pdata;
}

#endif
