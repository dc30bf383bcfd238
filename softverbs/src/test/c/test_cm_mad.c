/* The CM MAD codec: every message round-trips, fields sit at the IBA offsets (checked against
 * bytes written by hand from IBA vol. 1 tables 106-121), the IP CM private data header is the
 * kernel's cma_hdr, and hostile MADs are refused without reading past their end. */
#include <arpa/inet.h>
#include <stdlib.h>

#include "cm_mad.h"
#include "sv_check.h"

static void test_req_layout(void)
{
    struct cm_msg m = {.attr = CM_ATTR_REQ, .tid = 0x1122334455667788ull, .local_comm_id = 0xA1B2C3D4,
                       .service_id = 0x0000000001064E20ull, .local_ca_guid = 0x00007FFFFE090802ull,
                       .qpn = 0x000011, .responder_resources = 1, .initiator_depth = 2,
                       .remote_cm_response_timeout = 20, .local_cm_response_timeout = 20,
                       .starting_psn = 0xABCDEF, .retry_count = 7, .rnr_retry_count = 6, .pkey = 0xFFFF,
                       .path_mtu = IBV_MTU_1024, .max_cm_retries = 15, .srq = 1, .flow_control = 1};
    m.primary.local_lid = m.primary.remote_lid = 0xFFFF;
    m.primary.packet_rate = 2;
    m.primary.hop_limit = 64;
    m.primary.sl = 5;
    m.primary.flow_label = 0xABCDE;
    m.primary.local_ack_timeout = 17;
    m.primary.local_gid.raw[15] = 0x42;
    m.private_data[0] = 0x00;
    m.private_data[91] = 0x99;
    uint8_t mad[CM_MAD_LEN];
    CHECK_EQ(cm_mad_encode(&m, mad), 0);
    const uint8_t *d = mad + CM_MAD_HDR_LEN;
    /* MAD header: base 1, class 7, version 2, Send, TID, attribute 0x0010 */
    CHECK_EQ(mad[0], 1); CHECK_EQ(mad[1], 7); CHECK_EQ(mad[2], 2); CHECK_EQ(mad[3], 3);
    CHECK_EQ(mad[8], 0x11); CHECK_EQ(mad[15], 0x88);
    CHECK_EQ(mad[16], 0x00); CHECK_EQ(mad[17], 0x10);
    /* table 106 */
    CHECK_EQ(d[0], 0xA1); CHECK_EQ(d[3], 0xD4);
    CHECK_EQ(d[12], 0x01); CHECK_EQ(d[13], 0x06); CHECK_EQ(d[14], 0x4E); CHECK_EQ(d[15], 0x20);
    CHECK_EQ(d[32], 0x00); CHECK_EQ(d[34], 0x11); CHECK_EQ(d[35], 1);   /* QPN, responder resources */
    CHECK_EQ(d[39], 2);                                                /* initiator depth */
    CHECK_EQ(d[43], (20 << 3) | 1);                                    /* timeout, RC, flow control */
    CHECK_EQ(d[44], 0xAB); CHECK_EQ(d[46], 0xEF); CHECK_EQ(d[47], (20 << 3) | 7);
    CHECK_EQ(d[48], 0xFF); CHECK_EQ(d[49], 0xFF);
    CHECK_EQ(d[50], (IBV_MTU_1024 << 4) | 6);                          /* MTU, RDC 0, RNR retry */
    CHECK_EQ(d[51], (15 << 4) | (1 << 3));                             /* max CM retries, SRQ */
    CHECK_EQ(d[52], 0xFF); CHECK_EQ(d[55], 0xFF);
    CHECK_EQ(d[56 + 15], 0x42);
    CHECK_EQ(d[88], 0xAB); CHECK_EQ(d[89], 0xCD); CHECK_EQ(d[90], 0xE0); CHECK_EQ(d[91], 2);
    CHECK_EQ(d[93], 64); CHECK_EQ(d[94], 5 << 4); CHECK_EQ(d[95], 17 << 3);
    CHECK_EQ(d[140 + 91], 0x99);                                       /* last private data byte */
    struct cm_msg back;
    CHECK_EQ(cm_mad_decode(mad, sizeof mad, &back), 0);
    CHECK_EQ(back.attr, CM_ATTR_REQ);
    CHECK_EQ(back.tid, m.tid);
    CHECK_EQ(back.service_id, m.service_id);
    CHECK_EQ(back.local_ca_guid, m.local_ca_guid);
    CHECK_EQ(back.starting_psn, 0xABCDEF);
    CHECK_EQ(back.retry_count, 7);
    CHECK_EQ(back.rnr_retry_count, 6);
    CHECK_EQ(back.srq, 1);
    CHECK_EQ(back.primary.flow_label, 0xABCDE);
    CHECK_EQ(back.primary.packet_rate, 2);
    CHECK_EQ(back.primary.local_ack_timeout, 17);
    CHECK_EQ(back.private_len, 92);
    CHECK_EQ(back.private_data[91], 0x99);
    CHECK(!memcmp(&back.primary.local_gid, &m.primary.local_gid, 16));
}

