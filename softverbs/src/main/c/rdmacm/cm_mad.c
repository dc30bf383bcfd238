/* CM MAD codec. Each message is a table of fields (byte offset after the MAD header, first bit
 * counted from the most significant bit of that byte, width in bits, member of struct cm_msg):
 * IBA vol. 1 tables 106-121, the same offsets the kernel's ibta_vol1_c12.h declares. Byte order
 * is handled only by get_bits/put_bits. */
#include <errno.h>
#include <string.h>

#include "cm_mad.h"

struct cm_field {
    uint16_t byte;                   /* offset in the message (after the 24-byte MAD header) */
    uint8_t bit;                     /* first bit, 0 = most significant bit of that byte */
    uint8_t width;                   /* bits; 128 = a GID, copied as bytes */
    uint16_t member;                 /* offsetof(struct cm_msg, ...) */
    uint8_t size;                    /* sizeof the member */
};

#define F(byte, bit, width, m) {byte, bit, width, offsetof(struct cm_msg, m), sizeof(((struct cm_msg *)0)->m)}

static const struct cm_field REQ_fields[] = {
    F(0, 0, 32, local_comm_id), F(8, 0, 64, service_id), F(16, 0, 64, local_ca_guid),
    F(28, 0, 32, qkey), F(32, 0, 24, qpn), F(35, 0, 8, responder_resources),
    F(39, 0, 8, initiator_depth), F(43, 0, 5, remote_cm_response_timeout),
    F(43, 5, 2, transport_type), F(43, 7, 1, flow_control), F(44, 0, 24, starting_psn),
    F(47, 0, 5, local_cm_response_timeout), F(47, 5, 3, retry_count), F(48, 0, 16, pkey),
    F(50, 0, 4, path_mtu), F(50, 5, 3, rnr_retry_count), F(51, 0, 4, max_cm_retries),
    F(51, 4, 1, srq), F(52, 0, 16, primary.local_lid), F(54, 0, 16, primary.remote_lid),
    F(56, 0, 128, primary.local_gid), F(72, 0, 128, primary.remote_gid),
    F(88, 0, 20, primary.flow_label), F(91, 2, 6, primary.packet_rate),
    F(92, 0, 8, primary.traffic_class), F(93, 0, 8, primary.hop_limit), F(94, 0, 4, primary.sl),
    F(94, 4, 1, primary.subnet_local), F(95, 0, 5, primary.local_ack_timeout),
};
static const struct cm_field MRA_fields[] = {
    F(0, 0, 32, local_comm_id), F(4, 0, 32, remote_comm_id), F(8, 0, 2, msg_ref),
    F(9, 0, 5, service_timeout),
};
static const struct cm_field REJ_fields[] = {
    F(0, 0, 32, local_comm_id), F(4, 0, 32, remote_comm_id), F(8, 0, 2, msg_ref),
    F(9, 0, 7, ari_len), F(10, 0, 16, reason),
};
static const struct cm_field REP_fields[] = {
    F(0, 0, 32, local_comm_id), F(4, 0, 32, remote_comm_id), F(8, 0, 32, qkey), F(12, 0, 24, qpn),
    F(20, 0, 24, starting_psn), F(24, 0, 8, responder_resources), F(25, 0, 8, initiator_depth),
    F(26, 0, 5, target_ack_delay), F(26, 5, 2, failover_accepted), F(26, 7, 1, flow_control),
    F(27, 0, 3, rnr_retry_count), F(27, 3, 1, srq), F(28, 0, 64, local_ca_guid),
};
static const struct cm_field RTU_fields[] = {F(0, 0, 32, local_comm_id), F(4, 0, 32, remote_comm_id)};
static const struct cm_field DREQ_fields[] = {
    F(0, 0, 32, local_comm_id), F(4, 0, 32, remote_comm_id), F(8, 0, 24, qpn),
};
static const struct cm_field DREP_fields[] = {F(0, 0, 32, local_comm_id), F(4, 0, 32, remote_comm_id)};
static const struct cm_field SIDR_REQ_fields[] = {
    F(0, 0, 32, local_comm_id), F(4, 0, 16, pkey), F(8, 0, 64, service_id),
};
static const struct cm_field SIDR_REP_fields[] = {
    F(0, 0, 32, local_comm_id), F(4, 0, 8, status), F(5, 0, 8, ari_len), F(8, 0, 24, qpn),
    F(12, 0, 64, service_id), F(20, 0, 32, qkey),
};
#undef F

