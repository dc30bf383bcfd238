/* RoCEv2 ICRC: CRC-32 (Ethernet polynomial, reflected, init all ones, final complement) over
 *   8 bytes of 0xFF (stand-in for the IB LRH)
 *   + the IPv4 header with TOS, TTL and header checksum set to all ones
 *   + the UDP header with its checksum set to all ones
 *   + the BTH with byte 4 (FECN/BECN/Resv) set to all ones
 *   + extension headers, payload and pad,
 * stored little-endian after the pad (rdma-facts §5.6).
 *
 * softverbs never sees the IP/UDP headers the kernel builds, so it rebuilds them. The only
 * field that is not derived from addresses, ports and lengths is the IPv4 Identification: the
 * kernel writes 0 for a DF datagram on an unconnected socket (ip_select_ident_segs: no
 * inet_daddr, DF set, not ignore_df), and a random value otherwise. This was checked with
 * tshark on loopback (kernel 6.18): DF + unconnected -> ID 0x0000 from both 127.0.0.1 and
 * 127.0.0.2; without DF -> a non-zero ID. So sv_udp.c must send from an unconnected socket
 * with IP_MTU_DISCOVER = IP_PMTUDISC_DO, and the header covered here has ID 0 and DF set.
 * No fragmentation happens on such a socket (oversized sends fail with EMSGSIZE), so the
 * fragment offset is always 0. */
#include "sv_icrc.h"

#include <string.h>

#include "sv_hdr.h"
#include "sv_pkt.h"

/* Table for the reflected polynomial, computed by the compiler: entry n is n pushed through
 * eight bit-steps of the CRC register. */
#define SV_CRC_POLY 0xEDB88320u
#define SV_CRC_BIT(c) (((c) >> 1) ^ (SV_CRC_POLY & (0u - ((c) & 1u))))
#define SV_CRC_BYTE(n) SV_CRC_BIT(SV_CRC_BIT(SV_CRC_BIT(SV_CRC_BIT( \
                       SV_CRC_BIT(SV_CRC_BIT(SV_CRC_BIT(SV_CRC_BIT((uint32_t)(n)))))))))
#define SV_CRC_R4(n)   SV_CRC_BYTE(n), SV_CRC_BYTE((n) + 1), SV_CRC_BYTE((n) + 2), SV_CRC_BYTE((n) + 3)
#define SV_CRC_R16(n)  SV_CRC_R4(n), SV_CRC_R4((n) + 4), SV_CRC_R4((n) + 8), SV_CRC_R4((n) + 12)
#define SV_CRC_R64(n)  SV_CRC_R16(n), SV_CRC_R16((n) + 16), SV_CRC_R16((n) + 32), SV_CRC_R16((n) + 48)
#define SV_CRC_R256    SV_CRC_R64(0), SV_CRC_R64(64), SV_CRC_R64(128), SV_CRC_R64(192)

static const uint32_t sv_crc32_table[256] = { SV_CRC_R256 };

/* Slicing-by-8 (the CRC of 8 bytes at a time from 8 tables): entry n of table k is byte n
 * followed by k zero bytes, i.e. table 0 pushed on by k more bytes. About 4x the byte-wise
 * loop, which was half the instructions of the data path. Built once at load. */
static uint32_t sv_crc32_slice[8][256];

__attribute__((constructor)) static void sv_crc32_slice_init(void)
{
    for (int n = 0; n < 256; n++) {
        uint32_t c = sv_crc32_table[n];
        sv_crc32_slice[0][n] = c;
        for (int k = 1; k < 8; k++) {
            c = sv_crc32_table[c & 0xFFu] ^ (c >> 8);
            sv_crc32_slice[k][n] = c;
        }
    }
}

uint32_t sv_crc32_update(uint32_t crc, const void *buf, size_t len)
{
    const uint8_t *p = buf;
    if (p == NULL)
        return crc;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint32_t (*t)[256] = sv_crc32_slice;
    for (; len >= 8; len -= 8, p += 8) {
        uint32_t lo, hi;
        memcpy(&lo, p, 4);
        memcpy(&hi, p + 4, 4);
        lo ^= crc;
        crc = t[7][lo & 0xFFu] ^ t[6][(lo >> 8) & 0xFFu] ^ t[5][(lo >> 16) & 0xFFu] ^ t[4][lo >> 24] ^
              t[3][hi & 0xFFu] ^ t[2][(hi >> 8) & 0xFFu] ^ t[1][(hi >> 16) & 0xFFu] ^ t[0][hi >> 24];
    }
#endif
    for (size_t i = 0; i < len; i++)
        crc = sv_crc32_table[(crc ^ p[i]) & 0xFFu] ^ (crc >> 8);
    return crc;
}

