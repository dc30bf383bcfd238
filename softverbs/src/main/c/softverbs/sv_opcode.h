/* RoCEv2 BTH opcodes: one X-macro list generates the enum, the names and the per-opcode info
 * (headers present, role, header length), so the three cannot drift apart (IBTA Vol 1 §9.2,
 * table 35 "OpCode Field"; rdma-facts §5.3). */
#ifndef SV_OPCODE_H
#define SV_OPCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bits of an opcode's mask. Header-present bits say which extension headers follow the BTH;
 * role bits say what the packet does. Kept apart from opcodes by the sv_hdr_mask_t type. */
enum sv_hdr_bit {
    /* extension headers present after the BTH (wire order: DETH RETH ATMETH AETH ATMACK IMMDT IETH) */
    SV_HDR_DETH    = 1u << 0,   /* datagram ETH: Q_Key, source QP (UD) */
    SV_HDR_RETH    = 1u << 1,   /* RDMA ETH: VA, R_Key, DMA length */
    SV_HDR_ATMETH  = 1u << 2,   /* atomic ETH: VA, R_Key, swap/add, compare */
    SV_HDR_AETH    = 1u << 3,   /* ACK ETH: syndrome, MSN */
    SV_HDR_ATMACK  = 1u << 4,   /* atomic ACK ETH: original remote value */
    SV_HDR_IMMDT   = 1u << 5,   /* immediate data */
    SV_HDR_IETH    = 1u << 6,   /* invalidate ETH: R_Key to invalidate */
    SV_HDR_CNPRSV  = 1u << 7,   /* the 16 reserved bytes of a RoCEv2 CNP */
    SV_HDR_PAYLOAD = 1u << 8,   /* may carry payload (and pad) */
    /* roles */
    SV_HDR_REQ     = 1u << 9,   /* requester -> responder */
    SV_HDR_ACK     = 1u << 10,  /* responder -> requester (ACK, atomic ACK, READ responses) */
    SV_HDR_RESP    = SV_HDR_ACK,/* alias: same direction, read as "response" */
    SV_HDR_START   = 1u << 11,  /* first packet of a message (ONLY = START|END) */
    SV_HDR_MIDDLE  = 1u << 12,
    SV_HDR_END     = 1u << 13,  /* last packet of a message */
    SV_HDR_SEND    = 1u << 14,
    SV_HDR_WRITE   = 1u << 15,
    SV_HDR_READ    = 1u << 16,  /* READ request and READ responses */
    SV_HDR_ATOMIC  = 1u << 17,  /* atomic requests and the atomic ACK */
    SV_HDR_RC      = 1u << 18,
    SV_HDR_UC      = 1u << 19,
    SV_HDR_UD      = 1u << 20,
    SV_HDR_CNP     = 1u << 21,  /* congestion notification packet */
    SV_HDR_RWR     = 1u << 22,  /* consumes a receive WR at the responder (SEND*, WRITE..IMM last/only) */
    SV_HDR_COMP    = 1u << 23,  /* completes a message at the responder (last/only SEND, WRITE with IMM) */
};

typedef struct { uint32_t bits; } sv_hdr_mask_t;

static inline bool sv_mask_has(sv_hdr_mask_t m, uint32_t bit) { return (m.bits & bit) != 0; }
/* True only when every bit of `bits` is set. */
static inline bool sv_mask_has_all(sv_hdr_mask_t m, uint32_t bits) { return (m.bits & bits) == bits; }

/* Wire lengths of the headers (bytes). */
#define SV_BTH_LEN     12
#define SV_DETH_LEN    8
#define SV_RETH_LEN    16
#define SV_ATMETH_LEN  28
#define SV_AETH_LEN    4
#define SV_ATMACK_LEN  8
#define SV_IMMDT_LEN   4
#define SV_IETH_LEN    4
#define SV_CNPRSV_LEN  16
#define SV_ICRC_LEN    4

/* Shorthands used only by the list below. */
#define SV_OPM_RC_SEND  (SV_HDR_RC | SV_HDR_REQ | SV_HDR_SEND | SV_HDR_PAYLOAD | SV_HDR_RWR)
#define SV_OPM_UC_SEND  (SV_HDR_UC | SV_HDR_REQ | SV_HDR_SEND | SV_HDR_PAYLOAD | SV_HDR_RWR)
#define SV_OPM_RC_WRITE (SV_HDR_RC | SV_HDR_REQ | SV_HDR_WRITE | SV_HDR_PAYLOAD)
#define SV_OPM_UC_WRITE (SV_HDR_UC | SV_HDR_REQ | SV_HDR_WRITE | SV_HDR_PAYLOAD)
#define SV_OPM_ONLY     (SV_HDR_START | SV_HDR_END)

