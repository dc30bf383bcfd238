/* The opcode table against an independent restatement of IBTA table 35 / rdma-facts §5.3. */
#include <stdlib.h>

#include "sv_opcode.h"
#include "wire_check.h"

struct expected_opcode {
    uint8_t value;
    const char *name;
    uint8_t ext_len;        /* header bytes after the 12-byte BTH */
    int payload;
};

/* Written from the rdma-facts §5.3 header table, not from sv_opcode.h. */
static const struct expected_opcode expected[] = {
    { 0x00, "RC_SEND_FIRST", 0, 1 },
    { 0x01, "RC_SEND_MIDDLE", 0, 1 },
    { 0x02, "RC_SEND_LAST", 0, 1 },
    { 0x03, "RC_SEND_LAST_WITH_IMMEDIATE", 4, 1 },
    { 0x04, "RC_SEND_ONLY", 0, 1 },
    { 0x05, "RC_SEND_ONLY_WITH_IMMEDIATE", 4, 1 },
    { 0x06, "RC_RDMA_WRITE_FIRST", 16, 1 },
    { 0x07, "RC_RDMA_WRITE_MIDDLE", 0, 1 },
    { 0x08, "RC_RDMA_WRITE_LAST", 0, 1 },
    { 0x09, "RC_RDMA_WRITE_LAST_WITH_IMMEDIATE", 4, 1 },
    { 0x0A, "RC_RDMA_WRITE_ONLY", 16, 1 },
    { 0x0B, "RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", 20, 1 },
    { 0x0C, "RC_RDMA_READ_REQUEST", 16, 0 },
    { 0x0D, "RC_RDMA_READ_RESPONSE_FIRST", 4, 1 },
    { 0x0E, "RC_RDMA_READ_RESPONSE_MIDDLE", 0, 1 },
    { 0x0F, "RC_RDMA_READ_RESPONSE_LAST", 4, 1 },
    { 0x10, "RC_RDMA_READ_RESPONSE_ONLY", 4, 1 },
    { 0x11, "RC_ACKNOWLEDGE", 4, 0 },
    { 0x12, "RC_ATOMIC_ACKNOWLEDGE", 12, 0 },
    { 0x13, "RC_COMPARE_SWAP", 28, 0 },
    { 0x14, "RC_FETCH_ADD", 28, 0 },
    { 0x16, "RC_SEND_LAST_WITH_INVALIDATE", 4, 1 },
    { 0x17, "RC_SEND_ONLY_WITH_INVALIDATE", 4, 1 },
    { 0x20, "UC_SEND_FIRST", 0, 1 },
    { 0x21, "UC_SEND_MIDDLE", 0, 1 },
    { 0x22, "UC_SEND_LAST", 0, 1 },
    { 0x23, "UC_SEND_LAST_WITH_IMMEDIATE", 4, 1 },
    { 0x24, "UC_SEND_ONLY", 0, 1 },
    { 0x25, "UC_SEND_ONLY_WITH_IMMEDIATE", 4, 1 },
    { 0x26, "UC_RDMA_WRITE_FIRST", 16, 1 },
    { 0x27, "UC_RDMA_WRITE_MIDDLE", 0, 1 },
    { 0x28, "UC_RDMA_WRITE_LAST", 0, 1 },
    { 0x29, "UC_RDMA_WRITE_LAST_WITH_IMMEDIATE", 4, 1 },
    { 0x2A, "UC_RDMA_WRITE_ONLY", 16, 1 },
    { 0x2B, "UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", 20, 1 },
    { 0x64, "UD_SEND_ONLY", 8, 1 },
    { 0x65, "UD_SEND_ONLY_WITH_IMMEDIATE", 12, 1 },
    { 0x81, "CNP", 16, 0 },          /* RoCEv2 CNP: BTH + 16 reserved bytes */
};
#define N_EXPECTED (sizeof expected / sizeof expected[0])

static const struct expected_opcode *find_expected(unsigned op)
{
    for (size_t i = 0; i < N_EXPECTED; i++)
        if (expected[i].value == op)
            return &expected[i];
    return NULL;
}

static int popcount(uint32_t v) { return __builtin_popcount(v); }

static void check_every_byte_value(void)
{
    int valid = 0;
    for (unsigned op = 0; op < 256; op++) {
        const struct sv_opcode_info *info = sv_opcode_info((uint8_t)op);
        const struct expected_opcode *e = find_expected(op);
        if (e == NULL) {
            CHECK(info == NULL);
            CHECK_STR(sv_opcode_name((uint8_t)op), "UNKNOWN");
            continue;
        }
        valid++;
        CHECK(info != NULL);
        if (info == NULL)
            continue;
        CHECK_STR(info->name, e->name);
        CHECK_STR(sv_opcode_name((uint8_t)op), e->name);
        CHECK_EQ(info->hdr_len, 12 + e->ext_len);
        CHECK_EQ(sv_mask_has(info->mask, SV_HDR_PAYLOAD), e->payload);
    }
    CHECK_EQ(valid, N_EXPECTED);
}