#define SV_IP_PROTO_UDP 17
#define SV_IP_FLAG_DF   0x4000u
#define SV_LRH_STANDIN  8

void sv_icrc_kernel_headers(const struct sv_flow *f, size_t udp_payload_len,
                            uint8_t *ipv4_hdr, uint8_t *udp_hdr)
{
    size_t udp_len = SV_UDP_HDR_LEN + udp_payload_len;
    memset(ipv4_hdr, 0, SV_IPV4_HDR_LEN);
    memset(udp_hdr, 0, SV_UDP_HDR_LEN);
    ipv4_hdr[0] = 0x45;                                  /* version 4, IHL 5 (no options) */
    sv_st_be16(ipv4_hdr + 2, (uint16_t)(SV_IPV4_HDR_LEN + udp_len));
    sv_st_be16(ipv4_hdr + 4, 0);                         /* Identification: 0 for DF, see above */
    sv_st_be16(ipv4_hdr + 6, SV_IP_FLAG_DF);             /* DF, fragment offset 0 */
    ipv4_hdr[9] = SV_IP_PROTO_UDP;
    memcpy(ipv4_hdr + 12, &f->src_ip_be, 4);
    memcpy(ipv4_hdr + 16, &f->dst_ip_be, 4);
    sv_st_be16(udp_hdr + 0, f->src_port);
    sv_st_be16(udp_hdr + 2, f->dst_port);
    sv_st_be16(udp_hdr + 4, (uint16_t)udp_len);
}

uint32_t sv_icrc_compute_with_headers(const uint8_t *ipv4_hdr, const uint8_t *udp_hdr,
                                      const uint8_t *pkt, size_t len)
{
    if (ipv4_hdr == NULL || udp_hdr == NULL || pkt == NULL || len < SV_BTH_LEN)
        return 0;
    uint8_t pre[SV_LRH_STANDIN + SV_IPV4_HDR_LEN + SV_UDP_HDR_LEN + SV_BTH_LEN];
    uint8_t *ip = pre + SV_LRH_STANDIN;
    uint8_t *udp = ip + SV_IPV4_HDR_LEN;
    uint8_t *bth = udp + SV_UDP_HDR_LEN;

    memset(pre, 0xFF, SV_LRH_STANDIN);
    memcpy(ip, ipv4_hdr, SV_IPV4_HDR_LEN);
    ip[1] = 0xFF;                                  /* TOS (DSCP + ECN) */
    ip[8] = 0xFF;                                  /* TTL */
    ip[10] = 0xFF;                                 /* header checksum */
    ip[11] = 0xFF;
    memcpy(udp, udp_hdr, SV_UDP_HDR_LEN);
    udp[6] = 0xFF;                                 /* UDP checksum */
    udp[7] = 0xFF;
    memcpy(bth, pkt, SV_BTH_LEN);
    bth[4] = 0xFF;                                 /* FECN, BECN, Resv6 */

    uint32_t crc = sv_crc32_update(0xFFFFFFFFu, pre, sizeof pre);
    crc = sv_crc32_update(crc, pkt + SV_BTH_LEN, len - SV_BTH_LEN);
    return ~crc;
}

uint32_t sv_icrc_compute(const struct sv_flow *f, const uint8_t *pkt, size_t len)
{
    if (f == NULL || pkt == NULL || len < SV_BTH_LEN)
        return 0;
    uint8_t ip[SV_IPV4_HDR_LEN], udp[SV_UDP_HDR_LEN];
    sv_icrc_kernel_headers(f, len + SV_ICRC_LEN, ip, udp);
    return sv_icrc_compute_with_headers(ip, udp, pkt, len);
}

void sv_icrc_store(uint8_t *dst, uint32_t icrc)
{
    dst[0] = (uint8_t)icrc;
    dst[1] = (uint8_t)(icrc >> 8);
    dst[2] = (uint8_t)(icrc >> 16);
    dst[3] = (uint8_t)(icrc >> 24);
}

uint32_t sv_icrc_load(const uint8_t *src)
{
    return (uint32_t)src[0] | ((uint32_t)src[1] << 8) | ((uint32_t)src[2] << 16) | ((uint32_t)src[3] << 24);
}
