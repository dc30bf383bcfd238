/* Slot conversions for ibv_ah_attr and ibv_qp_attr (every field, in the order of layout.h). */
#include "codec.h"

#include <arpa/inet.h>
#include <endian.h>
#include <string.h>

#include "layout.h"

void ah_attr_from_slots(const int64_t *s, struct ibv_ah_attr *ah)
{
    memset(ah, 0, sizeof(*ah));
    memcpy(ah->grh.dgid.raw, s + AH_DGID_0, sizeof(ah->grh.dgid.raw));
    ah->grh.flow_label = (uint32_t)s[AH_FLOW_LABEL];
    ah->grh.sgid_index = (uint8_t)s[AH_SGID_INDEX];
    ah->grh.hop_limit = (uint8_t)s[AH_HOP_LIMIT];
    ah->grh.traffic_class = (uint8_t)s[AH_TRAFFIC_CLASS];
    ah->dlid = (uint16_t)s[AH_DLID];
    ah->sl = (uint8_t)s[AH_SL];
    ah->src_path_bits = (uint8_t)s[AH_SRC_PATH_BITS];
    ah->static_rate = (uint8_t)s[AH_STATIC_RATE];
    ah->is_global = (uint8_t)s[AH_IS_GLOBAL];
    ah->port_num = (uint8_t)s[AH_PORT_NUM];
}

void ah_attr_to_slots(const struct ibv_ah_attr *ah, int64_t *s)
{
    memcpy(s + AH_DGID_0, ah->grh.dgid.raw, sizeof(ah->grh.dgid.raw));
    s[AH_FLOW_LABEL] = ah->grh.flow_label;
    s[AH_SGID_INDEX] = ah->grh.sgid_index;
    s[AH_HOP_LIMIT] = ah->grh.hop_limit;
    s[AH_TRAFFIC_CLASS] = ah->grh.traffic_class;
    s[AH_DLID] = ah->dlid;
    s[AH_SL] = ah->sl;
    s[AH_SRC_PATH_BITS] = ah->src_path_bits;
    s[AH_STATIC_RATE] = ah->static_rate;
    s[AH_IS_GLOBAL] = ah->is_global;
    s[AH_PORT_NUM] = ah->port_num;
}

void qp_attr_from_slots(const int64_t *s, struct ibv_qp_attr *a)
{
    memset(a, 0, sizeof(*a));
    a->qp_state = (enum ibv_qp_state)s[QA_QP_STATE];
    a->cur_qp_state = (enum ibv_qp_state)s[QA_CUR_QP_STATE];
    a->path_mtu = (enum ibv_mtu)s[QA_PATH_MTU];
    a->path_mig_state = (enum ibv_mig_state)s[QA_PATH_MIG_STATE];
    a->qkey = (uint32_t)s[QA_QKEY];
    a->rq_psn = (uint32_t)s[QA_RQ_PSN];
    a->sq_psn = (uint32_t)s[QA_SQ_PSN];
    a->dest_qp_num = (uint32_t)s[QA_DEST_QP_NUM];
    a->qp_access_flags = (unsigned int)s[QA_QP_ACCESS_FLAGS];
    a->cap.max_send_wr = (uint32_t)s[QA_CAP_MAX_SEND_WR];
    a->cap.max_recv_wr = (uint32_t)s[QA_CAP_MAX_RECV_WR];
    a->cap.max_send_sge = (uint32_t)s[QA_CAP_MAX_SEND_SGE];
    a->cap.max_recv_sge = (uint32_t)s[QA_CAP_MAX_RECV_SGE];
    a->cap.max_inline_data = (uint32_t)s[QA_CAP_MAX_INLINE_DATA];
    a->pkey_index = (uint16_t)s[QA_PKEY_INDEX];
    a->alt_pkey_index = (uint16_t)s[QA_ALT_PKEY_INDEX];
    a->en_sqd_async_notify = (uint8_t)s[QA_EN_SQD_ASYNC_NOTIFY];
    a->sq_draining = (uint8_t)s[QA_SQ_DRAINING];
    a->max_rd_atomic = (uint8_t)s[QA_MAX_RD_ATOMIC];
    a->max_dest_rd_atomic = (uint8_t)s[QA_MAX_DEST_RD_ATOMIC];
    a->min_rnr_timer = (uint8_t)s[QA_MIN_RNR_TIMER];
    a->port_num = (uint8_t)s[QA_PORT_NUM];
    a->timeout = (uint8_t)s[QA_TIMEOUT];
    a->retry_cnt = (uint8_t)s[QA_RETRY_CNT];
    a->rnr_retry = (uint8_t)s[QA_RNR_RETRY];
    a->alt_port_num = (uint8_t)s[QA_ALT_PORT_NUM];
    a->alt_timeout = (uint8_t)s[QA_ALT_TIMEOUT];
    a->rate_limit = (uint32_t)s[QA_RATE_LIMIT];
    ah_attr_from_slots(s + QA_AH_BASE, &a->ah_attr);
    ah_attr_from_slots(s + QA_ALT_AH_BASE, &a->alt_ah_attr);
}

void qp_attr_to_slots(const struct ibv_qp_attr *a, int64_t *s)
{
    s[QA_QP_STATE] = a->qp_state;
    s[QA_CUR_QP_STATE] = a->cur_qp_state;
    s[QA_PATH_MTU] = a->path_mtu;
    s[QA_PATH_MIG_STATE] = a->path_mig_state;
    s[QA_QKEY] = a->qkey;
    s[QA_RQ_PSN] = a->rq_psn;
    s[QA_SQ_PSN] = a->sq_psn;
    s[QA_DEST_QP_NUM] = a->dest_qp_num;
    s[QA_QP_ACCESS_FLAGS] = a->qp_access_flags;
    s[QA_CAP_MAX_SEND_WR] = a->cap.max_send_wr;
    s[QA_CAP_MAX_RECV_WR] = a->cap.max_recv_wr;
    s[QA_CAP_MAX_SEND_SGE] = a->cap.max_send_sge;
    s[QA_CAP_MAX_RECV_SGE] = a->cap.max_recv_sge;
    s[QA_CAP_MAX_INLINE_DATA] = a->cap.max_inline_data;
    s[QA_PKEY_INDEX] = a->pkey_index;
    s[QA_ALT_PKEY_INDEX] = a->alt_pkey_index;
    s[QA_EN_SQD_ASYNC_NOTIFY] = a->en_sqd_async_notify;
    s[QA_SQ_DRAINING] = a->sq_draining;
    s[QA_MAX_RD_ATOMIC] = a->max_rd_atomic;
    s[QA_MAX_DEST_RD_ATOMIC] = a->max_dest_rd_atomic;
    s[QA_MIN_RNR_TIMER] = a->min_rnr_timer;
    s[QA_PORT_NUM] = a->port_num;
    s[QA_TIMEOUT] = a->timeout;
    s[QA_RETRY_CNT] = a->retry_cnt;
    s[QA_RNR_RETRY] = a->rnr_retry;
    s[QA_ALT_PORT_NUM] = a->alt_port_num;
    s[QA_ALT_TIMEOUT] = a->alt_timeout;
    s[QA_RATE_LIMIT] = a->rate_limit;
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
