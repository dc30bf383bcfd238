/* Randomised decode/encode of RoCEv2 packets (fixed seed, bounded iterations), built with
 * AddressSanitizer + UBSan by `make -C softverbs fuzz`: decode must never read outside the datagram
 * or crash on any input, and whatever it accepts must be self-consistent and re-encodable.
 * Usage: fuzz_wire_decode [iterations] [seed] */
#include <arpa/inet.h>
#include <stdlib.h>

#include "sv_hdr.h"
#include "sv_icrc.h"
#include "sv_pkt.h"
#include "wire_check.h"

#define MAX_DGRAM 9200        /* covers a 9000-byte link MTU and then some */

static uint32_t rnd(uint64_t *s, uint32_t bound) { return bound ? (uint32_t)(wire_rand(s) % bound) : 0; }

/* A valid packet of a random opcode into buf; returns its length. */
static size_t make_valid(uint64_t *s, const struct sv_flow *f, uint8_t *buf, size_t cap)
{
    static uint8_t src[MAX_DGRAM];
    for (;;) {
        uint8_t op = (uint8_t)rnd(s, 256);
        const struct sv_opcode_info *info = sv_opcode_info(op);
        if (info == NULL)
            continue;
        uint32_t len = sv_mask_has(info->mask, SV_HDR_PAYLOAD) ? rnd(s, rnd(s, 2) ? 64 : 4200) : 0;
        for (uint32_t i = 0; i < len; i++)
            src[i] = (uint8_t)wire_rand(s);
        struct sv_pkt p = {
            .opcode = op, .flags = (uint8_t)rnd(s, 32), .pkey = (uint16_t)wire_rand(s),
            .dest_qpn = rnd(s, 1u << 24), .psn = rnd(s, 1u << 24),
            .reth = { wire_rand(s), (uint32_t)wire_rand(s), (uint32_t)wire_rand(s) },
            .aeth = { (uint8_t)wire_rand(s), rnd(s, 1u << 24) },
            .deth = { (uint32_t)wire_rand(s), rnd(s, 1u << 24) },
            .imm_be = (uint32_t)wire_rand(s), .ieth_rkey = (uint32_t)wire_rand(s),
            .atmeth = { wire_rand(s), (uint32_t)wire_rand(s), wire_rand(s), wire_rand(s) },
            .atmack_orig = wire_rand(s), .payload = src, .payload_len = len,
        };
        ssize_t n = sv_pkt_encode(&p, f, buf, cap);
        if (n < 0) {
            fprintf(stderr, "encode of a valid packet failed: op 0x%02x len %u: %zd\n", op, len, n);
            abort();
        }
        return (size_t)n;
    }
}

/* Damages a packet the ways a hostile or broken sender might. */
static size_t mutate(uint64_t *s, uint8_t *buf, size_t len, const struct sv_flow *f)
{
    switch (rnd(s, 8)) {
    case 0: /* a few bit flips anywhere */
        for (uint32_t k = rnd(s, 8) + 1; k > 0 && len > 0; k--)
            buf[rnd(s, (uint32_t)len)] ^= (uint8_t)(1u << rnd(s, 8));
        break;
    case 1: /* truncate */
        len = rnd(s, (uint32_t)len + 1);
        break;
    case 2: /* grow with garbage */
        for (uint32_t k = rnd(s, 64) + 1; k > 0 && len < MAX_DGRAM; k--)
            buf[len++] = (uint8_t)wire_rand(s);
        break;
    case 3: /* another opcode over the same bytes */
        if (len > 0)
            buf[0] = (uint8_t)wire_rand(s);
        break;
    case 4: /* pad count / TVer byte */
        if (len > 1)
            buf[1] = (uint8_t)wire_rand(s);
        break;
    case 5: /* entirely random datagram */
        len = rnd(s, rnd(s, 2) ? 64 : MAX_DGRAM);
        for (size_t i = 0; i < len; i++)
            buf[i] = (uint8_t)wire_rand(s);
        break;
    default: /* leave it valid */
        break;
    }
    /* half the time give it a correct ICRC so decode gets past that check */
    if (len >= SV_PKT_MIN_LEN && rnd(s, 2))
        sv_icrc_store(buf + len - SV_ICRC_LEN, sv_icrc_compute(f, buf, len - SV_ICRC_LEN));
    return len;
}

