/*
 * The payload of each ring record kind, after the RING_HEADER and STATUS blocks (tr_ring.h).
 * Scalars are named slots declared once here; struct contents are the JNI layout blocks of
 * layout.h (QP_ATTR + two AH_ATTR, QP_INIT, DEVICE_ATTR, PORT_ATTR, GID_ENTRY, AH_ATTR, SEND_WR,
 * RECV_WR, SGE, WC, ASYNC_EVENT) filled by codec.c, so Java decodes them with the same slot enums
 * as the JNI binding. Every list's names are written into the ring header and checked by the reader.
 *
 *   kind                      payload
 *   IBV_OPEN_DEVICE           TEXT (device name)
 *   IBV_QUERY_DEVICE          TEXT (fw_ver), DEVICE_ATTR
 *   DEVICE_INFO               TEXT (name), TEXT (fw_ver), DEVICE_INFO scalars, DEVICE_ATTR
 *   IBV_QUERY_PORT/PORT_INFO  PORT (PORT_NUM), PORT_ATTR
 *   IBV_QUERY_GID(_EX)/GID_INFO GID_ENTRY (GID_INDEX/PORT_NUM are the inputs)
 *   IBV_CREATE_QP             CREATE_QP scalars, QP_INIT as requested, QP_INIT as granted (+QP_NUM)
 *   IBV_MODIFY_QP             QP scalars, QP_ATTR block (+2 AH_ATTR)
 *   IBV_QUERY_QP              QP scalars, QP_ATTR block (+2 AH_ATTR), QP_INIT
 *   IBV_POST_SEND             POST scalars, then per WR: SEND_WR and its SGE blocks
 *   IBV_POST_RECV/SRQ_RECV    POST scalars, then per WR: RECV_WR and its SGE blocks
 *   (a call too long for one record continues in records of the same kind flagged TR_FLAG_MORE;
 *    HERE / POLLED count the WRs / WCs of each record)
 *   IBV_POLL_CQ               POLL scalars, then POLLED-in-this-record WC blocks
 *   IBV_CREATE_AH             AH (PD), AH_ATTR
 *   IBV_GET_ASYNC_EVENT       ASYNC_EVENT
 *   everything else           ARGS: up to eight scalar arguments in the order listed per kind below
 */
#ifndef RDMATRACE_TR_PAYLOAD_H
#define RDMATRACE_TR_PAYLOAD_H

#include "layout.h"

#define TEXT_SLOTS(X) X(T0) X(T1) X(T2) X(T3) X(T4) X(T5) X(T6) X(T7)

#define DEVICE_INFO_SLOTS(X) X(DEVICE) X(NODE_TYPE) X(TRANSPORT_TYPE) X(GUID)

#define PORT_SLOTS(X) X(PORT_NUM)

#define CREATE_QP_SLOTS(X) X(PD) X(CONTEXT) X(VIA)

#define QP_SLOTS(X) X(QP_NUM) X(ATTR_MASK)

#define POST_SLOTS(X) X(QP_NUM) X(QP_TYPE) X(WR_COUNT) X(BAD_INDEX) X(HERE)

#define POLL_SLOTS(X) X(NUM_ENTRIES) X(POLLED) X(EMPTY_POLLS) X(SPAN_NS)

#define AH_SLOTS(X) X(PD)

/* ARGS of the remaining kinds (A0..A7):
 *   IBV_GET_DEVICE_LIST      -
 *   IBV_ALLOC_PD             context
 *   IBV_REG_MR / REREG_MR    pd, addr, length, access, lkey, rkey, iova, variant (0 reg_mr,
 *                            1 reg_mr_iova, 2 reg_mr_iova2; rereg: flags in variant)
 *   IBV_CREATE_COMP_CHANNEL  context, fd
 *   IBV_CREATE_CQ            context, cqe asked, channel, comp_vector, cqe granted
 *   IBV_RESIZE_CQ            cqe asked, cqe granted
 *   IBV_REQ_NOTIFY_CQ        solicited_only
 *   IBV_GET_CQ_EVENT         cq
 *   IBV_ACK_CQ_EVENTS        nevents
 *   IBV_DESTROY_QP           qp_num
 *   IBV_ACK_ASYNC_EVENT      event_type, element
 *   IBV_CREATE_SRQ           pd, max_wr, max_sge, srq_limit, granted max_wr, granted max_sge
 *   IBV_MODIFY_SRQ           attr_mask, max_wr, max_sge, srq_limit
 *   IBV_QUERY_SRQ            max_wr, max_sge, srq_limit
 *   IBV_QP_TO_QP_EX          qp_ex
 *   IBV_QUERY_PKEY           port, index, pkey
 */
#define ARGS_SLOTS(X) X(A0) X(A1) X(A2) X(A3) X(A4) X(A5) X(A6) X(A7)

