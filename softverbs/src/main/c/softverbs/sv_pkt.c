/* RoCEv2 packet encode/decode: headers laid out as sv_opcode_info says, ICRC from sv_icrc.c. */
#include "sv_pkt.h"

#include <errno.h>
#include <string.h>

#include "sv_hdr.h"
#include "sv_icrc.h"

size_t sv_pkt_wire_len(uint8_t opcode, uint32_t payload_len)
{
    const struct sv_opcode_info *info = sv_opcode_info(opcode);
    if (info == NULL)
        return 0;
    size_t body = (size_t)info->hdr_len + payload_len;
    return body + ((4 - (body & 3)) & 3) + SV_ICRC_LEN;
}

static int sv_pkt_fields_fit(const struct sv_pkt *p, sv_hdr_mask_t m)
{
    if (p->dest_qpn > SV_QPN_MASK || p->psn > SV_PSN_MASK)
        return 0;
    if (sv_mask_has(m, SV_HDR_AETH) && p->aeth.msn > SV_MSN_MASK)
        return 0;
    if (sv_mask_has(m, SV_HDR_DETH) && p->deth.src_qpn > SV_QPN_MASK)
        return 0;
    return 1;
}

ssize_t sv_pkt_encode(const struct sv_pkt *p, const struct sv_flow *f, uint8_t *buf, size_t cap)
{
    if (p == NULL || f == NULL || buf == NULL)
        return -EINVAL;
    const struct sv_opcode_info *info = sv_opcode_info(p->opcode);
    if (info == NULL || !sv_pkt_fields_fit(p, info->mask))
        return -EINVAL;
    if (p->payload_len > 0 && (!sv_mask_has(info->mask, SV_HDR_PAYLOAD) || p->payload == NULL))
        return -EINVAL;
    if (p->payload_len > SV_PKT_MAX_LEN)
        return -EMSGSIZE;
    size_t total = sv_pkt_wire_len(p->opcode, p->payload_len);
    if (total > SV_PKT_MAX_LEN || total > cap)
        return -EMSGSIZE;

    const sv_hdr_mask_t m = info->mask;
    size_t body = (size_t)info->hdr_len + p->payload_len;
    uint8_t pad = (uint8_t)((4 - (body & 3)) & 3);

    memset(buf, 0, info->hdr_len);
    sv_bth_set_opcode(buf, p->opcode);
    sv_bth_set_se(buf, (p->flags & SV_BTH_SE) != 0);
    sv_bth_set_mig(buf, (p->flags & SV_BTH_MIG) != 0);
    sv_bth_set_pad(buf, pad);
    sv_bth_set_tver(buf, 0);
    sv_bth_set_pkey(buf, p->pkey);
    sv_bth_set_fecn(buf, (p->flags & SV_BTH_FECN) != 0);
    sv_bth_set_becn(buf, (p->flags & SV_BTH_BECN) != 0);
    sv_bth_set_qpn(buf, p->dest_qpn);
    sv_bth_set_ackreq(buf, (p->flags & SV_BTH_ACKREQ) != 0);
    sv_bth_set_psn(buf, p->psn);

    if (sv_mask_has(m, SV_HDR_DETH)) {
        sv_deth_set_qkey(buf + info->off_deth, p->deth.qkey);
        sv_deth_set_sqp(buf + info->off_deth, p->deth.src_qpn);
    }
    if (sv_mask_has(m, SV_HDR_RETH)) {
        sv_reth_set_va(buf + info->off_reth, p->reth.va);
        sv_reth_set_rkey(buf + info->off_reth, p->reth.rkey);
        sv_reth_set_len(buf + info->off_reth, p->reth.len);
    }
    if (sv_mask_has(m, SV_HDR_ATMETH)) {
        sv_atmeth_set_va(buf + info->off_atmeth, p->atmeth.va);
        sv_atmeth_set_rkey(buf + info->off_atmeth, p->atmeth.rkey);
        sv_atmeth_set_swap_add(buf + info->off_atmeth, p->atmeth.swap_add);
        sv_atmeth_set_compare(buf + info->off_atmeth, p->atmeth.compare);
    }
    if (sv_mask_has(m, SV_HDR_AETH)) {
        sv_aeth_set_syndrome(buf + info->off_aeth, p->aeth.syndrome);
        sv_aeth_set_msn(buf + info->off_aeth, p->aeth.msn);
    }
    if (sv_mask_has(m, SV_HDR_ATMACK))
        sv_atmack_set_orig(buf + info->off_atmack, p->atmack_orig);
    if (sv_mask_has(m, SV_HDR_IMMDT))
        sv_immdt_set_be(buf + info->off_immdt, p->imm_be);
    if (sv_mask_has(m, SV_HDR_IETH))
        sv_ieth_set_rkey(buf + info->off_ieth, p->ieth_rkey);
    /* a CNP's 16 reserved bytes stay zero (memset above) */

    if (p->payload_len > 0)
        memmove(buf + info->hdr_len, p->payload, p->payload_len);
    memset(buf + body, 0, pad);
    sv_icrc_store(buf + body + pad, sv_icrc_compute(f, buf, body + pad));
    return (ssize_t)total;
}

