/*
 * The slot layouts shared with Java. Every value crossing the JNI boundary travels in a block of
 * int64 "slots" inside a direct ByteBuffer (native byte order); each list below is the single
 * source of the slot order. Java mirrors each list as an enum of the same names and compares the
 * two at load time (layout_names), so drift fails loudly instead of corrupting values.
 */
#ifndef RDMATRACE_LAYOUT_H
#define RDMATRACE_LAYOUT_H

/* AH_ATTR_SLOTS and QP_ATTR_SLOTS (and the members they carry, the MTU table): generated at build time
 * from verbs-abi's QpField, the one declaration of every ibv_qp_attr field. */
#include "verbs_abi.h"

/* Every call block starts with the call status; the verb's own slots follow at CALL_PAYLOAD. */
#define STATUS_SLOTS(X) X(RET) X(ERRNO) X(DURATION_NS) X(EXTRA)

#define DEVICE_ATTR_SLOTS(X) \
    X(NODE_GUID) X(SYS_IMAGE_GUID) X(MAX_MR_SIZE) X(PAGE_SIZE_CAP) X(VENDOR_ID) \
    X(VENDOR_PART_ID) X(HW_VER) X(MAX_QP) X(MAX_QP_WR) X(DEVICE_CAP_FLAGS) X(MAX_SGE) \
    X(MAX_SGE_RD) X(MAX_CQ) X(MAX_CQE) X(MAX_MR) X(MAX_PD) X(MAX_QP_RD_ATOM) X(MAX_EE_RD_ATOM) \
    X(MAX_RES_RD_ATOM) X(MAX_QP_INIT_RD_ATOM) X(MAX_EE_INIT_RD_ATOM) X(ATOMIC_CAP) X(MAX_EE) \
    X(MAX_RDD) X(MAX_MW) X(MAX_RAW_IPV6_QP) X(MAX_RAW_ETHY_QP) X(MAX_MCAST_GRP) \
    X(MAX_MCAST_QP_ATTACH) X(MAX_TOTAL_MCAST_QP_ATTACH) X(MAX_AH) X(MAX_FMR) X(MAX_MAP_PER_FMR) \
    X(MAX_SRQ) X(MAX_SRQ_WR) X(MAX_SRQ_SGE) X(MAX_PKEYS) X(LOCAL_CA_ACK_DELAY) X(PHYS_PORT_CNT)

#define PORT_ATTR_SLOTS(X) \
    X(STATE) X(MAX_MTU) X(ACTIVE_MTU) X(GID_TBL_LEN) X(PORT_CAP_FLAGS) X(MAX_MSG_SZ) \
    X(BAD_PKEY_CNTR) X(QKEY_VIOL_CNTR) X(PKEY_TBL_LEN) X(LID) X(SM_LID) X(LMC) X(MAX_VL_NUM) \
    X(SM_SL) X(SUBNET_TIMEOUT) X(INIT_TYPE_REPLY) X(ACTIVE_WIDTH) X(ACTIVE_SPEED) X(PHYS_STATE) \
    X(LINK_LAYER) X(FLAGS) X(PORT_CAP_FLAGS2)

/* A GID is 16 raw bytes in two slots (network order, as in the GID table). */
#define GID_ENTRY_SLOTS(X) X(GID_0) X(GID_1) X(GID_INDEX) X(PORT_NUM) X(GID_TYPE) X(NDEV_IFINDEX)

/* ibv_qp_init_attr; create_qp writes the granted caps back into the CAP slots. */
#define QP_INIT_SLOTS(X) \
    X(SEND_CQ) X(RECV_CQ) X(SRQ) X(QP_TYPE) X(SQ_SIG_ALL) X(MAX_SEND_WR) X(MAX_RECV_WR) \
    X(MAX_SEND_SGE) X(MAX_RECV_SGE) X(MAX_INLINE_DATA) X(QP_NUM)

#define ASYNC_EVENT_SLOTS(X) X(EVENT_TYPE) X(ELEMENT) X(QP_NUM) X(PORT_NUM)

/* Header of a data-path batch buffer (post_send, post_recv, poll_cq). */
#define BATCH_SLOTS(X) X(RET) X(ERRNO) X(DURATION_NS) X(COUNT) X(BAD_INDEX) X(RESERVED_5) \
    X(RESERVED_6) X(RESERVED_7)

