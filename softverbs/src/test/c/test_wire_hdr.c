/* Every raw header accessor of sv_hdr.h against an independent bit-by-bit big-endian reader and
 * writer: the getter reads what the field holds, the setter writes exactly the field's bits and
 * leaves every other bit of the header alone. Plus 24-bit PSN arithmetic. */
#include <arpa/inet.h>

#include "sv_hdr.h"
#include "wire_check.h"

/* A field: `width` bits starting `bit` bits after the most significant bit of byte `byte`. */
struct field {
    const char *name;
    unsigned byte, bit, width;
    uint64_t (*get)(const uint8_t *h);
    void (*set)(uint8_t *h, uint64_t v);
};

static uint64_t ref_get(const uint8_t *h, unsigned byte, unsigned bit, unsigned width)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < width; i++) {
        unsigned pos = byte * 8 + bit + i;
        v = (v << 1) | ((h[pos / 8] >> (7 - pos % 8)) & 1u);
    }
    return v;
}

static void ref_set(uint8_t *h, unsigned byte, unsigned bit, unsigned width, uint64_t v)
{
    for (unsigned i = 0; i < width; i++) {
        unsigned pos = byte * 8 + bit + i;
        unsigned b = (unsigned)(v >> (width - 1 - i)) & 1u;
        h[pos / 8] = (uint8_t)((h[pos / 8] & ~(0x80u >> (pos % 8))) | (b << (7 - pos % 8)));
    }
}

/* Wrappers giving every accessor the same shape. */
#define WRAP(fname, getter, setter) \
    static uint64_t get_##fname(const uint8_t *h) { return (uint64_t)getter(h); } \
    static void set_##fname(uint8_t *h, uint64_t v) { setter(h, v); }
#define WRAP_FLAG(fname, getter, setter) \
    static uint64_t get_##fname(const uint8_t *h) { return (uint64_t)getter(h); } \
    static void set_##fname(uint8_t *h, uint64_t v) { setter(h, (int)(v & 1)); }

WRAP(bth_opcode, sv_bth_opcode, sv_bth_set_opcode)
WRAP_FLAG(bth_se, sv_bth_se, sv_bth_set_se)
WRAP_FLAG(bth_mig, sv_bth_mig, sv_bth_set_mig)
WRAP(bth_pad, sv_bth_pad, sv_bth_set_pad)
WRAP(bth_tver, sv_bth_tver, sv_bth_set_tver)
WRAP(bth_pkey, sv_bth_pkey, sv_bth_set_pkey)
WRAP_FLAG(bth_fecn, sv_bth_fecn, sv_bth_set_fecn)
WRAP_FLAG(bth_becn, sv_bth_becn, sv_bth_set_becn)
WRAP(bth_qpn, sv_bth_qpn, sv_bth_set_qpn)
WRAP_FLAG(bth_ackreq, sv_bth_ackreq, sv_bth_set_ackreq)
WRAP(bth_psn, sv_bth_psn, sv_bth_set_psn)
WRAP(reth_va, sv_reth_va, sv_reth_set_va)
WRAP(reth_rkey, sv_reth_rkey, sv_reth_set_rkey)
WRAP(reth_len, sv_reth_len, sv_reth_set_len)
WRAP(aeth_syndrome, sv_aeth_syndrome, sv_aeth_set_syndrome)
WRAP(aeth_msn, sv_aeth_msn, sv_aeth_set_msn)
WRAP(deth_qkey, sv_deth_qkey, sv_deth_set_qkey)
WRAP(deth_sqp, sv_deth_sqp, sv_deth_set_sqp)
WRAP(ieth_rkey, sv_ieth_rkey, sv_ieth_set_rkey)
WRAP(atmeth_va, sv_atmeth_va, sv_atmeth_set_va)
WRAP(atmeth_rkey, sv_atmeth_rkey, sv_atmeth_set_rkey)
WRAP(atmeth_swap_add, sv_atmeth_swap_add, sv_atmeth_set_swap_add)
WRAP(atmeth_compare, sv_atmeth_compare, sv_atmeth_set_compare)
WRAP(atmack_orig, sv_atmack_orig, sv_atmack_set_orig)
/* ImmDt is opaque network order: the host value v travels as htonl(v) */
static uint64_t get_immdt(const uint8_t *h) { return ntohl(sv_immdt_be(h)); }
static void set_immdt(uint8_t *h, uint64_t v) { sv_immdt_set_be(h, htonl((uint32_t)v)); }

