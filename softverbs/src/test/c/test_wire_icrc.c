/* The CRC-32 engine and the RoCEv2 ICRC: the standard CRC-32 check value, a packet captured
 * from real hardware, the kernel headers softverbs assumes, and which fields the ICRC covers. */
#include <arpa/inet.h>

#include "sv_hdr.h"
#include "sv_icrc.h"
#include "sv_pkt.h"
#include "wire_check.h"

static void check_crc32_engine(void)
{
    /* CRC-32/ISO-HDLC check value: crc32("123456789") = 0xCBF43926 (zlib, Ethernet FCS) */
    CHECK_EQ(~sv_crc32_update(0xFFFFFFFFu, "123456789", 9), 0xCBF43926u);
    CHECK_EQ(~sv_crc32_update(0xFFFFFFFFu, "", 0), 0);
    /* the register after the 8-byte LRH stand-in is rxe's seed 0xDEBB20E3
     * (python: hex(~zlib.crc32(b'\xff'*8) & 0xffffffff)) */
    const uint8_t ff8[8] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };
    CHECK_EQ(sv_crc32_update(0xFFFFFFFFu, ff8, 8), 0xDEBB20E3u);
    /* chunked updates equal one update */
    const char *text = "The quick brown fox jumps over the lazy dog";
    uint32_t one = sv_crc32_update(0xFFFFFFFFu, text, strlen(text));
    uint32_t two = sv_crc32_update(sv_crc32_update(0xFFFFFFFFu, text, 10), text + 10, strlen(text) - 10);
    CHECK_EQ(one, two);
    CHECK_EQ(~one, 0x414FA339u);                     /* python: zlib.crc32(b"The quick ... dog") */
}

/* A RoCEv2 CNP captured on a ConnectX-4 Lx (published as a test vector in scapy's
 * test/contrib/roce.uts): Ethernet | IPv4 (TOS 0xC2, ID 0x718C, DF, TTL 64) | UDP 0 -> 4791 |
 * BTH opcode 0x81, BECN, P_Key 0xFFFF, QPN 0x000118 | 16 reserved bytes | ICRC 82 FD 00 2A.
 * Real hardware computed that ICRC, so this pins the masking rules, not just our reading. */
static const uint8_t cx4_cnp_frame[] = {
    0xe4, 0x1d, 0x2d, 0xab, 0x2b, 0xc2, 0x7c, 0xfe, 0x90, 0x64, 0x3b, 0x32, 0x08, 0x00, 0x45, 0xc2,
    0x00, 0x3c, 0x71, 0x8c, 0x40, 0x00, 0x40, 0x11, 0x91, 0x61, 0x0a, 0x00, 0x11, 0x01, 0x0a, 0x00,
    0x12, 0x01, 0x00, 0x00, 0x12, 0xb7, 0x00, 0x28, 0x00, 0x00, 0x81, 0x00, 0xff, 0xff, 0x40, 0x00,
    0x01, 0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x82, 0xfd, 0x00, 0x2a,
};

/* The 8-bytes-at-a-time engine agrees with the plain bitwise CRC for every length and
 * alignment around its 8-byte steps. */
static void check_crc32_slicing(void)
{
    static uint8_t buf[200];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)(i * 37 + 11);
    int bad = 0;
    for (size_t off = 0; off < 8; off++) {
        for (size_t len = 0; len + off <= sizeof buf; len++) {
            uint32_t ref = 0xFFFFFFFFu;
            for (size_t i = 0; i < len; i++) {
                ref ^= buf[off + i];
                for (int b = 0; b < 8; b++)
                    ref = (ref >> 1) ^ (0xEDB88320u & (0u - (ref & 1u)));
            }
            bad += sv_crc32_update(0xFFFFFFFFu, buf + off, len) != ref;
        }
    }
    CHECK_EQ(bad, 0);
}

static void check_hardware_packet(void)
{
    const uint8_t *ip = cx4_cnp_frame + 14, *udp = ip + 20, *roce = udp + 8;
    size_t roce_len = sizeof cx4_cnp_frame - 14 - 20 - 8;      /* 32 = BTH + 16 + ICRC */
    CHECK_EQ(roce_len, 32);
    uint32_t icrc = sv_icrc_compute_with_headers(ip, udp, roce, roce_len - SV_ICRC_LEN);
    CHECK_EQ(icrc, 0x2A00FD82u);
    CHECK_EQ(sv_icrc_load(roce + roce_len - SV_ICRC_LEN), 0x2A00FD82u);
    uint8_t wire[4];
    sv_icrc_store(wire, icrc);
    CHECK_MEM(wire, roce + roce_len - SV_ICRC_LEN, 4);

    /* our decoder accepts it when given headers that match: with ID 0x718C it cannot (softverbs
     * assumes ID 0), so decode must refuse it with ICRC and nothing else */
    struct sv_flow f = { 0, 0, 0, SV_ROCE_UDP_PORT };
    memcpy(&f.src_ip_be, ip + 12, 4);
    memcpy(&f.dst_ip_be, ip + 16, 4);
    struct sv_pkt p;
    CHECK_EQ(sv_pkt_decode(roce, roce_len, &f, &p), SV_PKT_ERR_ICRC);
    /* with the ID zeroed and the ICRC recomputed the way the kernel-header path does, it decodes */
    uint8_t ip0[20], copy[32];
    memcpy(ip0, ip, 20);
    ip0[4] = ip0[5] = 0;
    memcpy(copy, roce, sizeof copy);
    sv_icrc_store(copy + 28, sv_icrc_compute_with_headers(ip0, udp, copy, 28));
    CHECK_EQ(sv_pkt_decode(copy, sizeof copy, &f, &p), SV_PKT_OK);
    CHECK_EQ(p.opcode, SV_OP_CNP);
    CHECK_EQ(p.dest_qpn, 0x118);
    CHECK_EQ(p.flags, SV_BTH_BECN);
    CHECK_EQ(p.payload_len, 0);
}