struct cm_layout {
    enum cm_attr attr;
    const char *name;
    const struct cm_field *fields;
    size_t nfields;
    uint16_t priv_off, priv_len;
};

#define CM_NFIELDS(a) (sizeof(a) / sizeof((a)[0]))
#define CM_LAYOUT(name, id, poff, plen, text) \
    {CM_ATTR_##name, text, name##_fields, CM_NFIELDS(name##_fields), poff, plen},
static const struct cm_layout g_layouts[] = {CM_ATTR_LIST(CM_LAYOUT)};
#undef CM_LAYOUT

static const struct cm_layout *layout_of(enum cm_attr a)
{
    for (size_t i = 0; i < CM_NFIELDS(g_layouts); i++)
        if (g_layouts[i].attr == a)
            return &g_layouts[i];
    return NULL;
}

const char *cm_attr_name(enum cm_attr a)
{
    const struct cm_layout *l = layout_of(a);
    return l ? l->name : "unknown";
}

size_t cm_attr_private_len(enum cm_attr a)
{
    const struct cm_layout *l = layout_of(a);
    return l ? l->priv_len : 0;
}

const char *cm_mad_err_text(int err)
{
    switch (err) {
#define CM_MAD_ERR_CASE(name, v, text) case v: return text;
    CM_MAD_ERR_LIST(CM_MAD_ERR_CASE)
#undef CM_MAD_ERR_CASE
    default: return "ok";
    }
}

const char *cm_rej_reason_name(int reason)
{
    switch (reason) {
#define CM_REJ_CASE(name, v) case v: return #name;
    CM_REJ_REASON_LIST(CM_REJ_CASE)
#undef CM_REJ_CASE
    default: return "UNKNOWN";
    }
}

/* big-endian bit string helpers: width <= 64, bits counted from the MSB of buf[0] */
static uint64_t get_bits(const uint8_t *buf, unsigned first, unsigned width)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < width; i++) {
        unsigned b = first + i;
        v = (v << 1) | ((buf[b / 8] >> (7 - b % 8)) & 1u);
    }
    return v;
}

static void put_bits(uint8_t *buf, unsigned first, unsigned width, uint64_t v)
{
    for (unsigned i = 0; i < width; i++) {
        unsigned b = first + i;
        uint8_t mask = (uint8_t)(1u << (7 - b % 8));
        if ((v >> (width - 1 - i)) & 1u)
            buf[b / 8] |= mask;
        else
            buf[b / 8] &= (uint8_t)~mask;
    }
}

static uint64_t member_get(const struct cm_msg *m, const struct cm_field *f)
{
    const char *p = (const char *)m + f->member;
    switch (f->size) {
    case 1: return *(const uint8_t *)p;
    case 2: return *(const uint16_t *)p;
    case 4: return *(const uint32_t *)p;
    default: return *(const uint64_t *)p;
    }
}

static void member_set(struct cm_msg *m, const struct cm_field *f, uint64_t v)
{
    char *p = (char *)m + f->member;
    switch (f->size) {
    case 1: *(uint8_t *)p = (uint8_t)v; break;
    case 2: *(uint16_t *)p = (uint16_t)v; break;
    case 4: *(uint32_t *)p = (uint32_t)v; break;
    default: *(uint64_t *)p = v; break;
    }
}