static void test_other_layouts(void)
{
    uint8_t mad[CM_MAD_LEN];
    struct cm_msg rep = {.attr = CM_ATTR_REP, .local_comm_id = 1, .remote_comm_id = 2, .qpn = 0x123456,
                         .starting_psn = 0x654321, .responder_resources = 3, .initiator_depth = 4,
                         .target_ack_delay = 15, .rnr_retry_count = 7, .srq = 1, .local_ca_guid = 9};
    CHECK_EQ(cm_mad_encode(&rep, mad), 0);
    const uint8_t *d = mad + CM_MAD_HDR_LEN;
    CHECK_EQ(mad[17], 0x13);
    CHECK_EQ(d[7], 2); CHECK_EQ(d[12], 0x12); CHECK_EQ(d[14], 0x56); CHECK_EQ(d[20], 0x65);
    CHECK_EQ(d[24], 3); CHECK_EQ(d[25], 4); CHECK_EQ(d[26], 15 << 3); CHECK_EQ(d[27], (7 << 5) | (1 << 4));
    CHECK_EQ(d[35], 9);

    struct cm_msg rej = {.attr = CM_ATTR_REJ, .local_comm_id = 0, .remote_comm_id = 0x77, .msg_ref = 0,
                         .reason = 8};
    memcpy(rej.private_data, "nope", 4);
    CHECK_EQ(cm_mad_encode(&rej, mad), 0);
    CHECK_EQ(mad[17], 0x12); CHECK_EQ(d[7], 0x77); CHECK_EQ(d[10], 0); CHECK_EQ(d[11], 8);
    CHECK(!memcmp(d + 84, "nope", 4));
    struct cm_msg back;
    CHECK_EQ(cm_mad_decode(mad, sizeof mad, &back), 0);
    CHECK_EQ(back.reason, 8);
    CHECK_EQ(back.private_len, 148);
    CHECK_EQ(cm_rej_reason_name(8)[0], 'I');
    CHECK(!strcmp(cm_rej_reason_name(28), "CONSUMER_DEFINED"));

    struct cm_msg sidr = {.attr = CM_ATTR_SIDR_REP, .local_comm_id = 5, .status = 1, .qpn = 0x11,
                          .service_id = 0x0000000001111234ull, .qkey = 0x01234567};
    CHECK_EQ(cm_mad_encode(&sidr, mad), 0);
    CHECK_EQ(d[4], 1); CHECK_EQ(d[10], 0x11); CHECK_EQ(d[12 + 5], 0x11); CHECK_EQ(d[20], 0x01); CHECK_EQ(d[23], 0x67);
    struct cm_msg mra = {.attr = CM_ATTR_MRA, .msg_ref = 0, .service_timeout = 24};
    CHECK_EQ(cm_mad_encode(&mra, mad), 0);
    CHECK_EQ(d[9], 24 << 3);
    struct cm_msg dreq = {.attr = CM_ATTR_DREQ, .qpn = 0xABCDEF};
    CHECK_EQ(cm_mad_encode(&dreq, mad), 0);
    CHECK_EQ(d[8], 0xAB); CHECK_EQ(d[11], 0);
    CHECK_EQ(cm_attr_private_len(CM_ATTR_RTU), 224);
    CHECK_EQ(cm_attr_private_len(CM_ATTR_DREQ), 220);
}