static void check_accepted(const uint8_t *dg, size_t len, const struct sv_pkt *d, const struct sv_flow *f)
{
    const struct sv_opcode_info *info = sv_opcode_info(d->opcode);
    CHECK(info != NULL);
    if (info == NULL)
        return;
    CHECK_EQ((size_t)info->hdr_len + d->payload_len + d->pad + SV_ICRC_LEN, len);
    CHECK(d->payload == dg + info->hdr_len);
    CHECK(d->dest_qpn <= SV_QPN_MASK && d->psn <= SV_PSN_MASK);
    /* re-encoding what was decoded gives a packet that decodes to the same fields */
    static uint8_t again[MAX_DGRAM + 64];
    ssize_t n = sv_pkt_encode(d, f, again, sizeof again);
    CHECK_EQ(n, len);
    struct sv_pkt e;
    CHECK_EQ(n > 0 ? sv_pkt_decode(again, (size_t)n, f, &e) : -99, SV_PKT_OK);
    CHECK(e.opcode == d->opcode && e.flags == d->flags && e.pkey == d->pkey &&
          e.dest_qpn == d->dest_qpn && e.psn == d->psn && e.payload_len == d->payload_len &&
          e.reth.va == d->reth.va && e.aeth.msn == d->aeth.msn && e.deth.src_qpn == d->deth.src_qpn &&
          e.imm_be == d->imm_be && e.atmeth.compare == d->atmeth.compare);
    CHECK(d->payload_len == 0 || memcmp(e.payload, d->payload, d->payload_len) == 0);
}

int main(int argc, char **argv)
{
    long iterations = argc > 1 ? strtol(argv[1], NULL, 10) : 200000;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 0xF0225EEDULL;
    if (iterations <= 0 || iterations > 100000000L || seed == 0) {
        fprintf(stderr, "usage: fuzz_wire_decode [iterations 1..1e8] [seed != 0]\n");
        return 2;
    }
    uint64_t s = seed;
    const struct sv_flow f = { htonl(0x7F000002), htonl(0x7F000001), SV_ROCE_UDP_PORT, SV_ROCE_UDP_PORT };
    static uint8_t work[MAX_DGRAM + 64];
    long by_result[SV_PKT_ERR_COUNT + 1] = { 0 };

    for (long it = 0; it < iterations; it++) {
        size_t len = make_valid(&s, &f, work, sizeof work);
        len = mutate(&s, work, len, &f);
        uint8_t *dg = malloc(len ? len : 1);       /* exact size: ASan flags any over-read */
        if (dg == NULL)
            abort();
        memcpy(dg, work, len);
        struct sv_pkt d;
        int rc = sv_pkt_decode(dg, len, &f, &d);
        CHECK(rc <= 0 && rc >= -SV_PKT_ERR_COUNT);
        if (rc <= 0 && rc >= -SV_PKT_ERR_COUNT)
            by_result[-rc]++;
        if (rc == SV_PKT_OK)
            check_accepted(dg, len, &d, &f);
        free(dg);
        if (wire_check_failures > 20)
            break;
    }
    printf("fuzz_wire_decode: %ld iterations, seed 0x%llx\n", iterations, (unsigned long long)seed);
    for (int i = 0; i <= SV_PKT_ERR_COUNT; i++)
        printf("  %-10s %ld\n", sv_pkt_err_name(-i), by_result[i]);
    return wire_check_report("fuzz_wire_decode");
}
