/*
 * The CM record blocks (tr_payload.h) the tracing librdmacm (a recorded program) and the JNI
 * binding (capture --cm) both fill, written once so both map alike: an event's CM_EVENT block,
 * an address as TEXT, private data as CM_PDATA.
 */
#ifndef RDMATRACE_TR_CM_EVENT_H
#define RDMATRACE_TR_CM_EVENT_H

#include <arpa/inet.h>
#include <rdma/rdma_cma.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

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

/* "a.b.c.d:port", "[v6]:port" or "AF_IB"; "" for NULL or another family. */
static inline void tr_cm_addr_text(const struct sockaddr *sa, char *out, size_t cap)
{
    out[0] = '\0';
    if (sa == NULL) {
        return;
    }
    char host[INET6_ADDRSTRLEN];
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
        if (inet_ntop(AF_INET, &in->sin_addr, host, sizeof host) != NULL) {
            snprintf(out, cap, "%s:%u", host, ntohs(in->sin_port));
        }
    } else if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
        if (inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof host) != NULL) {
            snprintf(out, cap, "[%s]:%u", host, ntohs(in6->sin6_port));
        }
    } else if (sa->sa_family == AF_IB) {
        snprintf(out, cap, "AF_IB");
    }
}

/* The CM_PDATA block: the private data's first CM_PDATA_NSLOTS * 8 bytes, zero-padded. */
static inline void tr_cm_pdata_block(int64_t *slots, const void *pdata, unsigned len)
{
    memset(slots, 0, CM_PDATA_NSLOTS * 8);
    if (pdata != NULL && len > 0) {
        memcpy(slots, pdata, len < CM_PDATA_NSLOTS * 8 ? len : CM_PDATA_NSLOTS * 8);
    }
}

#endif
