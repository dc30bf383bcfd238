/* The data path under load, shaped like `rdmatrace capture --qps 1000`: two hosts as two
 * processes (one softverbs device each), 1000 RC QPs with a CQ each, receives posted before RTR,
 * rc_pingpong's timers, then a 4 KiB SEND each way on every QP at once (4 packets at path MTU
 * 1024: 8000 requests in flight between the devices). Ten bring-ups in a row must all complete
 * every SEND with the right data, and neither device may lose a datagram to a full socket
 * buffer. Parameters are exchanged over a socketpair, like the capture's out-of-band link. */
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "sv_check.h"
#include "sv_testdev.h"

#define QPS          1000
#define ROUNDS       10
#define MSG          4096
#define ROUND_WAIT_MS 60000   /* per round; a round normally takes well under a second */

struct host {
    struct ibv_context *ctx;
    struct ibv_pd *pd;
    struct ibv_mr *mr;
    uint8_t *buf;              /* per QP: MSG to send, then MSG to receive into */
    struct ibv_cq *cq[QPS];
    struct ibv_qp *qp[QPS];
};

struct params {
    uint32_t qpn[QPS], psn[QPS];
};

static bool xfer(int fd, void *p, size_t n, bool out)
{
    uint8_t *b = p;
    while (n) {
        ssize_t k = out ? write(fd, b, n) : read(fd, b, n);
        if (k <= 0)
            return false;
        b += k;
        n -= (size_t)k;
    }
    return true;
}

static bool barrier(int fd)
{
    char c = 'b';
    return xfer(fd, &c, 1, true) && xfer(fd, &c, 1, false);
}

static uint8_t pattern(int round, int qp, bool from_a, uint32_t i)
{
    return (uint8_t)(round * 31 + qp * 7 + (from_a ? 3 : 5) + i);
}

static uint8_t *send_buf(struct host *h, int i) { return h->buf + (size_t)i * 2 * MSG; }
static uint8_t *recv_buf(struct host *h, int i) { return send_buf(h, i) + MSG; }