int cm_mad_encode(const struct cm_msg *m, uint8_t mad[CM_MAD_LEN])
{
    const struct cm_layout *l = m ? layout_of(m->attr) : NULL;
    if (!l || !mad)
        return -EINVAL;
    memset(mad, 0, CM_MAD_LEN);
    mad[0] = CM_BASE_VERSION;
    mad[1] = CM_MGMT_CLASS;
    mad[2] = CM_CLASS_VERSION;
    mad[3] = CM_METHOD_SEND;
    put_bits(mad, 8 * 8, 64, m->tid);
    put_bits(mad, 16 * 8, 16, (uint16_t)m->attr);
    uint8_t *msg = mad + CM_MAD_HDR_LEN;
    for (size_t i = 0; i < l->nfields; i++) {
        const struct cm_field *f = &l->fields[i];
        if (f->width == 128)
            memcpy(msg + f->byte, (const char *)m + f->member, 16);
        else
            put_bits(msg, f->byte * 8u + f->bit, f->width, member_get(m, f));
    }
    if (m->attr == CM_ATTR_REJ)
        memcpy(msg + 12, m->ari, sizeof m->ari);
    else if (m->attr == CM_ATTR_SIDR_REP)
        memcpy(msg + 24, m->ari, sizeof m->ari);
    memcpy(msg + l->priv_off, m->private_data, l->priv_len);
    return 0;
}

int cm_mad_decode(const uint8_t *mad, size_t len, struct cm_msg *m)
{
    if (!mad || !m || len != CM_MAD_LEN)
        return CM_MAD_ERR_LENGTH;
    memset(m, 0, sizeof *m);
    if (mad[0] != CM_BASE_VERSION)
        return CM_MAD_ERR_BASE;
    if (mad[1] != CM_MGMT_CLASS)
        return CM_MAD_ERR_CLASS;
    if (mad[2] != CM_CLASS_VERSION)
        return CM_MAD_ERR_VERSION;
    if ((mad[3] & 0x7F) != CM_METHOD_SEND)
        return CM_MAD_ERR_METHOD;
    const struct cm_layout *l = layout_of((enum cm_attr)get_bits(mad, 16 * 8, 16));
    if (!l)
        return CM_MAD_ERR_ATTR;
    m->attr = l->attr;
    m->method = mad[3];
    m->tid = get_bits(mad, 8 * 8, 64);
    const uint8_t *msg = mad + CM_MAD_HDR_LEN;
    for (size_t i = 0; i < l->nfields; i++) {
        const struct cm_field *f = &l->fields[i];
        if (f->width == 128)
            memcpy((char *)m + f->member, msg + f->byte, 16);
        else
            member_set(m, f, get_bits(msg, f->byte * 8u + f->bit, f->width));
    }
    if (m->attr == CM_ATTR_REJ)
        memcpy(m->ari, msg + 12, sizeof m->ari);
    else if (m->attr == CM_ATTR_SIDR_REP)
        memcpy(m->ari, msg + 24, sizeof m->ari);
    memcpy(m->private_data, msg + l->priv_off, l->priv_len);
    m->private_len = (uint8_t)l->priv_len;
    return 0;
}

void cm_ip_hdr_put(const struct cm_ip_hdr *h, uint8_t out[CM_IP_HDR_LEN])
{
    memset(out, 0, CM_IP_HDR_LEN);
    out[0] = h->version;
    out[1] = (uint8_t)(h->ip_version << 4);
    out[2] = (uint8_t)(h->src_port >> 8);
    out[3] = (uint8_t)h->src_port;
    /* IPv4 sits in the last 4 bytes of each 16-byte address (the kernel's union cma_ip_addr) */
    memcpy(out + 4 + 12, &h->src_ip_be, 4);
    memcpy(out + 20 + 12, &h->dst_ip_be, 4);
}

bool cm_ip_hdr_get(const uint8_t in[CM_IP_HDR_LEN], struct cm_ip_hdr *h)
{
    h->version = in[0];
    h->ip_version = in[1] >> 4;
    h->src_port = (uint16_t)(in[2] << 8 | in[3]);
    memcpy(&h->src_ip_be, in + 4 + 12, 4);
    memcpy(&h->dst_ip_be, in + 20 + 12, 4);
    return h->version == 0 && h->ip_version == 4;
}