/* X(NAME, value, mask bits): every opcode softverbs knows. RD (0x40-0x5F) is not modelled. */
#define SV_OPCODE_LIST(X) \
    X(RC_SEND_FIRST,                      0x00, SV_OPM_RC_SEND | SV_HDR_START) \
    X(RC_SEND_MIDDLE,                     0x01, SV_OPM_RC_SEND | SV_HDR_MIDDLE) \
    X(RC_SEND_LAST,                       0x02, SV_OPM_RC_SEND | SV_HDR_END | SV_HDR_COMP) \
    X(RC_SEND_LAST_WITH_IMMEDIATE,        0x03, SV_OPM_RC_SEND | SV_HDR_END | SV_HDR_COMP | SV_HDR_IMMDT) \
    X(RC_SEND_ONLY,                       0x04, SV_OPM_RC_SEND | SV_OPM_ONLY | SV_HDR_COMP) \
    X(RC_SEND_ONLY_WITH_IMMEDIATE,        0x05, SV_OPM_RC_SEND | SV_OPM_ONLY | SV_HDR_COMP | SV_HDR_IMMDT) \
    X(RC_RDMA_WRITE_FIRST,                0x06, SV_OPM_RC_WRITE | SV_HDR_START | SV_HDR_RETH) \
    X(RC_RDMA_WRITE_MIDDLE,               0x07, SV_OPM_RC_WRITE | SV_HDR_MIDDLE) \
    X(RC_RDMA_WRITE_LAST,                 0x08, SV_OPM_RC_WRITE | SV_HDR_END) \
    X(RC_RDMA_WRITE_LAST_WITH_IMMEDIATE,  0x09, SV_OPM_RC_WRITE | SV_HDR_END | SV_HDR_IMMDT | SV_HDR_RWR | SV_HDR_COMP) \
    X(RC_RDMA_WRITE_ONLY,                 0x0A, SV_OPM_RC_WRITE | SV_OPM_ONLY | SV_HDR_RETH) \
    X(RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE,  0x0B, SV_OPM_RC_WRITE | SV_OPM_ONLY | SV_HDR_RETH | SV_HDR_IMMDT | SV_HDR_RWR | SV_HDR_COMP) \
    X(RC_RDMA_READ_REQUEST,               0x0C, SV_HDR_RC | SV_HDR_REQ | SV_HDR_READ | SV_OPM_ONLY | SV_HDR_RETH) \
    X(RC_RDMA_READ_RESPONSE_FIRST,        0x0D, SV_HDR_RC | SV_HDR_ACK | SV_HDR_READ | SV_HDR_PAYLOAD | SV_HDR_START | SV_HDR_AETH) \
    X(RC_RDMA_READ_RESPONSE_MIDDLE,       0x0E, SV_HDR_RC | SV_HDR_ACK | SV_HDR_READ | SV_HDR_PAYLOAD | SV_HDR_MIDDLE) \
    X(RC_RDMA_READ_RESPONSE_LAST,         0x0F, SV_HDR_RC | SV_HDR_ACK | SV_HDR_READ | SV_HDR_PAYLOAD | SV_HDR_END | SV_HDR_AETH) \
    X(RC_RDMA_READ_RESPONSE_ONLY,         0x10, SV_HDR_RC | SV_HDR_ACK | SV_HDR_READ | SV_HDR_PAYLOAD | SV_OPM_ONLY | SV_HDR_AETH) \
    X(RC_ACKNOWLEDGE,                     0x11, SV_HDR_RC | SV_HDR_ACK | SV_OPM_ONLY | SV_HDR_AETH) \
    X(RC_ATOMIC_ACKNOWLEDGE,              0x12, SV_HDR_RC | SV_HDR_ACK | SV_HDR_ATOMIC | SV_OPM_ONLY | SV_HDR_AETH | SV_HDR_ATMACK) \
    X(RC_COMPARE_SWAP,                    0x13, SV_HDR_RC | SV_HDR_REQ | SV_HDR_ATOMIC | SV_OPM_ONLY | SV_HDR_ATMETH) \
    X(RC_FETCH_ADD,                       0x14, SV_HDR_RC | SV_HDR_REQ | SV_HDR_ATOMIC | SV_OPM_ONLY | SV_HDR_ATMETH) \
    X(RC_SEND_LAST_WITH_INVALIDATE,       0x16, SV_OPM_RC_SEND | SV_HDR_END | SV_HDR_COMP | SV_HDR_IETH) \
    X(RC_SEND_ONLY_WITH_INVALIDATE,       0x17, SV_OPM_RC_SEND | SV_OPM_ONLY | SV_HDR_COMP | SV_HDR_IETH) \
    X(UC_SEND_FIRST,                      0x20, SV_OPM_UC_SEND | SV_HDR_START) \
    X(UC_SEND_MIDDLE,                     0x21, SV_OPM_UC_SEND | SV_HDR_MIDDLE) \
    X(UC_SEND_LAST,                       0x22, SV_OPM_UC_SEND | SV_HDR_END | SV_HDR_COMP) \
    X(UC_SEND_LAST_WITH_IMMEDIATE,        0x23, SV_OPM_UC_SEND | SV_HDR_END | SV_HDR_COMP | SV_HDR_IMMDT) \
    X(UC_SEND_ONLY,                       0x24, SV_OPM_UC_SEND | SV_OPM_ONLY | SV_HDR_COMP) \
    X(UC_SEND_ONLY_WITH_IMMEDIATE,        0x25, SV_OPM_UC_SEND | SV_OPM_ONLY | SV_HDR_COMP | SV_HDR_IMMDT) \
    X(UC_RDMA_WRITE_FIRST,                0x26, SV_OPM_UC_WRITE | SV_HDR_START | SV_HDR_RETH) \
    X(UC_RDMA_WRITE_MIDDLE,               0x27, SV_OPM_UC_WRITE | SV_HDR_MIDDLE) \
    X(UC_RDMA_WRITE_LAST,                 0x28, SV_OPM_UC_WRITE | SV_HDR_END) \
    X(UC_RDMA_WRITE_LAST_WITH_IMMEDIATE,  0x29, SV_OPM_UC_WRITE | SV_HDR_END | SV_HDR_IMMDT | SV_HDR_RWR | SV_HDR_COMP) \
    X(UC_RDMA_WRITE_ONLY,                 0x2A, SV_OPM_UC_WRITE | SV_OPM_ONLY | SV_HDR_RETH) \
    X(UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE,  0x2B, SV_OPM_UC_WRITE | SV_OPM_ONLY | SV_HDR_RETH | SV_HDR_IMMDT | SV_HDR_RWR | SV_HDR_COMP) \
    X(UD_SEND_ONLY,                       0x64, SV_HDR_UD | SV_HDR_REQ | SV_HDR_SEND | SV_HDR_PAYLOAD | SV_OPM_ONLY | SV_HDR_DETH | SV_HDR_RWR | SV_HDR_COMP) \
    X(UD_SEND_ONLY_WITH_IMMEDIATE,        0x65, SV_HDR_UD | SV_HDR_REQ | SV_HDR_SEND | SV_HDR_PAYLOAD | SV_OPM_ONLY | SV_HDR_DETH | SV_HDR_IMMDT | SV_HDR_RWR | SV_HDR_COMP) \
    X(CNP,                                0x81, SV_HDR_CNP | SV_HDR_CNPRSV)