/*
 * The tracing librdmacm's records (tracer/cm/, written through rdmatrace_ring_reserve/commit):
 *   RDMA_CALL      CM_CALL scalars (FUNC = index in CM_FUNC_LIST; A0..A7 per function, see
 *                  tracer/cm/tc_loc.h), TEXT (source address), TEXT (destination address),
 *                  CM_PDATA (the private data's first bytes)
 *   RDMA_CM_EVENT  CM_EVENT scalars, TEXT (local address), TEXT (peer address), CM_PDATA
 *                  (an event rdma_get_cm_event returned; a failed rdma_get_cm_event is an RDMA_CALL)
 * Addresses are text ("127.1.2.3:7000", "[fe80::1]:7000"); PDATA_LEN is the full length, the block
 * holds at most CM_PDATA_NSLOTS * 8 bytes of it.
 */
#define CM_FUNC_LIST(X) \
    X(rdma_create_event_channel) X(rdma_destroy_event_channel) X(rdma_create_id) X(rdma_destroy_id) \
    X(rdma_create_ep) X(rdma_destroy_ep) X(rdma_bind_addr) X(rdma_resolve_addr) X(rdma_resolve_route) \
    X(rdma_listen) X(rdma_get_request) X(rdma_connect) X(rdma_accept) X(rdma_reject) X(rdma_reject_ece) \
    X(rdma_establish) X(rdma_disconnect) X(rdma_notify) X(rdma_create_qp) X(rdma_create_qp_ex) \
    X(rdma_destroy_qp) X(rdma_get_cm_event) X(rdma_ack_cm_event) X(rdma_set_option) X(rdma_migrate_id) \
    X(rdma_init_qp_attr) X(rdma_getaddrinfo) X(rdma_create_srq) X(rdma_create_srq_ex) X(rdma_destroy_srq)

#define CM_CALL_SLOTS(X) X(FUNC) X(ID) X(A0) X(A1) X(A2) X(A3) X(A4) X(A5) X(A6) X(A7) X(PDATA_LEN)

#define CM_EVENT_SLOTS(X) \
    X(EVENT) X(STATUS) X(ID) X(LISTEN_ID) X(QP_NUM) X(PORT_SPACE) X(RESPONDER_RESOURCES) X(INITIATOR_DEPTH) \
    X(FLOW_CONTROL) X(RETRY_COUNT) X(RNR_RETRY_COUNT) X(SRQ) X(PEER_QP_NUM) X(QKEY) X(PDATA_LEN)

#define CM_PDATA_SLOTS(X) X(P0) X(P1) X(P2) X(P3) X(P4) X(P5) X(P6) X(P7) X(P8) X(P9) X(P10) X(P11) \
    X(P12) X(P13) X(P14) X(P15) X(P16) X(P17) X(P18) X(P19) X(P20) X(P21) X(P22) X(P23) X(P24) X(P25) \
    X(P26) X(P27) X(P28) X(P29) X(P30) X(P31)


#define TEXT_SLOT_(n) TX_##n,
#define DEVICE_INFO_SLOT_(n) DI_##n,
#define PORT_SLOT_(n) PT_##n,
#define CREATE_QP_SLOT_(n) CQP_##n,
#define QP_SLOT_(n) QP_##n,
#define POST_SLOT_(n) PS_##n,
#define POLL_SLOT_(n) PL_##n,
#define AH_SLOT_(n) AHP_##n,
#define ARGS_SLOT_(n) ARG_##n,
#define CM_FUNC_(n) CMF_##n,
#define CM_CALL_SLOT_(n) CMC_##n,
#define CM_EVENT_SLOT_(n) CME_##n,
#define CM_PDATA_SLOT_(n) CMP_##n,

enum { TEXT_SLOTS(TEXT_SLOT_) TX_NSLOTS };
enum { DEVICE_INFO_SLOTS(DEVICE_INFO_SLOT_) DI_NSLOTS };
enum { PORT_SLOTS(PORT_SLOT_) PT_NSLOTS };
enum { CREATE_QP_SLOTS(CREATE_QP_SLOT_) CQP_NSLOTS };
enum { QP_SLOTS(QP_SLOT_) QP_NSLOTS };
enum { POST_SLOTS(POST_SLOT_) PS_NSLOTS };
enum { POLL_SLOTS(POLL_SLOT_) PL_NSLOTS };
enum { AH_SLOTS(AH_SLOT_) AHP_NSLOTS };
enum { ARGS_SLOTS(ARGS_SLOT_) ARG_NSLOTS };
enum { CM_FUNC_LIST(CM_FUNC_) CMF_COUNT };
enum { CM_CALL_SLOTS(CM_CALL_SLOT_) CMC_NSLOTS };
enum { CM_EVENT_SLOTS(CM_EVENT_SLOT_) CME_NSLOTS };
enum { CM_PDATA_SLOTS(CM_PDATA_SLOT_) CM_PDATA_NSLOTS };

#endif
