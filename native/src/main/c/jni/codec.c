/* Slot conversions for ibv_ah_attr and ibv_qp_attr (every field, in the order of layout.h). */
#include "codec.h"

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
