/* Slot conversions: ibv_ah_attr and ibv_qp_attr expand the generated member lists (verbs_abi.h), the rest by hand. */
#include "codec.h"

#include <arpa/inet.h>
#include <endian.h>
#include <string.h>

#include "layout.h"

/* Each member's C type decides its width: the slot is cast to it (as a C assignment would truncate). */
#define AH_GID_FROM_(slot, m) memcpy(ah->m.raw, s + AH_##slot, sizeof(ah->m.raw));
#define AH_FROM_(slot, m) ah->m = (__typeof__(ah->m))s[AH_##slot];
#define AH_GID_TO_(slot, m) memcpy(s + AH_##slot, ah->m.raw, sizeof(ah->m.raw));
#define AH_TO_(slot, m) s[AH_##slot] = ah->m;
#define QA_FROM_(slot, m) a->m = (__typeof__(a->m))s[QA_##slot];
#define QA_TO_(slot, m) s[QA_##slot] = a->m;

void ah_attr_from_slots(const int64_t *s, struct ibv_ah_attr *ah)
{
    memset(ah, 0, sizeof(*ah));
    AH_ATTR_GIDS(AH_GID_FROM_)
    AH_ATTR_MEMBERS(AH_FROM_)
}

void ah_attr_to_slots(const struct ibv_ah_attr *ah, int64_t *s)
{
    AH_ATTR_GIDS(AH_GID_TO_)
    AH_ATTR_MEMBERS(AH_TO_)
}

void qp_attr_from_slots(const int64_t *s, struct ibv_qp_attr *a)
{
    memset(a, 0, sizeof(*a));
    QP_ATTR_MEMBERS(QA_FROM_)
    ah_attr_from_slots(s + QA_AH_BASE, &a->ah_attr);
    ah_attr_from_slots(s + QA_ALT_AH_BASE, &a->alt_ah_attr);
}

void qp_attr_to_slots(const struct ibv_qp_attr *a, int64_t *s)
{
    QP_ATTR_MEMBERS(QA_TO_)
    ah_attr_to_slots(&a->ah_attr, s + QA_AH_BASE);
    ah_attr_to_slots(&a->alt_ah_attr, s + QA_ALT_AH_BASE);
}

void device_attr_to_slots(const struct ibv_device_attr *a, int64_t *o)
{
    o[DA_NODE_GUID] = (int64_t)be64toh(a->node_guid);
    o[DA_SYS_IMAGE_GUID] = (int64_t)be64toh(a->sys_image_guid);
    o[DA_MAX_MR_SIZE] = (int64_t)a->max_mr_size;
    o[DA_PAGE_SIZE_CAP] = (int64_t)a->page_size_cap;
    o[DA_VENDOR_ID] = a->vendor_id;
    o[DA_VENDOR_PART_ID] = a->vendor_part_id;
    o[DA_HW_VER] = a->hw_ver;
    o[DA_MAX_QP] = a->max_qp;
    o[DA_MAX_QP_WR] = a->max_qp_wr;
    o[DA_DEVICE_CAP_FLAGS] = a->device_cap_flags;
    o[DA_MAX_SGE] = a->max_sge;
    o[DA_MAX_SGE_RD] = a->max_sge_rd;
    o[DA_MAX_CQ] = a->max_cq;
    o[DA_MAX_CQE] = a->max_cqe;
    o[DA_MAX_MR] = a->max_mr;
    o[DA_MAX_PD] = a->max_pd;
    o[DA_MAX_QP_RD_ATOM] = a->max_qp_rd_atom;
    o[DA_MAX_EE_RD_ATOM] = a->max_ee_rd_atom;
    o[DA_MAX_RES_RD_ATOM] = a->max_res_rd_atom;
    o[DA_MAX_QP_INIT_RD_ATOM] = a->max_qp_init_rd_atom;
    o[DA_MAX_EE_INIT_RD_ATOM] = a->max_ee_init_rd_atom;
    o[DA_ATOMIC_CAP] = a->atomic_cap;
    o[DA_MAX_EE] = a->max_ee;
    o[DA_MAX_RDD] = a->max_rdd;
    o[DA_MAX_MW] = a->max_mw;
    o[DA_MAX_RAW_IPV6_QP] = a->max_raw_ipv6_qp;
    o[DA_MAX_RAW_ETHY_QP] = a->max_raw_ethy_qp;
    o[DA_MAX_MCAST_GRP] = a->max_mcast_grp;
    o[DA_MAX_MCAST_QP_ATTACH] = a->max_mcast_qp_attach;
    o[DA_MAX_TOTAL_MCAST_QP_ATTACH] = a->max_total_mcast_qp_attach;
    o[DA_MAX_AH] = a->max_ah;
    o[DA_MAX_FMR] = a->max_fmr;
    o[DA_MAX_MAP_PER_FMR] = a->max_map_per_fmr;
    o[DA_MAX_SRQ] = a->max_srq;
    o[DA_MAX_SRQ_WR] = a->max_srq_wr;
    o[DA_MAX_SRQ_SGE] = a->max_srq_sge;
    o[DA_MAX_PKEYS] = a->max_pkeys;
    o[DA_LOCAL_CA_ACK_DELAY] = a->local_ca_ack_delay;
    o[DA_PHYS_PORT_CNT] = a->phys_port_cnt;
}