/* The IPv4/UDP headers Linux sent for a 40-byte DF datagram from an unconnected socket
 * 127.0.0.2 -> 127.0.0.1:4791 (captured with tshark -i lo): 45 00 00 44 00 00 40 00 40 11 <csum>
 * 7f 00 00 02 7f 00 00 01 | <sport> 12 b7 00 30 <csum>. Variant fields are zero in ours. */
static void check_kernel_headers(void)
{
    struct sv_flow f = { htonl(0x7F000002), htonl(0x7F000001), 0xC000, SV_ROCE_UDP_PORT };
    uint8_t ip[20], udp[8];
    sv_icrc_kernel_headers(&f, 40, ip, udp);
    const uint8_t want_ip[20] = { 0x45, 0x00, 0x00, 0x44, 0x00, 0x00, 0x40, 0x00, 0x00, 0x11,
                                  0x00, 0x00, 0x7f, 0x00, 0x00, 0x02, 0x7f, 0x00, 0x00, 0x01 };
    const uint8_t want_udp[8] = { 0xc0, 0x00, 0x12, 0xb7, 0x00, 0x30, 0x00, 0x00 };
    CHECK_MEM(ip, want_ip, 20);
    CHECK_MEM(udp, want_udp, 8);
}

/* Variant fields (TOS, TTL, IP checksum, UDP checksum, BTH byte 4) do not change the ICRC;
 * every invariant byte of the IP/UDP headers, the BTH and the payload does. */
static void check_coverage(void)
{
    struct sv_flow f = { htonl(0x7F000002), htonl(0x7F000001), SV_ROCE_UDP_PORT, SV_ROCE_UDP_PORT };
    uint8_t pkt[24] = { 0x04, 0x30, 0xff, 0xff, 0x00, 0x00, 0x00, 0x11, 0x80, 0x3a, 0x2f, 0x1c,
                        'h', 'e', 'l', 'l', 'o', 0, 0, 0 };
    uint8_t ip[20], udp[8];
    sv_icrc_kernel_headers(&f, sizeof pkt, ip, udp);
    const uint32_t base = sv_icrc_compute_with_headers(ip, udp, pkt, 20);
    CHECK_EQ(base, sv_icrc_compute(&f, pkt, 20));
    /* 0x030ed2ad: see vec_send_only in wire_vectors.py (bytes ad d2 0e 03) */
    CHECK_EQ(base, 0x030ED2ADu);

    for (unsigned i = 0; i < 20; i++) {
        uint8_t m[20];
        memcpy(m, ip, 20);
        m[i] ^= 0x5A;
        int variant = i == 1 || i == 8 || i == 10 || i == 11;
        CHECK_EQ(sv_icrc_compute_with_headers(m, udp, pkt, 20) == base, variant);
    }
    for (unsigned i = 0; i < 8; i++) {
        uint8_t m[8];
        memcpy(m, udp, 8);
        m[i] ^= 0x5A;
        CHECK_EQ(sv_icrc_compute_with_headers(ip, m, pkt, 20) == base, i >= 6);
    }
    for (unsigned i = 0; i < 20; i++) {
        uint8_t m[24];
        memcpy(m, pkt, 24);
        m[i] ^= 0x5A;
        CHECK_EQ(sv_icrc_compute_with_headers(ip, udp, m, 20) == base, i == 4);
    }
    /* the flow is covered: another port or address gives another ICRC */
    struct sv_flow g = f;
    g.src_port = 0xC001;
    CHECK(sv_icrc_compute(&g, pkt, 20) != base);
    g = f;
    g.dst_ip_be = htonl(0x7F000003);
    CHECK(sv_icrc_compute(&g, pkt, 20) != base);
    /* argument checks */
    CHECK_EQ(sv_icrc_compute(NULL, pkt, 20), 0);
    CHECK_EQ(sv_icrc_compute(&f, NULL, 20), 0);
    CHECK_EQ(sv_icrc_compute(&f, pkt, 11), 0);
}

int main(void)
{
    check_crc32_engine();
    check_crc32_slicing();
    check_hardware_packet();
    check_kernel_headers();
    check_coverage();
    return wire_check_report("test_wire_icrc");
}