/* One bring-up and exchange; the number of QPs whose SEND or receive failed (or QPS if setup failed). */
static int one_round(struct host *h, int fd, int round, bool is_a, const char *peer_ip)
{
    struct params mine, theirs;
    int bad = 0;
    for (int i = 0; i < QPS; i++) {
        h->cq[i] = ibv_create_cq(h->ctx, 32, NULL, NULL, 0);
        h->qp[i] = h->cq[i] ? sv_test_make_qp(h->pd, h->cq[i], IBV_QPT_RC, 16) : NULL;
        if (!h->qp[i])
            return QPS;
        struct ibv_sge sge = {.addr = (uintptr_t)recv_buf(h, i), .length = MSG, .lkey = h->mr->lkey};
        struct ibv_recv_wr wr = {.wr_id = (uint64_t)i, .sg_list = &sge, .num_sge = 1}, *badwr;
        memset(recv_buf(h, i), 0, MSG);
        for (uint32_t k = 0; k < MSG; k++)
            send_buf(h, i)[k] = pattern(round, i, is_a, k);
        mine.qpn[i] = h->qp[i]->qp_num;
        mine.psn[i] = (uint32_t)lrand48() & 0xFFFFFF;
        struct ibv_qp_attr a = {.qp_state = IBV_QPS_INIT, .port_num = 1};
        if (ibv_modify_qp(h->qp[i], &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS) ||
            ibv_post_recv(h->qp[i], &wr, &badwr))   /* receives before RTR, as the capture does */
            return QPS;
    }
    if (!xfer(fd, &mine, sizeof mine, true) || !xfer(fd, &theirs, sizeof theirs, false))
        return QPS;
    for (int i = 0; i < QPS; i++) {
        struct sv_test_conn c = sv_test_conn_defaults();   /* rc_pingpong's timers, as the capture */
        c.remote_ip = peer_ip;
        c.remote_qpn = theirs.qpn[i];
        c.remote_psn = theirs.psn[i];
        c.local_psn = mine.psn[i];
        c.timeout = 14;
        c.retry_cnt = 7;
        c.rnr_retry = 7;
        c.min_rnr_timer = 12;
        c.access = 0;
        /* sv_test_connect starts at RESET->INIT; the QP is in INIT already, so do RTR/RTS here */
        struct ibv_qp_attr a;
        memset(&a, 0, sizeof a);
        a.qp_state = IBV_QPS_RTR;
        a.path_mtu = c.mtu;
        a.dest_qp_num = c.remote_qpn;
        a.rq_psn = c.remote_psn;
        a.max_dest_rd_atomic = 1;
        a.min_rnr_timer = c.min_rnr_timer;
        a.ah_attr.is_global = 1;
        a.ah_attr.port_num = 1;
        a.ah_attr.grh.hop_limit = 1;
        a.ah_attr.grh.sgid_index = c.sgid_index;
        sv_test_gid(&a.ah_attr.grh.dgid, peer_ip);
        if (ibv_modify_qp(h->qp[i], &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
                                            IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
            return QPS;
        memset(&a, 0, sizeof a);
        a.qp_state = IBV_QPS_RTS;
        a.timeout = c.timeout;
        a.retry_cnt = c.retry_cnt;
        a.rnr_retry = c.rnr_retry;
        a.sq_psn = c.local_psn;
        a.max_rd_atomic = 1;
        if (ibv_modify_qp(h->qp[i], &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                                            IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC))
            return QPS;
    }
    if (!barrier(fd))
        return QPS;
    for (int i = 0; i < QPS; i++) {
        struct ibv_sge sge = {.addr = (uintptr_t)send_buf(h, i), .length = MSG, .lkey = h->mr->lkey};
        struct ibv_send_wr wr = {.wr_id = (uint64_t)i, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
                                 .send_flags = IBV_SEND_SIGNALED}, *badwr;
        if (ibv_post_send(h->qp[i], &wr, &badwr))
            bad++;
    }
    /* every QP completes its send and its receive (or fails) before the deadline */
    static uint8_t done[QPS];
    memset(done, 0, sizeof done);
    int pending = 2 * QPS - 2 * bad;
    for (uint64_t end = sv_test_ms() + ROUND_WAIT_MS; pending > 0 && sv_test_ms() < end;) {
        int got = 0;
        for (int i = 0; i < QPS; i++) {
            struct ibv_wc wc[2];
            int n = ibv_poll_cq(h->cq[i], 2, wc);
            for (int k = 0; k < n; k++) {
                got++;
                pending--;
                if (wc[k].status != IBV_WC_SUCCESS) {
                    fprintf(stderr, "%s round %d QP %d: %s %s\n", is_a ? "A" : "B", round, i,
                            wc[k].opcode == IBV_WC_RECV ? "receive" : "send", ibv_wc_status_str(wc[k].status));
                    done[i] |= 4;
                } else {
                    done[i] |= wc[k].opcode == IBV_WC_RECV ? 1 : 2;
                }
            }
        }
        if (!got)
            usleep(500);
    }
    for (int i = 0; i < QPS; i++) {
        bool ok = done[i] == 3;
        for (uint32_t k = 0; ok && k < MSG; k++)
            ok = recv_buf(h, i)[k] == pattern(round, i, !is_a, k);
        bad += !ok;
    }
    if (!barrier(fd))   /* both sides are done before anything is destroyed */
        bad = QPS;
    for (int i = 0; i < QPS; i++) {
        ibv_destroy_qp(h->qp[i]);
        ibv_destroy_cq(h->cq[i]);
    }
    return bad;
}

static const char *const watched[] = {"rcvd_sock_overflow", "retry_exceeded_err", "completer_retry_err",
                                      "local_ack_timeout_err", "tx_wait", "tx_sock_busy", "send_err",
                                      "socket_rcvbuf", "tx_limit"};

/* One host's whole run; returns the number of rounds that failed, or -1 if it could not start. */
static int run_host(const char *spec, const char *name, const char *peer_ip, int fd, bool is_a,
                    uint64_t *overflow)
{
    struct host h;
    memset(&h, 0, sizeof h);
    h.ctx = sv_test_open(spec, name);
    if (!h.ctx)
        return -1;
    h.pd = ibv_alloc_pd(h.ctx);
    h.buf = calloc(QPS, 2 * MSG);
    h.mr = h.buf ? ibv_reg_mr(h.pd, h.buf, (size_t)QPS * 2 * MSG, IBV_ACCESS_LOCAL_WRITE) : NULL;
    if (!h.mr)
        return -1;
    srand48(is_a ? 1 : 2);
    int failed = 0;
    for (int r = 0; r < ROUNDS; r++) {
        int bad = one_round(&h, fd, r, is_a, peer_ip);
        if (bad) {
            fprintf(stderr, "%s round %d: %d of %d QPs failed\n", is_a ? "A" : "B", r, bad, QPS);
            failed++;
        }
    }
    printf("host %s: %d of %d bring-ups of %d QPs x %d B passed;", is_a ? "A" : "B", ROUNDS - failed, ROUNDS,
           QPS, MSG);
    for (size_t i = 0; i < sizeof watched / sizeof watched[0]; i++)
        printf(" %s=%llu", watched[i], (unsigned long long)sv_test_counter(h.ctx, watched[i]));
    printf("\n");
    fflush(stdout);
    *overflow = sv_test_counter(h.ctx, "rcvd_sock_overflow") + sv_test_counter(h.ctx, "retry_exceeded_err");
    ibv_dereg_mr(h.mr);
    ibv_dealloc_pd(h.pd);
    ibv_close_device(h.ctx);
    free(h.buf);
    return failed;
}

int main(void)
{
    char ip_a[32], ip_b[32], spec[128];
    sv_test_ip(ip_a, sizeof ip_a, 1);
    sv_test_ip(ip_b, sizeof ip_b, 2);
    snprintf(spec, sizeof spec, "la@%s,lb@%s", ip_a, ip_b);
    int sp[2];
    CHECK_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp), 0);
    pid_t child = fork();
    CHECK(child >= 0);
    if (child == 0) {
        close(sp[0]);
        alarm(600);   /* a wedged run ends instead of hanging the build */
        uint64_t lost = 0;
        int failed = run_host(spec, "lb", ip_a, sp[1], false, &lost);
        _exit(failed == 0 && lost == 0 ? 0 : 1);
    }
    close(sp[1]);
    alarm(600);
    uint64_t lost = 0;
    int failed = run_host(spec, "la", ip_b, sp[0], true, &lost);
    close(sp[0]);
    int status = 0;
    CHECK_EQ(waitpid(child, &status, 0), child);
    CHECK_EQ(failed, 0);
    CHECK_EQ(lost, 0);   /* no datagram lost to a full socket buffer, no RETRY_EXC */
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    softverbs_configure(NULL);
    return sv_check_report("test_sv_load");
}
