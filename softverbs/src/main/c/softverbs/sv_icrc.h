/* The RoCEv2 invariant CRC (IBTA Annex A17 §A17.4.1.3 / Vol 1 §7.8.1; rdma-facts §5.6). */
#ifndef SV_ICRC_H
#define SV_ICRC_H

#include <stddef.h>
#include <stdint.h>

struct sv_flow;

/* The IPv4 + UDP headers the ICRC covers, as the kernel emits them for a datagram sent from an
 * unconnected UDP socket with IP_MTU_DISCOVER = IP_PMTUDISC_DO (see sv_icrc.c). */
#define SV_IPV4_HDR_LEN 20
#define SV_UDP_HDR_LEN  8

/* Ethernet CRC-32 register update (reflected polynomial 0xEDB88320), no pre/post inversion:
 * the caller starts from 0xFFFFFFFF and complements at the end. */
uint32_t sv_crc32_update(uint32_t crc, const void *buf, size_t len);

/* ICRC of a RoCEv2 packet: `pkt` is the UDP payload from the BTH up to and including the pad
 * (`len` bytes, ICRC excluded; len >= 12), `f` the addresses and ports it travels with.
 * The four ICRC bytes on the wire are this value in little-endian order. */
uint32_t sv_icrc_compute(const struct sv_flow *f, const uint8_t *pkt, size_t len);

/* ICRC of a packet with the given IPv4 header (20 bytes, no options) and UDP header (8 bytes)
 * as they were on the wire; the variant fields in them and in the BTH are masked here. Used by
 * sv_icrc_compute and to check captured packets whose IP ID is not 0. */
uint32_t sv_icrc_compute_with_headers(const uint8_t *ipv4_hdr, const uint8_t *udp_hdr,
                                      const uint8_t *pkt, size_t len);

/* Fills the IPv4 and UDP headers the kernel sends for a UDP payload of `udp_payload_len` bytes
 * (ICRC included) on flow f, with the variant fields (TOS, TTL, checksums) zero. */
void sv_icrc_kernel_headers(const struct sv_flow *f, size_t udp_payload_len,
                            uint8_t *ipv4_hdr, uint8_t *udp_hdr);

/* Stores / loads an ICRC value in its wire byte order. */
void sv_icrc_store(uint8_t *dst, uint32_t icrc);
uint32_t sv_icrc_load(const uint8_t *src);

#endif
