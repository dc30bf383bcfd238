/* RoCEv2 transport headers on the wire (all big-endian; IBTA Vol 1 §9.2-9.3, rdma-facts §5.2,
 * §5.4, §5.5). Raw accessors take a pointer to the start of the header they read and may be
 * given unaligned pointers; byte order is handled here and nowhere else. */
#ifndef SV_HDR_H
#define SV_HDR_H

#include <stdint.h>
#include <string.h>

#include "sv_opcode.h"

/* ---- unaligned big-endian loads/stores ---- */
static inline uint16_t sv_ld_be16(const uint8_t *p) { return (uint16_t)((p[0] << 8) | p[1]); }
static inline uint32_t sv_ld_be24(const uint8_t *p) { return ((uint32_t)p[0] << 16) | ((uint32_t)p[1] << 8) | p[2]; }
static inline uint32_t sv_ld_be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
static inline uint64_t sv_ld_be64(const uint8_t *p) { return ((uint64_t)sv_ld_be32(p) << 32) | sv_ld_be32(p + 4); }
static inline void sv_st_be16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static inline void sv_st_be24(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 16); p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)v;
}
static inline void sv_st_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}
static inline void sv_st_be64(uint8_t *p, uint64_t v) { sv_st_be32(p, (uint32_t)(v >> 32)); sv_st_be32(p + 4, (uint32_t)v); }

/* ---- PSN arithmetic: 24-bit serial numbers (rdma-facts §3.5) ---- */
#define SV_PSN_MASK 0xFFFFFFu
#define SV_QPN_MASK 0xFFFFFFu
#define SV_MSN_MASK 0xFFFFFFu

/* <0 when a is before b, 0 when equal, >0 when a is after b (half window 2^23). */
static inline int sv_psn_compare(uint32_t a, uint32_t b)
{
    /* shift the 24-bit difference into the top of a signed 32-bit value; done in unsigned
     * arithmetic and converted with memcpy so there is no signed-overflow UB */
    uint32_t d = (a - b) << 8;
    int32_t s;
    memcpy(&s, &d, sizeof s);
    return s < 0 ? -1 : (s > 0 ? 1 : 0);
}
static inline uint32_t sv_psn_add(uint32_t psn, uint32_t n) { return (psn + n) & SV_PSN_MASK; }

/* ---- BTH (12 bytes) ---- */
#define SV_BTH_SE_BIT     0x80u   /* byte 1 */
#define SV_BTH_MIG_BIT    0x40u   /* byte 1 */
#define SV_BTH_PAD_MASK   0x30u   /* byte 1 */
#define SV_BTH_TVER_MASK  0x0Fu   /* byte 1 */
#define SV_BTH_FECN_BIT   0x80u   /* byte 4 (IBA Resv8a; RoCEv2 ECN feedback) */
#define SV_BTH_BECN_BIT   0x40u   /* byte 4 */
#define SV_BTH_ACK_BIT    0x80u   /* byte 8 */
#define SV_BTH_PKEY_DEFAULT 0xFFFFu

static inline uint8_t  sv_bth_opcode(const uint8_t *bth) { return bth[0]; }
static inline int      sv_bth_se(const uint8_t *bth) { return (bth[1] & SV_BTH_SE_BIT) != 0; }
static inline int      sv_bth_mig(const uint8_t *bth) { return (bth[1] & SV_BTH_MIG_BIT) != 0; }
static inline uint8_t  sv_bth_pad(const uint8_t *bth) { return (uint8_t)((bth[1] & SV_BTH_PAD_MASK) >> 4); }
static inline uint8_t  sv_bth_tver(const uint8_t *bth) { return bth[1] & SV_BTH_TVER_MASK; }
static inline uint16_t sv_bth_pkey(const uint8_t *bth) { return sv_ld_be16(bth + 2); }
static inline int      sv_bth_fecn(const uint8_t *bth) { return (bth[4] & SV_BTH_FECN_BIT) != 0; }
static inline int      sv_bth_becn(const uint8_t *bth) { return (bth[4] & SV_BTH_BECN_BIT) != 0; }
static inline uint32_t sv_bth_qpn(const uint8_t *bth) { return sv_ld_be24(bth + 5); }
static inline int      sv_bth_ackreq(const uint8_t *bth) { return (bth[8] & SV_BTH_ACK_BIT) != 0; }
static inline uint32_t sv_bth_psn(const uint8_t *bth) { return sv_ld_be24(bth + 9); }

