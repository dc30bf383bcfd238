/* RC recovery when a NAK meets packets already in flight (IBA 9.7.5.2: RNR and PSN sequence
 * errors are class B - one NAK, then the packets behind it are dropped silently until the
 * requester retries). Each side is tested against a hand-driven peer - a plain UDP socket on
 * the peer's address that speaks RoCEv2 through the codec - so every packet is known, and
 * end to end with two devices: a receiver that posts its receive late costs no transport retry.
 * Ordering on loopback is FIFO, so "the next packet is the ACK" proves no NAK came before it. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include "sv_check.h"
#include "sv_hdr.h"
#include "sv_pkt.h"
#include "sv_testpair.h"

#define MTU        1024
#define MSG        4096            /* the capture default: 4 packets at path MTU 1024 */
#define PEER_QPN   0x99

static char ip_dev[32], ip_peer[32];
static int peer_fd = -1;

static struct sv_flow flow_to_dev(void)
{
    return (struct sv_flow){.src_ip_be = inet_addr(ip_peer), .dst_ip_be = inet_addr(ip_dev),
                            .src_port = SV_ROCE_UDP_PORT, .dst_port = SV_ROCE_UDP_PORT};
}

static void peer_send(const struct sv_pkt *p)
{
    uint8_t buf[MTU + 128];
    struct sv_flow f = flow_to_dev();
    ssize_t n = sv_pkt_encode(p, &f, buf, sizeof buf);
    CHECK(n > 0);
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(SV_ROCE_UDP_PORT)};
    inet_pton(AF_INET, ip_dev, &to.sin_addr);
    if (n > 0)
        CHECK_EQ(sendto(peer_fd, buf, (size_t)n, 0, (struct sockaddr *)&to, sizeof to), n);
}

/* The next packet the device sent to the peer; false after SV_TEST_WAIT_MS without one. */
static bool peer_recv(struct sv_pkt *p, uint8_t *buf, size_t cap)
{
    struct pollfd pfd = {.fd = peer_fd, .events = POLLIN};
    if (poll(&pfd, 1, SV_TEST_WAIT_MS) != 1)
        return false;
    ssize_t n = recv(peer_fd, buf, cap, 0);
    struct sv_flow back = {.src_ip_be = inet_addr(ip_dev), .dst_ip_be = inet_addr(ip_peer),
                           .src_port = SV_ROCE_UDP_PORT, .dst_port = SV_ROCE_UDP_PORT};
    return n > 0 && sv_pkt_decode(buf, (size_t)n, &back, p) == 0;
}

static struct sv_pkt aeth(uint32_t qpn, uint32_t psn, uint8_t syndrome)
{
    struct sv_pkt p;
    memset(&p, 0, sizeof p);
    p.opcode = SV_OP_RC_ACKNOWLEDGE;
    p.pkey = 0xFFFF;
    p.dest_qpn = qpn;
    p.psn = psn;
    p.aeth.syndrome = syndrome;
    return p;
}

/* Packet i (0..3) of a 4 KiB SEND starting at psn; the payload is `data` + i * MTU. */
static struct sv_pkt send_part(uint32_t qpn, uint32_t psn, int i, const uint8_t *data)
{
    static const uint8_t ops[4] = {SV_OP_RC_SEND_FIRST, SV_OP_RC_SEND_MIDDLE, SV_OP_RC_SEND_MIDDLE,
                                   SV_OP_RC_SEND_LAST};
    struct sv_pkt p;
    memset(&p, 0, sizeof p);
    p.opcode = ops[i];
    p.pkey = 0xFFFF;
    p.dest_qpn = qpn;
    p.psn = sv_psn_add(psn, (uint32_t)i);
    p.flags = i == 3 ? SV_BTH_ACKREQ : 0;
    p.payload = data + i * MTU;
    p.payload_len = MTU;
    return p;
}

static void expect_aeth(uint32_t psn, uint8_t syndrome)
{
    uint8_t buf[256];
    struct sv_pkt got;
    CHECK(peer_recv(&got, buf, sizeof buf));
    CHECK_EQ(got.opcode, SV_OP_RC_ACKNOWLEDGE);
    CHECK_EQ(got.psn, psn);
    CHECK_EQ(got.aeth.syndrome, syndrome);
}

static uint64_t counter_delta(struct ibv_context *ctx, const char *name, uint64_t base)
{
    return sv_test_counter(ctx, name) - base;
}