void port_attr_to_slots(const struct ibv_port_attr *a, int64_t *o)
{
    o[PA_STATE] = a->state;
    o[PA_MAX_MTU] = a->max_mtu;
    o[PA_ACTIVE_MTU] = a->active_mtu;
    o[PA_GID_TBL_LEN] = a->gid_tbl_len;
    o[PA_PORT_CAP_FLAGS] = a->port_cap_flags;
    o[PA_MAX_MSG_SZ] = a->max_msg_sz;
    o[PA_BAD_PKEY_CNTR] = a->bad_pkey_cntr;
    o[PA_QKEY_VIOL_CNTR] = a->qkey_viol_cntr;
    o[PA_PKEY_TBL_LEN] = a->pkey_tbl_len;
    o[PA_LID] = a->lid;
    o[PA_SM_LID] = a->sm_lid;
    o[PA_LMC] = a->lmc;
    o[PA_MAX_VL_NUM] = a->max_vl_num;
    o[PA_SM_SL] = a->sm_sl;
    o[PA_SUBNET_TIMEOUT] = a->subnet_timeout;
    o[PA_INIT_TYPE_REPLY] = a->init_type_reply;
    o[PA_ACTIVE_WIDTH] = a->active_width;
    o[PA_ACTIVE_SPEED] = a->active_speed;
    o[PA_PHYS_STATE] = a->phys_state;
    o[PA_LINK_LAYER] = a->link_layer;
    o[PA_FLAGS] = a->flags;
    o[PA_PORT_CAP_FLAGS2] = a->port_cap_flags2;
}

void wc_to_slots(const struct ibv_wc *wc, int64_t *o)
{
    o[WC_WR_ID] = (int64_t)wc->wr_id;
    o[WC_STATUS] = wc->status;
    o[WC_OPCODE] = wc->opcode;
    o[WC_VENDOR_ERR] = wc->vendor_err;
    o[WC_BYTE_LEN] = wc->byte_len;
    /* imm_data is big-endian on the wire; WITH_INV completions carry an rkey in host order */
    o[WC_IMM_DATA] = (wc->wc_flags & IBV_WC_WITH_IMM) ? ntohl(wc->imm_data) : wc->invalidated_rkey;
    o[WC_QP_NUM] = wc->qp_num;
    o[WC_SRC_QP] = wc->src_qp;
    o[WC_WC_FLAGS] = wc->wc_flags;
    o[WC_PKEY_INDEX] = wc->pkey_index;
    o[WC_SLID] = wc->slid;
    o[WC_SL] = wc->sl;
    o[WC_DLID_PATH_BITS] = wc->dlid_path_bits;
}

void send_wr_to_slots(const struct ibv_send_wr *wr, int64_t *o)
{
    o[SWR_WR_ID] = (int64_t)wr->wr_id;
    o[SWR_OPCODE] = wr->opcode;
    o[SWR_SEND_FLAGS] = wr->send_flags;
    if (wr->opcode == IBV_WR_SEND_WITH_INV || wr->opcode == IBV_WR_LOCAL_INV) {
        o[SWR_IMM_DATA] = wr->invalidate_rkey; /* an rkey: host order */
    } else if (wr->opcode == IBV_WR_SEND_WITH_IMM || wr->opcode == IBV_WR_RDMA_WRITE_WITH_IMM) {
        o[SWR_IMM_DATA] = ntohl(wr->imm_data);
    } else {
        o[SWR_IMM_DATA] = 0;
    }
    /* the wr union is read by opcode; a UD QP's WR carries an address handle instead */
    if (wr->opcode == IBV_WR_ATOMIC_CMP_AND_SWP || wr->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD) {
        o[SWR_REMOTE_ADDR] = (int64_t)wr->wr.atomic.remote_addr;
        o[SWR_RKEY] = wr->wr.atomic.rkey;
        o[SWR_COMPARE_ADD] = (int64_t)wr->wr.atomic.compare_add;
        o[SWR_SWAP] = (int64_t)wr->wr.atomic.swap;
    } else if (wr->opcode == IBV_WR_RDMA_WRITE || wr->opcode == IBV_WR_RDMA_WRITE_WITH_IMM
               || wr->opcode == IBV_WR_RDMA_READ) {
        o[SWR_REMOTE_ADDR] = (int64_t)wr->wr.rdma.remote_addr;
        o[SWR_RKEY] = wr->wr.rdma.rkey;
        o[SWR_COMPARE_ADD] = 0;
        o[SWR_SWAP] = 0;
    } else {
        o[SWR_REMOTE_ADDR] = 0;
        o[SWR_RKEY] = 0;
        o[SWR_COMPARE_ADD] = 0;
        o[SWR_SWAP] = 0;
    }
    o[SWR_AH] = 0;
    o[SWR_REMOTE_QPN] = 0;
    o[SWR_REMOTE_QKEY] = 0;
    o[SWR_NUM_SGE] = wr->num_sge;
}

void sge_to_slots(const struct ibv_sge *sge, int64_t *o)
{
    o[SGE_ADDR] = (int64_t)sge->addr;
    o[SGE_LENGTH] = sge->length;
    o[SGE_LKEY] = sge->lkey;
}

void qp_init_to_slots(const struct ibv_qp_init_attr *init, int64_t *o)
{
    o[QI_SEND_CQ] = (int64_t)(uintptr_t)init->send_cq;
    o[QI_RECV_CQ] = (int64_t)(uintptr_t)init->recv_cq;
    o[QI_SRQ] = (int64_t)(uintptr_t)init->srq;
    o[QI_QP_TYPE] = init->qp_type;
    o[QI_SQ_SIG_ALL] = init->sq_sig_all;
    o[QI_MAX_SEND_WR] = init->cap.max_send_wr;
    o[QI_MAX_RECV_WR] = init->cap.max_recv_wr;
    o[QI_MAX_SEND_SGE] = init->cap.max_send_sge;
    o[QI_MAX_RECV_SGE] = init->cap.max_recv_sge;
    o[QI_MAX_INLINE_DATA] = init->cap.max_inline_data;
    o[QI_QP_NUM] = 0;
}