static inline void sv_bth_set_opcode(uint8_t *bth, uint8_t op) { bth[0] = op; }
static inline void sv_bth_set_se(uint8_t *bth, int on)
{
    bth[1] = (uint8_t)(on ? (bth[1] | SV_BTH_SE_BIT) : (bth[1] & ~SV_BTH_SE_BIT));
}
static inline void sv_bth_set_mig(uint8_t *bth, int on)
{
    bth[1] = (uint8_t)(on ? (bth[1] | SV_BTH_MIG_BIT) : (bth[1] & ~SV_BTH_MIG_BIT));
}
static inline void sv_bth_set_pad(uint8_t *bth, uint8_t pad)
{
    bth[1] = (uint8_t)((bth[1] & ~SV_BTH_PAD_MASK) | ((pad << 4) & SV_BTH_PAD_MASK));
}
static inline void sv_bth_set_tver(uint8_t *bth, uint8_t tver)
{
    bth[1] = (uint8_t)((bth[1] & ~SV_BTH_TVER_MASK) | (tver & SV_BTH_TVER_MASK));
}
static inline void sv_bth_set_pkey(uint8_t *bth, uint16_t pkey) { sv_st_be16(bth + 2, pkey); }
static inline void sv_bth_set_fecn(uint8_t *bth, int on)
{
    bth[4] = (uint8_t)(on ? (bth[4] | SV_BTH_FECN_BIT) : (bth[4] & ~SV_BTH_FECN_BIT));
}
static inline void sv_bth_set_becn(uint8_t *bth, int on)
{
    bth[4] = (uint8_t)(on ? (bth[4] | SV_BTH_BECN_BIT) : (bth[4] & ~SV_BTH_BECN_BIT));
}
static inline void sv_bth_set_qpn(uint8_t *bth, uint32_t qpn) { sv_st_be24(bth + 5, qpn & SV_QPN_MASK); }
static inline void sv_bth_set_ackreq(uint8_t *bth, int on)
{
    bth[8] = (uint8_t)(on ? (bth[8] | SV_BTH_ACK_BIT) : (bth[8] & ~SV_BTH_ACK_BIT));
}
static inline void sv_bth_set_psn(uint8_t *bth, uint32_t psn) { sv_st_be24(bth + 9, psn & SV_PSN_MASK); }

/* ---- RETH (16 bytes): VA | R_Key | DMA length ---- */
static inline uint64_t sv_reth_va(const uint8_t *h) { return sv_ld_be64(h); }
static inline uint32_t sv_reth_rkey(const uint8_t *h) { return sv_ld_be32(h + 8); }
static inline uint32_t sv_reth_len(const uint8_t *h) { return sv_ld_be32(h + 12); }
static inline void sv_reth_set_va(uint8_t *h, uint64_t va) { sv_st_be64(h, va); }
static inline void sv_reth_set_rkey(uint8_t *h, uint32_t rkey) { sv_st_be32(h + 8, rkey); }
static inline void sv_reth_set_len(uint8_t *h, uint32_t len) { sv_st_be32(h + 12, len); }

/* ---- AETH (4 bytes): syndrome | MSN (§5.5) ---- */
#define SV_AETH_TYPE_MASK     0x60u
#define SV_AETH_VALUE_MASK    0x1Fu
#define SV_AETH_TYPE_ACK      0x00u
#define SV_AETH_TYPE_RNR_NAK  0x20u
#define SV_AETH_TYPE_RSVD     0x40u
#define SV_AETH_TYPE_NAK      0x60u
#define SV_AETH_CREDIT_INVALID 0x1Fu   /* ACK "credits": unlimited/invalid; what rxe always sends */
#define SV_AETH_ACK_SYNDROME  (SV_AETH_TYPE_ACK | SV_AETH_CREDIT_INVALID)
#define SV_NAK_PSN_SEQ_ERR    0x60u    /* IBTA 9.7.5.2.4 NAK codes */
#define SV_NAK_INVALID_REQ    0x61u
#define SV_NAK_REM_ACCESS_ERR 0x62u
#define SV_NAK_REM_OP_ERR     0x63u
#define SV_NAK_INVALID_RD_REQ 0x64u