#define F(fname, byte, bit, width) { #fname, byte, bit, width, get_##fname, set_##fname }
/* Positions from rdma-facts §5.2 (BTH) and §5.4 (extension headers). */
static const struct field fields[] = {
    F(bth_opcode, 0, 0, 8), F(bth_se, 1, 0, 1), F(bth_mig, 1, 1, 1), F(bth_pad, 1, 2, 2),
    F(bth_tver, 1, 4, 4), F(bth_pkey, 2, 0, 16), F(bth_fecn, 4, 0, 1), F(bth_becn, 4, 1, 1),
    F(bth_qpn, 5, 0, 24), F(bth_ackreq, 8, 0, 1), F(bth_psn, 9, 0, 24),
    F(reth_va, 0, 0, 64), F(reth_rkey, 8, 0, 32), F(reth_len, 12, 0, 32),
    F(aeth_syndrome, 0, 0, 8), F(aeth_msn, 1, 0, 24),
    F(deth_qkey, 0, 0, 32), F(deth_sqp, 5, 0, 24),
    F(immdt, 0, 0, 32), F(ieth_rkey, 0, 0, 32),
    F(atmeth_va, 0, 0, 64), F(atmeth_rkey, 8, 0, 32), F(atmeth_swap_add, 12, 0, 64),
    F(atmeth_compare, 20, 0, 64), F(atmack_orig, 0, 0, 64),
};

#define HDR_BYTES 32
#define ROUNDS 2000

static void check_field(const struct field *f, uint64_t *rng)
{
    const uint64_t all = f->width == 64 ? ~0ULL : ((1ULL << f->width) - 1);
    const uint64_t edge[] = { 0, 1, all, all >> 1, all ^ (all >> 1) };
    int bad = 0;
    for (int r = 0; r < ROUNDS + 5 && bad < 3; r++) {
        uint8_t h[HDR_BYTES], expect[HDR_BYTES];
        for (size_t i = 0; i < HDR_BYTES; i++)
            h[i] = (uint8_t)wire_rand(rng);
        /* getter reads the field from arbitrary bytes */
        if (f->get(h) != ref_get(h, f->byte, f->bit, f->width)) {
            fprintf(stderr, "  %s: getter read 0x%" PRIx64 ", field holds 0x%" PRIx64 "\n",
                    f->name, f->get(h), ref_get(h, f->byte, f->bit, f->width));
            bad++;
        }
        /* setter writes only the field; values wider than the field are truncated to it */
        uint64_t v = r < 5 ? edge[r] : wire_rand(rng);
        memcpy(expect, h, HDR_BYTES);
        ref_set(expect, f->byte, f->bit, f->width, v & all);
        f->set(h, v);
        if (memcmp(h, expect, HDR_BYTES) != 0) {
            fprintf(stderr, "  %s: setter of 0x%" PRIx64 " changed the wrong bits\n", f->name, v);
            bad++;
        }
        if (f->get(h) != (v & all)) {
            fprintf(stderr, "  %s: round trip of 0x%" PRIx64 " read 0x%" PRIx64 "\n", f->name, v & all, f->get(h));
            bad++;
        }
    }
    CHECK_EQ(bad, 0);
}

static void check_psn_math(uint64_t *rng)
{
    CHECK_EQ(SV_PSN_MASK, 0xFFFFFF);
    CHECK(sv_psn_compare(0, 0) == 0);
    CHECK(sv_psn_compare(1, 0) > 0);
    CHECK(sv_psn_compare(0, 1) < 0);
    CHECK(sv_psn_compare(0, 0xFFFFFF) > 0);          /* 0 comes right after the wrap */
    CHECK(sv_psn_compare(0xFFFFFF, 0) < 0);
    CHECK(sv_psn_compare(0x7FFFFF, 0) > 0);          /* last PSN of the forward half window */
    CHECK(sv_psn_compare(0x800000, 0) < 0);          /* 2^23 ahead counts as behind */
    CHECK(sv_psn_compare(0x123456, 0x123456) == 0);
    CHECK(sv_psn_compare(0x000010, 0xFFFFF0) > 0);
    CHECK_EQ(sv_psn_add(0xFFFFFF, 1), 0);
    CHECK_EQ(sv_psn_add(0xFFFFFE, 3), 1);
    CHECK_EQ(sv_psn_add(0x123456, 0x1000000), 0x123456);
    CHECK_EQ(sv_psn_add(5, 0), 5);
    int bad = 0;
    for (int i = 0; i < 100000; i++) {
        uint32_t a = (uint32_t)wire_rand(rng) & SV_PSN_MASK, b = (uint32_t)wire_rand(rng) & SV_PSN_MASK;
        uint32_t d = (a - b) & SV_PSN_MASK;           /* how far a is ahead of b, mod 2^24 */
        int expect = d == 0 ? 0 : (d < 0x800000 ? 1 : -1);
        int got = sv_psn_compare(a, b);
        int sign = got > 0 ? 1 : (got < 0 ? -1 : 0);
        if (sign != expect && bad++ < 3)
            fprintf(stderr, "  psn_compare(0x%06x, 0x%06x) = %d, expected sign %d\n", a, b, got, expect);
        uint32_t n = (uint32_t)wire_rand(rng) & 0xFFFF;
        if (sv_psn_add(a, n) != ((a + n) % 0x1000000) && bad++ < 3)
            fprintf(stderr, "  psn_add(0x%06x, %u) wrong\n", a, n);
    }
    CHECK_EQ(bad, 0);
}