/* A QP on the device talking to the hand-driven peer (QPN PEER_QPN at ip_peer). */
static struct ibv_qp *peer_qp(struct side *s, uint32_t sq_psn, uint32_t rq_psn, uint8_t retry_cnt)
{
    struct sv_test_conn c = sv_test_conn_defaults();
    c.remote_ip = ip_peer;
    c.remote_qpn = PEER_QPN;
    c.local_psn = sq_psn;
    c.remote_psn = rq_psn;
    c.timeout = 18;            /* 1 s: no timeout fires while the test drives the peer */
    c.retry_cnt = retry_cnt;
    c.min_rnr_timer = 14;      /* 1.28 ms */
    CHECK_EQ(sv_test_connect(s->qp, &c), 0);
    return s->qp;
}

/* Responder: RNR NAK on FIRST, then MIDDLE/LAST dropped silently; a sequence gap NAKed once;
 * duplicates re-ACKed and not executed. */
static void test_responder(struct ibv_context *ctx)
{
    struct side s;
    side_init(&s, ctx, ip_dev, IBV_QPT_RC, 64, ALL_ACCESS);
    const uint32_t P = 0x100;
    struct ibv_qp *qp = peer_qp(&s, 0x10, P, 3);
    uint32_t qpn = qp->qp_num;
    static uint8_t data[MSG];
    fill(data, MSG, 0x21);
    struct ibv_wc wc;

    /* 1. no receive posted: RNR NAK for FIRST and nothing for MIDDLE, MIDDLE, LAST */
    uint64_t rnr0 = sv_test_counter(ctx, "send_rnr_err"), oos0 = sv_test_counter(ctx, "out_of_seq_request");
    for (int i = 0; i < 4; i++) {
        struct sv_pkt p = send_part(qpn, P, i, data);
        peer_send(&p);
    }
    expect_aeth(P, sv_aeth_rnr_syndrome(14));
    CHECK_EQ(post_recv(&s, 1, 0, MSG), 0);
    for (int i = 0; i < 4; i++) {   /* the requester's retry after the RNR timer */
        struct sv_pkt p = send_part(qpn, P, i, data);
        peer_send(&p);
    }
    expect_aeth(sv_psn_add(P, 3), SV_AETH_ACK_SYNDROME);   /* no sequence NAK before it */
    CHECK(sv_test_wait_wc(s.cq, &wc, SV_TEST_WAIT_MS));
    CHECK_EQ(wc.status, IBV_WC_SUCCESS);
    CHECK_EQ(wc.wr_id, 1);
    CHECK_EQ(wc.byte_len, MSG);
    CHECK(!memcmp(s.buf, data, MSG));
    CHECK_EQ(counter_delta(ctx, "send_rnr_err", rnr0), 1);
    CHECK_EQ(counter_delta(ctx, "out_of_seq_request", oos0), 3);

    /* 2. FIRST lost: one sequence NAK for it, MIDDLE/LAST behind it dropped silently */
    const uint32_t Q = sv_psn_add(P, 4);
    CHECK_EQ(post_recv(&s, 2, 0, MSG), 0);
    CHECK_EQ(post_recv(&s, 3, 8192, MSG), 0);
    fill(data, MSG, 0x42);
    for (int i = 1; i < 4; i++) {
        struct sv_pkt p = send_part(qpn, Q, i, data);
        peer_send(&p);
    }
    expect_aeth(Q, SV_NAK_PSN_SEQ_ERR);
    for (int i = 0; i < 4; i++) {
        struct sv_pkt p = send_part(qpn, Q, i, data);
        peer_send(&p);
    }
    expect_aeth(sv_psn_add(Q, 3), SV_AETH_ACK_SYNDROME);   /* no second NAK before it */
    CHECK(sv_test_wait_wc(s.cq, &wc, SV_TEST_WAIT_MS));
    CHECK_EQ(wc.status, IBV_WC_SUCCESS);
    CHECK_EQ(wc.wr_id, 2);
    CHECK(!memcmp(s.buf, data, MSG));

    /* 3. the whole message again (a retry after a lost ACK): every packet is a duplicate,
     * re-ACKed with ePSN - 1 and not executed - receive 3 stays posted for the next message */
    uint64_t dup0 = sv_test_counter(ctx, "duplicate_request");
    for (int i = 0; i < 4; i++) {
        struct sv_pkt p = send_part(qpn, Q, i, data);
        peer_send(&p);
    }
    for (int i = 0; i < 4; i++)
        expect_aeth(sv_psn_add(Q, 3), SV_AETH_ACK_SYNDROME);
    CHECK_EQ(counter_delta(ctx, "duplicate_request", dup0), 4);
    const uint32_t R = sv_psn_add(Q, 4);
    fill(data, MSG, 0x63);
    for (int i = 0; i < 4; i++) {
        struct sv_pkt p = send_part(qpn, R, i, data);
        peer_send(&p);
    }
    expect_aeth(sv_psn_add(R, 3), SV_AETH_ACK_SYNDROME);
    CHECK(sv_test_wait_wc(s.cq, &wc, SV_TEST_WAIT_MS));
    CHECK_EQ(wc.wr_id, 3);
    CHECK_EQ(wc.byte_len, MSG);
    CHECK(!memcmp(s.buf + 8192, data, MSG));
    struct ibv_qp_attr q;
    struct ibv_qp_init_attr qi;
    ibv_query_qp(qp, &q, IBV_QP_STATE | IBV_QP_RQ_PSN, &qi);
    CHECK_EQ(q.qp_state, IBV_QPS_RTS);
    CHECK_EQ(q.rq_psn, sv_psn_add(R, 4));
    side_fini(&s);
}