static inline uint8_t  sv_aeth_syndrome(const uint8_t *h) { return h[0]; }
static inline uint32_t sv_aeth_msn(const uint8_t *h) { return sv_ld_be24(h + 1); }
static inline void sv_aeth_set_syndrome(uint8_t *h, uint8_t syn) { h[0] = syn; }
static inline void sv_aeth_set_msn(uint8_t *h, uint32_t msn) { sv_st_be24(h + 1, msn & SV_MSN_MASK); }
static inline uint8_t sv_aeth_type(uint8_t syndrome) { return syndrome & SV_AETH_TYPE_MASK; }
static inline uint8_t sv_aeth_value(uint8_t syndrome) { return syndrome & SV_AETH_VALUE_MASK; }
/* RNR NAK syndrome carrying an RNR timer code (0..31, §3.4). */
static inline uint8_t sv_aeth_rnr_syndrome(uint8_t timer_code) { return (uint8_t)(SV_AETH_TYPE_RNR_NAK | (timer_code & SV_AETH_VALUE_MASK)); }

/* ---- DETH (8 bytes): Q_Key | reserved | source QP ---- */
static inline uint32_t sv_deth_qkey(const uint8_t *h) { return sv_ld_be32(h); }
static inline uint32_t sv_deth_sqp(const uint8_t *h) { return sv_ld_be24(h + 5); }
static inline void sv_deth_set_qkey(uint8_t *h, uint32_t qkey) { sv_st_be32(h, qkey); }
static inline void sv_deth_set_sqp(uint8_t *h, uint32_t qpn) { sv_st_be24(h + 5, qpn & SV_QPN_MASK); }

/* ---- ImmDt (4 bytes): opaque, kept in network order end to end (wc.imm_data is __be32) ---- */
static inline uint32_t sv_immdt_be(const uint8_t *h) { uint32_t v; memcpy(&v, h, sizeof v); return v; }
static inline void sv_immdt_set_be(uint8_t *h, uint32_t imm_be) { memcpy(h, &imm_be, sizeof imm_be); }

/* ---- IETH (4 bytes): R_Key to invalidate ---- */
static inline uint32_t sv_ieth_rkey(const uint8_t *h) { return sv_ld_be32(h); }
static inline void sv_ieth_set_rkey(uint8_t *h, uint32_t rkey) { sv_st_be32(h, rkey); }

/* ---- AtomicETH (28 bytes): VA | R_Key | swap-or-add | compare ---- */
static inline uint64_t sv_atmeth_va(const uint8_t *h) { return sv_ld_be64(h); }
static inline uint32_t sv_atmeth_rkey(const uint8_t *h) { return sv_ld_be32(h + 8); }
static inline uint64_t sv_atmeth_swap_add(const uint8_t *h) { return sv_ld_be64(h + 12); }
static inline uint64_t sv_atmeth_compare(const uint8_t *h) { return sv_ld_be64(h + 20); }
static inline void sv_atmeth_set_va(uint8_t *h, uint64_t va) { sv_st_be64(h, va); }
static inline void sv_atmeth_set_rkey(uint8_t *h, uint32_t rkey) { sv_st_be32(h + 8, rkey); }
static inline void sv_atmeth_set_swap_add(uint8_t *h, uint64_t v) { sv_st_be64(h + 12, v); }
static inline void sv_atmeth_set_compare(uint8_t *h, uint64_t v) { sv_st_be64(h + 20, v); }

/* ---- AtomicAckETH (8 bytes): original remote value ---- */
static inline uint64_t sv_atmack_orig(const uint8_t *h) { return sv_ld_be64(h); }
static inline void sv_atmack_set_orig(uint8_t *h, uint64_t v) { sv_st_be64(h, v); }

#endif