/* One send work request; its SGEs live in the batch's SGE area. imm_data is in host order. */
#define SEND_WR_SLOTS(X) \
    X(WR_ID) X(OPCODE) X(SEND_FLAGS) X(IMM_DATA) X(REMOTE_ADDR) X(RKEY) X(COMPARE_ADD) X(SWAP) \
    X(AH) X(REMOTE_QPN) X(REMOTE_QKEY) X(NUM_SGE)

#define RECV_WR_SLOTS(X) X(WR_ID) X(NUM_SGE)

#define SGE_SLOTS(X) X(ADDR) X(LENGTH) X(LKEY)

/* One work completion; imm_data is in host order. */
#define WC_SLOTS(X) \
    X(WR_ID) X(STATUS) X(OPCODE) X(VENDOR_ERR) X(BYTE_LEN) X(IMM_DATA) X(QP_NUM) X(SRC_QP) \
    X(WC_FLAGS) X(PKEY_INDEX) X(SLID) X(SL) X(DLID_PATH_BITS)

#define STATUS_SLOT_(n) STATUS_##n,
#define DEVICE_ATTR_SLOT_(n) DA_##n,
#define PORT_ATTR_SLOT_(n) PA_##n,
#define GID_ENTRY_SLOT_(n) GE_##n,
#define AH_ATTR_SLOT_(n) AH_##n,
#define QP_ATTR_SLOT_(n) QA_##n,
#define QP_INIT_SLOT_(n) QI_##n,
#define ASYNC_EVENT_SLOT_(n) AE_##n,
#define BATCH_SLOT_(n) BATCH_##n,
#define SEND_WR_SLOT_(n) SWR_##n,
#define RECV_WR_SLOT_(n) RWR_##n,
#define SGE_SLOT_(n) SGE_##n,
#define WC_SLOT_(n) WC_##n,

enum { STATUS_SLOTS(STATUS_SLOT_) STATUS_NSLOTS };
enum { DEVICE_ATTR_SLOTS(DEVICE_ATTR_SLOT_) DA_NSLOTS };
enum { PORT_ATTR_SLOTS(PORT_ATTR_SLOT_) PA_NSLOTS };
enum { GID_ENTRY_SLOTS(GID_ENTRY_SLOT_) GE_NSLOTS };
enum { AH_ATTR_SLOTS(AH_ATTR_SLOT_) AH_NSLOTS };
enum { QP_ATTR_SLOTS(QP_ATTR_SLOT_) QA_NSLOTS };
enum { QP_INIT_SLOTS(QP_INIT_SLOT_) QI_NSLOTS };
enum { ASYNC_EVENT_SLOTS(ASYNC_EVENT_SLOT_) AE_NSLOTS };
enum { BATCH_SLOTS(BATCH_SLOT_) BATCH_NSLOTS };
enum { SEND_WR_SLOTS(SEND_WR_SLOT_) SWR_NSLOTS };
enum { RECV_WR_SLOTS(RECV_WR_SLOT_) RWR_NSLOTS };
enum { SGE_SLOTS(SGE_SLOT_) SGE_NSLOTS };
enum { WC_SLOTS(WC_SLOT_) WC_NSLOTS };

/* A call block: status, then the verb's payload. */
#define CALL_PAYLOAD STATUS_NSLOTS

/* The layouts Java verifies, by id; the ids are Java's NativeLayout enum ordinals. */
enum layout_id {
    LAYOUT_STATUS, LAYOUT_DEVICE_ATTR, LAYOUT_PORT_ATTR, LAYOUT_GID_ENTRY, LAYOUT_AH_ATTR,
    LAYOUT_QP_ATTR, LAYOUT_QP_INIT, LAYOUT_ASYNC_EVENT, LAYOUT_BATCH, LAYOUT_SEND_WR,
    LAYOUT_RECV_WR, LAYOUT_SGE, LAYOUT_WC, LAYOUT_COUNT
};

/* "RET,ERRNO,..." for a layout id, or NULL for an unknown id. */
const char *layout_names(int id);

#endif
