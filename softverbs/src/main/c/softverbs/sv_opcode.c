/* The opcode table, generated from SV_OPCODE_LIST in sv_opcode.h. */
#include "sv_opcode.h"

#define SV_OFF_IF(m, bit, off) (((m) & (bit)) ? (uint8_t)(off) : (uint8_t)0)

/* Indexed by the opcode byte; entries without a name are invalid opcodes. */
static const struct sv_opcode_info sv_opcode_table[256] = {
#define SV_OPCODE_ROW(nm, value, m) \
    [value] = { \
        .name = #nm, \
        .mask = { (m) }, \
        .hdr_len = SV_HDR_LEN_OF(m), \
        .off_deth = SV_OFF_IF(m, SV_HDR_DETH, SV_OFF_DETH(m)), \
        .off_reth = SV_OFF_IF(m, SV_HDR_RETH, SV_OFF_RETH(m)), \
        .off_atmeth = SV_OFF_IF(m, SV_HDR_ATMETH, SV_OFF_ATMETH(m)), \
        .off_aeth = SV_OFF_IF(m, SV_HDR_AETH, SV_OFF_AETH(m)), \
        .off_atmack = SV_OFF_IF(m, SV_HDR_ATMACK, SV_OFF_ATMACK(m)), \
        .off_immdt = SV_OFF_IF(m, SV_HDR_IMMDT, SV_OFF_IMMDT(m)), \
        .off_ieth = SV_OFF_IF(m, SV_HDR_IETH, SV_OFF_IETH(m)), \
    },
    SV_OPCODE_LIST(SV_OPCODE_ROW)
#undef SV_OPCODE_ROW
};

const struct sv_opcode_info *sv_opcode_info(uint8_t opcode)
{
    const struct sv_opcode_info *info = &sv_opcode_table[opcode];
    return info->name != NULL ? info : NULL;
}

const char *sv_opcode_name(uint8_t opcode)
{
    const struct sv_opcode_info *info = sv_opcode_info(opcode);
    return info != NULL ? info->name : "UNKNOWN";
}