/* Reads the 4 packets of one transmission of a 4 KiB SEND; true if they are PSNs psn.. in order. */
static bool expect_send_from(uint32_t psn, int from)
{
    uint8_t buf[MTU + 128];
    bool ok = true;
    for (int i = from; i < 4; i++) {
        struct sv_pkt got;
        bool r = peer_recv(&got, buf, sizeof buf);
        CHECK(r);
        CHECK_EQ(got.psn, sv_psn_add(psn, (uint32_t)i));
        CHECK_EQ(got.dest_qpn, PEER_QPN);
        ok = ok && r && got.psn == sv_psn_add(psn, (uint32_t)i);
    }
    return ok;
}

/* Requester: an RNR NAK followed by a sequence NAK for the same PSN (what a responder that
 * NAKs the MIDDLE behind an RNR'd FIRST sends) costs no transport retry; a sequence NAK that
 * arrives twice costs one. retry_cnt 1: a second retry would end in RETRY_EXC. */
static void test_requester(struct ibv_context *ctx)
{
    struct side s;
    side_init(&s, ctx, ip_dev, IBV_QPT_RC, 64, ALL_ACCESS);
    const uint32_t P = 0x200;
    struct ibv_qp *qp = peer_qp(&s, P, 0x10, 1);
    uint32_t qpn = qp->qp_num;
    struct ibv_wc wc;
    uint64_t retry0 = sv_test_counter(ctx, "completer_retry_err"), rnr0 = sv_test_counter(ctx, "rcvd_rnr_err");

    fill(s.buf, MSG, 7);
    CHECK_EQ(post_send(&s, 1, IBV_WR_SEND, 0, MSG, 0, 0, 0), 0);
    CHECK(expect_send_from(P, 0));
    struct sv_pkt p = aeth(qpn, P, sv_aeth_rnr_syndrome(14));
    peer_send(&p);
    p = aeth(qpn, P, SV_NAK_PSN_SEQ_ERR);
    peer_send(&p);
    CHECK(expect_send_from(P, 0));   /* after the RNR wait, from the NAKed PSN */
    p = aeth(qpn, sv_psn_add(P, 3), SV_AETH_ACK_SYNDROME);
    peer_send(&p);
    CHECK(sv_test_wait_wc(s.cq, &wc, SV_TEST_WAIT_MS));
    CHECK_EQ(wc.status, IBV_WC_SUCCESS);
    CHECK_EQ(wc.wr_id, 1);
    CHECK_EQ(counter_delta(ctx, "completer_retry_err", retry0), 0);
    CHECK_EQ(counter_delta(ctx, "rcvd_rnr_err", rnr0), 1);

    /* the second packet was lost: the NAK names it, and arrives twice */
    const uint32_t Q = sv_psn_add(P, 4);
    CHECK_EQ(post_send(&s, 2, IBV_WR_SEND, 0, MSG, 0, 0, 0), 0);
    CHECK(expect_send_from(Q, 0));
    p = aeth(qpn, sv_psn_add(Q, 1), SV_NAK_PSN_SEQ_ERR);
    peer_send(&p);
    peer_send(&p);
    CHECK(expect_send_from(Q, 1));   /* one retransmission, from the NAKed PSN */
    p = aeth(qpn, sv_psn_add(Q, 3), SV_AETH_ACK_SYNDROME);
    peer_send(&p);
    CHECK(sv_test_wait_wc(s.cq, &wc, SV_TEST_WAIT_MS));
    CHECK_EQ(wc.status, IBV_WC_SUCCESS);
    CHECK_EQ(wc.wr_id, 2);
    CHECK_EQ(counter_delta(ctx, "completer_retry_err", retry0), 1);
    struct pollfd pfd = {.fd = peer_fd, .events = POLLIN};
    CHECK_EQ(poll(&pfd, 1, 0), 0);   /* nothing else was (re)sent */
    side_fini(&s);
}

