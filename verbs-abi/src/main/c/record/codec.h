/* Conversions between libibverbs structs and the slot layouts of layout.h, shared by several verbs. */
#ifndef RDMATRACE_CODEC_H
#define RDMATRACE_CODEC_H

#include <stdint.h>
#include <infiniband/verbs.h>

/* Offsets of the two ah_attr blocks behind a QP_ATTR block. */
#define QA_AH_BASE QA_NSLOTS
#define QA_ALT_AH_BASE (QA_NSLOTS + AH_NSLOTS)
#define QA_BLOCK_NSLOTS (QA_NSLOTS + 2 * AH_NSLOTS)

void ah_attr_from_slots(const int64_t *slots, struct ibv_ah_attr *ah);
void ah_attr_to_slots(const struct ibv_ah_attr *ah, int64_t *slots);

/* A QP_ATTR block followed by its ah_attr and alt_ah_attr blocks. */
void qp_attr_from_slots(const int64_t *slots, struct ibv_qp_attr *attr);
void qp_attr_to_slots(const struct ibv_qp_attr *attr, int64_t *slots);

/* ibv_device_attr (fw_ver travels separately: it is text). GUIDs in host order. */
void device_attr_to_slots(const struct ibv_device_attr *a, int64_t *slots);
void port_attr_to_slots(const struct ibv_port_attr *a, int64_t *slots);

/* One ibv_wc; imm_data in host order (an invalidated rkey when the completion carries one). */
void wc_to_slots(const struct ibv_wc *wc, int64_t *slots);

/* One ibv_send_wr without its SGEs (they follow as SGE blocks); imm_data in host order. */
void send_wr_to_slots(const struct ibv_send_wr *wr, int64_t *slots);
void sge_to_slots(const struct ibv_sge *sge, int64_t *slots);

/* A QP_INIT block as asked (QP_NUM 0); ibv_qp_init_attr_ex callers pass its leading common fields. */
void qp_init_to_slots(const struct ibv_qp_init_attr *init, int64_t *slots);

#endif