enum sv_opcode {
#define SV_OPCODE_ENUM(name, value, mask) SV_OP_##name = value,
    SV_OPCODE_LIST(SV_OPCODE_ENUM)
#undef SV_OPCODE_ENUM
};

/* Byte offset (from the start of the BTH) of each extension header for a given mask; only
 * meaningful when that header is present. Constant expressions, so the table stays static. */
#define SV_OFF_DETH(m)   SV_BTH_LEN
#define SV_OFF_RETH(m)   (SV_OFF_DETH(m)   + (((m) & SV_HDR_DETH)   ? SV_DETH_LEN   : 0))
#define SV_OFF_ATMETH(m) (SV_OFF_RETH(m)   + (((m) & SV_HDR_RETH)   ? SV_RETH_LEN   : 0))
#define SV_OFF_AETH(m)   (SV_OFF_ATMETH(m) + (((m) & SV_HDR_ATMETH) ? SV_ATMETH_LEN : 0))
#define SV_OFF_ATMACK(m) (SV_OFF_AETH(m)   + (((m) & SV_HDR_AETH)   ? SV_AETH_LEN   : 0))
#define SV_OFF_IMMDT(m)  (SV_OFF_ATMACK(m) + (((m) & SV_HDR_ATMACK) ? SV_ATMACK_LEN : 0))
#define SV_OFF_IETH(m)   (SV_OFF_IMMDT(m)  + (((m) & SV_HDR_IMMDT)  ? SV_IMMDT_LEN  : 0))
#define SV_OFF_CNPRSV(m) (SV_OFF_IETH(m)   + (((m) & SV_HDR_IETH)   ? SV_IETH_LEN   : 0))
#define SV_HDR_LEN_OF(m) (SV_OFF_CNPRSV(m) + (((m) & SV_HDR_CNPRSV) ? SV_CNPRSV_LEN : 0))

struct sv_opcode_info {
    const char   *name;      /* e.g. "RC_SEND_ONLY" */
    sv_hdr_mask_t mask;
    uint8_t       hdr_len;   /* BTH + extension headers, bytes (payload starts here) */
    /* where each extension header starts, counted from the BTH; 0 when absent */
    uint8_t       off_deth, off_reth, off_atmeth, off_aeth, off_atmack, off_immdt, off_ieth;
};

/* Info for a valid opcode, NULL for anything else (reserved, RD, unknown). */
const struct sv_opcode_info *sv_opcode_info(uint8_t opcode);

/* Name of an opcode, or "UNKNOWN" (never NULL). */
const char *sv_opcode_name(uint8_t opcode);

#endif