/* The role bits and header offsets agree with each other and with the opcode's value. */
static void check_mask_consistency(void)
{
    static const struct { uint32_t bit; uint8_t len; } hdrs[] = {
        { SV_HDR_DETH, 8 }, { SV_HDR_RETH, 16 }, { SV_HDR_ATMETH, 28 }, { SV_HDR_AETH, 4 },
        { SV_HDR_ATMACK, 8 }, { SV_HDR_IMMDT, 4 }, { SV_HDR_IETH, 4 }, { SV_HDR_CNPRSV, 16 },
    };
    for (size_t i = 0; i < N_EXPECTED; i++) {
        uint8_t op = expected[i].value;
        const struct sv_opcode_info *info = sv_opcode_info(op);
        if (info == NULL)
            continue;
        sv_hdr_mask_t m = info->mask;
        uint32_t transport = m.bits & (SV_HDR_RC | SV_HDR_UC | SV_HDR_UD | SV_HDR_CNP);
        CHECK_EQ(popcount(transport), 1);
        if (op < 0x20)
            CHECK(sv_mask_has(m, SV_HDR_RC));
        else if (op < 0x40)
            CHECK(sv_mask_has(m, SV_HDR_UC));
        else if (op < 0x80)
            CHECK(sv_mask_has(m, SV_HDR_UD));
        else
            CHECK(sv_mask_has(m, SV_HDR_CNP));
        if (!sv_mask_has(m, SV_HDR_CNP)) {
            CHECK_EQ(popcount(m.bits & (SV_HDR_REQ | SV_HDR_ACK)), 1);
            CHECK_EQ(popcount(m.bits & (SV_HDR_SEND | SV_HDR_WRITE | SV_HDR_READ | SV_HDR_ATOMIC))
                         + (op == SV_OP_RC_ACKNOWLEDGE), 1);
            CHECK(sv_mask_has(m, SV_HDR_START) || sv_mask_has(m, SV_HDR_MIDDLE) || sv_mask_has(m, SV_HDR_END));
            CHECK(!(sv_mask_has(m, SV_HDR_MIDDLE) && (sv_mask_has(m, SV_HDR_START) || sv_mask_has(m, SV_HDR_END))));
        }
        /* names say what the mask says */
        CHECK_EQ(sv_mask_has(m, SV_HDR_IMMDT), strstr(info->name, "IMMEDIATE") != NULL);
        CHECK_EQ(sv_mask_has(m, SV_HDR_IETH), strstr(info->name, "INVALIDATE") != NULL);
        CHECK_EQ(sv_mask_has_all(m, SV_HDR_START | SV_HDR_END), strstr(info->name, "ONLY") != NULL
                 || op == SV_OP_RC_ACKNOWLEDGE || op == SV_OP_RC_ATOMIC_ACKNOWLEDGE
                 || op == SV_OP_RC_COMPARE_SWAP || op == SV_OP_RC_FETCH_ADD
                 || op == SV_OP_RC_RDMA_READ_REQUEST);
        /* headers are laid out back to back in wire order and end at hdr_len */
        const uint8_t offs[] = { info->off_deth, info->off_reth, info->off_atmeth, info->off_aeth,
                                 info->off_atmack, info->off_immdt, info->off_ieth };
        unsigned at = 12;
        for (size_t h = 0; h < sizeof hdrs / sizeof hdrs[0]; h++) {
            if (!sv_mask_has(m, hdrs[h].bit)) {
                if (h < sizeof offs)
                    CHECK_EQ(offs[h], 0);
                continue;
            }
            if (h < sizeof offs)
                CHECK_EQ(offs[h], at);
            at += hdrs[h].len;
        }
        CHECK_EQ(info->hdr_len, at);
    }
    /* spot checks of layouts that matter on the wire */
    CHECK_EQ(sv_opcode_info(SV_OP_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE)->off_reth, 12);
    CHECK_EQ(sv_opcode_info(SV_OP_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE)->off_immdt, 28);
    CHECK_EQ(sv_opcode_info(SV_OP_UD_SEND_ONLY_WITH_IMMEDIATE)->off_deth, 12);
    CHECK_EQ(sv_opcode_info(SV_OP_UD_SEND_ONLY_WITH_IMMEDIATE)->off_immdt, 20);
    CHECK_EQ(sv_opcode_info(SV_OP_RC_ATOMIC_ACKNOWLEDGE)->off_aeth, 12);
    CHECK_EQ(sv_opcode_info(SV_OP_RC_ATOMIC_ACKNOWLEDGE)->off_atmack, 16);
}

static void check_roles(void)
{
    CHECK(sv_mask_has(sv_opcode_info(SV_OP_RC_SEND_ONLY)->mask, SV_HDR_RWR));
    CHECK(sv_mask_has(sv_opcode_info(SV_OP_RC_SEND_ONLY)->mask, SV_HDR_COMP));
    CHECK(!sv_mask_has(sv_opcode_info(SV_OP_RC_SEND_FIRST)->mask, SV_HDR_COMP));
    CHECK(!sv_mask_has(sv_opcode_info(SV_OP_RC_RDMA_WRITE_ONLY)->mask, SV_HDR_RWR));
    CHECK(sv_mask_has(sv_opcode_info(SV_OP_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE)->mask, SV_HDR_RWR));
    CHECK(sv_mask_has(sv_opcode_info(SV_OP_RC_RDMA_READ_RESPONSE_MIDDLE)->mask, SV_HDR_ACK));
    CHECK(sv_mask_has(sv_opcode_info(SV_OP_RC_RDMA_READ_RESPONSE_MIDDLE)->mask, SV_HDR_RESP));
    CHECK(sv_mask_has(sv_opcode_info(SV_OP_RC_RDMA_READ_REQUEST)->mask, SV_HDR_REQ));
    CHECK(sv_mask_has(sv_opcode_info(SV_OP_UD_SEND_ONLY)->mask, SV_HDR_DETH));
    CHECK_EQ(SV_OP_RC_SEND_ONLY, 0x04);
    CHECK_EQ(SV_OP_UC_RDMA_WRITE_ONLY, 0x2A);
    CHECK_EQ(SV_OP_UD_SEND_ONLY_WITH_IMMEDIATE, 0x65);
    CHECK_EQ(SV_OP_CNP, 0x81);
}

int main(void)
{
    check_every_byte_value();
    check_mask_consistency();
    check_roles();
    return wire_check_report("test_wire_opcode");
}