static void test_ip_hdr(void)
{
    struct cm_ip_hdr h = {.version = 0, .ip_version = 4, .src_port = 0x84AD, .src_ip_be = htonl(0x7F090802),
                          .dst_ip_be = htonl(0x7F090801)};
    uint8_t b[CM_IP_HDR_LEN];
    cm_ip_hdr_put(&h, b);
    CHECK_EQ(b[0], 0); CHECK_EQ(b[1], 0x40); CHECK_EQ(b[2], 0x84); CHECK_EQ(b[3], 0xAD);
    CHECK_EQ(b[16], 0x7F); CHECK_EQ(b[19], 0x02); CHECK_EQ(b[32], 0x7F); CHECK_EQ(b[35], 0x01);
    struct cm_ip_hdr g;
    CHECK(cm_ip_hdr_get(b, &g));
    CHECK_EQ(g.src_port, 0x84AD);
    CHECK_EQ(g.dst_ip_be, h.dst_ip_be);
    b[1] = 0x60;                                   /* IPv6: not ours */
    CHECK(!cm_ip_hdr_get(b, &g));
}

static void test_hostile(void)
{
    uint8_t mad[CM_MAD_LEN] = {1, 7, 2, 3};
    struct cm_msg m;
    CHECK_EQ(cm_mad_decode(NULL, 256, &m), CM_MAD_ERR_LENGTH);
    CHECK_EQ(cm_mad_decode(mad, 255, &m), CM_MAD_ERR_LENGTH);
    CHECK_EQ(cm_mad_decode(mad, 257, &m), CM_MAD_ERR_LENGTH);
    mad[17] = 0x10;
    CHECK_EQ(cm_mad_decode(mad, 256, &m), 0);
    mad[0] = 2;
    CHECK_EQ(cm_mad_decode(mad, 256, &m), CM_MAD_ERR_BASE);
    mad[0] = 1; mad[1] = 0x81;
    CHECK_EQ(cm_mad_decode(mad, 256, &m), CM_MAD_ERR_CLASS);
    mad[1] = 7; mad[2] = 1;
    CHECK_EQ(cm_mad_decode(mad, 256, &m), CM_MAD_ERR_VERSION);
    mad[2] = 2; mad[3] = 1;
    CHECK_EQ(cm_mad_decode(mad, 256, &m), CM_MAD_ERR_METHOD);
    mad[3] = 3; mad[17] = 0x19;                    /* LAP: not handled */
    CHECK_EQ(cm_mad_decode(mad, 256, &m), CM_MAD_ERR_ATTR);
    /* random MADs with a valid header decode or are refused, never crash */
    srand(42);
    for (int i = 0; i < 20000; i++) {
        for (size_t j = 0; j < sizeof mad; j++)
            mad[j] = (uint8_t)rand();
        mad[0] = 1; mad[1] = 7; mad[2] = 2; mad[3] = 3; mad[16] = 0; mad[17] = (uint8_t)(0x10 + rand() % 10);
        int rc = cm_mad_decode(mad, sizeof mad, &m);
        CHECK(rc == 0 || rc == CM_MAD_ERR_ATTR);
        if (rc == 0) {
            uint8_t again[CM_MAD_LEN];
            CHECK_EQ(cm_mad_encode(&m, again), 0);
        }
    }
}

int main(void)
{
    test_req_layout();
    test_other_layouts();
    test_ip_hdr();
    test_hostile();
    return sv_check_report("test_cm_mad");
}