static void check_aeth_syndromes(void)
{
    CHECK_EQ(sv_aeth_type(SV_AETH_ACK_SYNDROME), SV_AETH_TYPE_ACK);
    CHECK_EQ(sv_aeth_value(SV_AETH_ACK_SYNDROME), 0x1F);
    CHECK_EQ(sv_aeth_rnr_syndrome(12), 0x2C);        /* RNR NAK, timer code 12 (0.64 ms) */
    CHECK_EQ(sv_aeth_type(sv_aeth_rnr_syndrome(31)), SV_AETH_TYPE_RNR_NAK);
    CHECK_EQ(sv_aeth_value(sv_aeth_rnr_syndrome(31)), 31);
    CHECK_EQ(sv_aeth_type(SV_NAK_PSN_SEQ_ERR), SV_AETH_TYPE_NAK);
    CHECK_EQ(SV_NAK_PSN_SEQ_ERR, 0x60);
    CHECK_EQ(SV_NAK_INVALID_REQ, 0x61);
    CHECK_EQ(SV_NAK_REM_ACCESS_ERR, 0x62);
    CHECK_EQ(SV_NAK_REM_OP_ERR, 0x63);
    CHECK_EQ(sv_aeth_value(SV_NAK_REM_ACCESS_ERR), 2);
}

/* Spot check against a hand-written BTH, so a shared misreading of the layout by both the
 * accessors and ref_* would still be caught. */
static void check_bth_literal(void)
{
    /* RC SEND_ONLY, SE, pad 3, TVer 0, P_Key 0xFFFF, FECN, QPN 0x000011, AckReq, PSN 0x3A2F1C */
    const uint8_t bth[12] = { 0x04, 0xB0, 0xFF, 0xFF, 0x80, 0x00, 0x00, 0x11, 0x80, 0x3A, 0x2F, 0x1C };
    CHECK_EQ(sv_bth_opcode(bth), 0x04);
    CHECK_EQ(sv_bth_se(bth), 1);
    CHECK_EQ(sv_bth_mig(bth), 0);
    CHECK_EQ(sv_bth_pad(bth), 3);
    CHECK_EQ(sv_bth_tver(bth), 0);
    CHECK_EQ(sv_bth_pkey(bth), 0xFFFF);
    CHECK_EQ(sv_bth_fecn(bth), 1);
    CHECK_EQ(sv_bth_becn(bth), 0);
    CHECK_EQ(sv_bth_qpn(bth), 0x11);
    CHECK_EQ(sv_bth_ackreq(bth), 1);
    CHECK_EQ(sv_bth_psn(bth), 0x3A2F1C);
    /* flag setters take any non-zero value as "set" */
    uint8_t h[12] = { 0 };
    sv_bth_set_se(h, 2);
    sv_bth_set_ackreq(h, -1);
    sv_bth_set_fecn(h, 0x100);
    CHECK_EQ(h[1], 0x80);
    CHECK_EQ(h[8], 0x80);
    CHECK_EQ(h[4], 0x80);
}

int main(void)
{
    uint64_t rng = 0x5EED0F50F7EB5ULL;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        check_field(&fields[i], &rng);
    check_psn_math(&rng);
    check_aeth_syndromes();
    check_bth_literal();
    return wire_check_report("test_wire_hdr");
}