/* End to end: the receiver posts its receive only after the first SEND packet has reached it. */
static void test_late_receiver(void)
{
    struct side a, b;
    struct sv_test_conn ca = sv_test_conn_defaults(), cb = sv_test_conn_defaults();
    ca.timeout = 18;
    ca.retry_cnt = 0;        /* any transport retry would fail the SEND with RETRY_EXC */
    ca.rnr_retry = 7;
    cb.min_rnr_timer = 12;   /* 0.64 ms, rc_pingpong's value */
    CHECK_EQ(pair_up(&a, &b, IBV_QPT_RC, ca, cb, 64, ALL_ACCESS), 0);
    const char *names[] = {"completer_retry_err", "local_ack_timeout_err", "rcvd_seq_err", "retry_exceeded_err"};
    uint64_t base[4];
    for (int i = 0; i < 4; i++)
        base[i] = sv_test_counter(ctx_a, names[i]);
    uint64_t rnr_b = sv_test_counter(ctx_b, "send_rnr_err");
    fill(a.buf, MSG, 0x5A);
    CHECK_EQ(post_send(&a, 1, IBV_WR_SEND, 0, MSG, 0, 0, 0), 0);
    for (uint64_t end = sv_test_ms() + SV_TEST_WAIT_MS;
         sv_test_counter(ctx_b, "send_rnr_err") == rnr_b && sv_test_ms() < end;)
        usleep(200);
    CHECK(sv_test_counter(ctx_b, "send_rnr_err") > rnr_b);
    CHECK_EQ(post_recv(&b, 2, 0, MSG), 0);
    struct ibv_wc wc;
    CHECK(sv_test_wait_wc(a.cq, &wc, SV_TEST_WAIT_MS));
    CHECK_EQ(wc.status, IBV_WC_SUCCESS);
    CHECK(sv_test_wait_wc(b.cq, &wc, SV_TEST_WAIT_MS));
    CHECK_EQ(wc.status, IBV_WC_SUCCESS);
    CHECK_EQ(wc.byte_len, MSG);
    CHECK(!memcmp(a.buf, b.buf, MSG));
    for (int i = 0; i < 4; i++) {
        uint64_t d = counter_delta(ctx_a, names[i], base[i]);
        if (d)
            fprintf(stderr, "late receiver: %s grew by %llu\n", names[i], (unsigned long long)d);
        CHECK_EQ(d, 0);
    }
    CHECK(sv_test_counter(ctx_a, "rcvd_rnr_err") >= 1);
    side_fini(&a);
    side_fini(&b);
}

static int open_peer(void)
{
    peer_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in me = {.sin_family = AF_INET, .sin_port = htons(SV_ROCE_UDP_PORT)};
    inet_pton(AF_INET, ip_peer, &me.sin_addr);
    return peer_fd >= 0 && bind(peer_fd, (struct sockaddr *)&me, sizeof me) == 0 ? 0 : -1;
}

int main(void)
{
    /* the hand-driven peer: device "dev" at .1, the test's socket at .3 */
    sv_test_ip(ip_dev, sizeof ip_dev, 1);
    sv_test_ip(ip_peer, sizeof ip_peer, 3);
    char spec[64];
    snprintf(spec, sizeof spec, "dev@%s", ip_dev);
    struct ibv_context *ctx = sv_test_open(spec, "dev");
    CHECK(ctx != NULL);
    CHECK_EQ(open_peer(), 0);
    if (ctx && peer_fd >= 0) {
        test_responder(ctx);
        test_requester(ctx);
    }
    if (ctx)
        ibv_close_device(ctx);
    if (peer_fd >= 0)
        close(peer_fd);

    CHECK_EQ(pair_open(), 0);
    if (ctx_a && ctx_b)
        test_late_receiver();
    pair_close();
    return sv_check_report("test_sv_recovery");
}