int sv_pkt_decode(const uint8_t *buf, size_t len, const struct sv_flow *f, struct sv_pkt *out)
{
    if (out != NULL)
        memset(out, 0, sizeof *out);
    if (buf == NULL || f == NULL || out == NULL)
        return SV_PKT_ERR_ARG;
    if (len < SV_PKT_MIN_LEN)
        return SV_PKT_ERR_TRUNCATED;
    if (len > SV_PKT_MAX_LEN)
        return SV_PKT_ERR_TOO_LONG;
    /* a receiver drops a packet whose transport header version it does not support (§5.2) */
    if (sv_bth_tver(buf) != 0)
        return SV_PKT_ERR_TVER;
    const struct sv_opcode_info *info = sv_opcode_info(sv_bth_opcode(buf));
    if (info == NULL)
        return SV_PKT_ERR_OPCODE;
    if (len < (size_t)info->hdr_len + SV_ICRC_LEN)
        return SV_PKT_ERR_HDR_LEN;
    if ((len & 3) != 0)
        return SV_PKT_ERR_ALIGN;
    const sv_hdr_mask_t m = info->mask;
    size_t after_hdr = len - info->hdr_len - SV_ICRC_LEN;
    uint8_t pad = sv_bth_pad(buf);
    if (!sv_mask_has(m, SV_HDR_PAYLOAD)) {
        if (pad != 0)
            return SV_PKT_ERR_PAD;
        if (after_hdr != 0)
            return SV_PKT_ERR_LENGTH;
    } else if (pad > after_hdr) {
        return SV_PKT_ERR_PAD;
    }
    /* With the length a multiple of 4 and pad <= 3, payload + pad ends on a 4-byte boundary,
     * so the pad count is the only one consistent with the payload length. */
    size_t icrc_at = len - SV_ICRC_LEN;
    if (sv_icrc_load(buf + icrc_at) != sv_icrc_compute(f, buf, icrc_at))
        return SV_PKT_ERR_ICRC;

    out->opcode = sv_bth_opcode(buf);
    out->flags = (uint8_t)((sv_bth_se(buf) ? SV_BTH_SE : 0) | (sv_bth_mig(buf) ? SV_BTH_MIG : 0) |
                           (sv_bth_ackreq(buf) ? SV_BTH_ACKREQ : 0) |
                           (sv_bth_fecn(buf) ? SV_BTH_FECN : 0) | (sv_bth_becn(buf) ? SV_BTH_BECN : 0));
    out->pkey = sv_bth_pkey(buf);
    out->dest_qpn = sv_bth_qpn(buf);
    out->psn = sv_bth_psn(buf);
    if (sv_mask_has(m, SV_HDR_DETH)) {
        out->deth.qkey = sv_deth_qkey(buf + info->off_deth);
        out->deth.src_qpn = sv_deth_sqp(buf + info->off_deth);
    }
    if (sv_mask_has(m, SV_HDR_RETH)) {
        out->reth.va = sv_reth_va(buf + info->off_reth);
        out->reth.rkey = sv_reth_rkey(buf + info->off_reth);
        out->reth.len = sv_reth_len(buf + info->off_reth);
    }
    if (sv_mask_has(m, SV_HDR_ATMETH)) {
        out->atmeth.va = sv_atmeth_va(buf + info->off_atmeth);
        out->atmeth.rkey = sv_atmeth_rkey(buf + info->off_atmeth);
        out->atmeth.swap_add = sv_atmeth_swap_add(buf + info->off_atmeth);
        out->atmeth.compare = sv_atmeth_compare(buf + info->off_atmeth);
    }
    if (sv_mask_has(m, SV_HDR_AETH)) {
        out->aeth.syndrome = sv_aeth_syndrome(buf + info->off_aeth);
        out->aeth.msn = sv_aeth_msn(buf + info->off_aeth);
    }
    if (sv_mask_has(m, SV_HDR_ATMACK))
        out->atmack_orig = sv_atmack_orig(buf + info->off_atmack);
    if (sv_mask_has(m, SV_HDR_IMMDT))
        out->imm_be = sv_immdt_be(buf + info->off_immdt);
    if (sv_mask_has(m, SV_HDR_IETH))
        out->ieth_rkey = sv_ieth_rkey(buf + info->off_ieth);
    out->pad = pad;
    out->payload_len = (uint32_t)(after_hdr - pad);
    out->payload = buf + info->hdr_len;
    return SV_PKT_OK;
}

const char *sv_pkt_err_name(int err)
{
    switch (err) {
    case SV_PKT_OK:
        return "OK";
#define SV_PKT_ERR_NAME(name, value, text) case SV_PKT_ERR_##name: return #name;
    SV_PKT_ERR_LIST(SV_PKT_ERR_NAME)
#undef SV_PKT_ERR_NAME
    default:
        return "UNKNOWN";
    }
}

const char *sv_pkt_err_text(int err)
{
    switch (err) {
    case SV_PKT_OK:
        return "valid packet";
#define SV_PKT_ERR_TEXT(name, value, text) case SV_PKT_ERR_##name: return text;
    SV_PKT_ERR_LIST(SV_PKT_ERR_TEXT)
#undef SV_PKT_ERR_TEXT
    default:
        return "unknown decode error";
    }
}
