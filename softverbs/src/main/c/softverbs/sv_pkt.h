/* Encoding and validating decoding of RoCEv2 packets (the UDP payload: BTH, extension headers,
 * payload, pad, ICRC). The codec knows the wire only; PSN windows, path MTU, P_Key and Q_Key
 * checks belong to the transport (sv_recv.c and friends). */
#ifndef SV_PKT_H
#define SV_PKT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sv_opcode.h"

#define SV_ROCE_UDP_PORT 4791

/* flags in struct sv_pkt */
#define SV_BTH_SE     0x1
#define SV_BTH_MIG    0x2
#define SV_BTH_ACKREQ 0x4
#define SV_BTH_FECN   0x8    /* not covered by the ICRC */
#define SV_BTH_BECN   0x10   /* not covered by the ICRC */

/* Largest UDP payload an IPv4 datagram can carry (65535 - 20 - 8): the ICRC covers the 16-bit
 * IP total length, so nothing longer can be encoded or accepted. */
#define SV_PKT_MAX_LEN 65507u
/* Smallest valid packet: BTH + ICRC. */
#define SV_PKT_MIN_LEN (SV_BTH_LEN + SV_ICRC_LEN)

struct sv_pkt {                    /* host byte order unless the name says _be */
    uint8_t  opcode;
    uint8_t  flags;                /* SV_BTH_* */
    uint16_t pkey;                 /* 0xFFFF default */
    uint32_t dest_qpn;             /* 24-bit */
    uint32_t psn;                  /* 24-bit */
    struct { uint64_t va; uint32_t rkey; uint32_t len; } reth;
    struct { uint8_t syndrome; uint32_t msn; } aeth;
    struct { uint32_t qkey; uint32_t src_qpn; } deth;
    uint32_t imm_be;               /* immediate data, opaque network order */
    uint32_t ieth_rkey;
    const uint8_t *payload;        /* encode: source; decode: points into the datagram */
    uint32_t payload_len;
    /* additions beyond the first contract */
    struct { uint64_t va; uint32_t rkey; uint64_t swap_add; uint64_t compare; } atmeth;
    uint64_t atmack_orig;          /* AtomicAckETH: original remote value */
    uint8_t  pad;                  /* decode: pad count found on the wire; ignored by encode */
};

/* The IPv4 addresses (network order) and UDP ports (host order) a packet travels with; the
 * ICRC covers them. For a received datagram: src = the sender (recvfrom), dst = our bound address. */
struct sv_flow { uint32_t src_ip_be, dst_ip_be; uint16_t src_port, dst_port; };

/* Why a received datagram was refused. Values are negative so decode can return them. */
#define SV_PKT_ERR_LIST(X) \
    X(ARG,       -1, "null argument") \
    X(TRUNCATED, -2, "shorter than BTH + ICRC") \
    X(TOO_LONG,  -3, "longer than the largest IPv4 UDP payload") \
    X(TVER,      -4, "BTH transport version is not 0") \
    X(OPCODE,    -5, "unknown or unsupported opcode") \
    X(HDR_LEN,   -6, "shorter than the opcode's headers + ICRC") \
    X(ALIGN,     -7, "length is not a multiple of 4") \
    X(PAD,       -8, "pad count larger than the bytes after the headers") \
    X(LENGTH,    -9, "bytes after the headers of an opcode that carries no payload") \
    X(ICRC,     -10, "ICRC mismatch")

enum sv_pkt_err {
    SV_PKT_OK = 0,
#define SV_PKT_ERR_ENUM(name, value, text) SV_PKT_ERR_##name = value,
    SV_PKT_ERR_LIST(SV_PKT_ERR_ENUM)
#undef SV_PKT_ERR_ENUM
};
#define SV_PKT_ERR_ONE(name, value, text) +1
enum { SV_PKT_ERR_COUNT = 0 SV_PKT_ERR_LIST(SV_PKT_ERR_ONE) };
#undef SV_PKT_ERR_ONE

/* Serialises BTH..payload..pad..ICRC (the UDP payload) into buf; returns length or -errno:
 * -EINVAL for a NULL argument, an unknown opcode, payload on an opcode without payload, or a
 * QPN/PSN/MSN/source QPN wider than 24 bits; -EMSGSIZE when the packet would exceed
 * SV_PKT_MAX_LEN or `cap`. Fields of headers the opcode does not carry are ignored. */
ssize_t sv_pkt_encode(const struct sv_pkt *p, const struct sv_flow *f, uint8_t *buf, size_t cap);

/* Validates and parses a received UDP payload (length vs opcode, TVer 0, known opcode, pad,
 * ICRC); returns 0 or a negative enum sv_pkt_err; sv_pkt_err_name(err) names it. Never reads
 * outside buf[0..len). On error *out is zeroed. out->payload points into buf. */
int sv_pkt_decode(const uint8_t *buf, size_t len, const struct sv_flow *f, struct sv_pkt *out);

/* UDP payload bytes of a packet with this opcode and payload length (headers + payload + pad +
 * ICRC); 0 for an unknown opcode. */
size_t sv_pkt_wire_len(uint8_t opcode, uint32_t payload_len);

/* "ICRC", "TRUNCATED", … for an enum sv_pkt_err (or "OK"); "UNKNOWN" otherwise. */
const char *sv_pkt_err_name(int err);
/* One-line human description of an enum sv_pkt_err. */
const char *sv_pkt_err_text(int err);

#endif
