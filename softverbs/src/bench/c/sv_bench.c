/* softverbs benchmark through the public libibverbs API: one process, two softverbs devices,
 * each measurement next to its plain-UDP baseline on the same addresses (sv_bench_udp.c):
 *   (a) RC bring-up rate: QP pairs created and taken RESET->INIT->RTR->RTS at both ends per second
 *   (b) SEND round-trip latency: a message ping-ponged between the two devices, p50/p99, against
 *       a UDP ping-pong of the same payload
 *   (c) SEND bandwidth: 64 KiB SENDs streamed from A to B, against a UDP stream of datagrams the
 *       size of one softverbs packet (path MTU 1024 + 16 bytes of BTH and ICRC)
 * Build and run: make -C softverbs bench   (links the built softverbs libibverbs.so.1, not internals)
 * Usage: sv_bench [-p pairs] [-n iterations] [-w warmup] [-s size[,size...]] [-t bandwidth_ms]
 *                 [-m round-trip path MTU: 256..4096, default 1024; bring-up and bandwidth stay at 1024]
 * Devices: SOFTVERBS_DEVICES if set (its first two devices), else softverbs_configure() with
 * "bencha@127.X.Y.1,benchb@127.X.Y.2", X.Y from the pid (never another process's address), with
 * 9000-byte links when -m is above 1024. */
#include <errno.h>
#include <infiniband/verbs.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "verbs_abi.h"   /* IBV_MTU_BYTES: the MTU table, generated from verbs-abi */

#include "softverbs.h"
#include "sv_bench.h"

#define PORT              1
#define GID_INDEX         3           /* IPv4-mapped RoCE v2 GID, as ibv_rc_pingpong -g 3 */
#define PATH_MTU          IBV_MTU_1024   /* BENCH_MTU bytes: bring-up and bandwidth */
#define CQ_DEPTH          256
#define QP_DEPTH          16
#define MAX_MSG           65536
#define BATCH             100         /* bring-up: pairs alive at once before they are destroyed */
#define OP_TIMEOUT_NS     (5LL * 1000 * 1000 * 1000)
#define BW_MSG            65536       /* bandwidth: bytes per SEND */
#define BW_OUTSTANDING    8           /* bandwidth: SENDs in flight (receives: QP_DEPTH) */

struct side {
    struct ibv_context *ctx;
    struct ibv_pd *pd;
    struct ibv_cq *cq;
    struct ibv_mr *mr;
    uint8_t *buf;
    union ibv_gid gid;
    char ip[16];                      /* from the IPv4-mapped GID */
};

int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void die(const char *what, int err)
{
    fprintf(stderr, "sv_bench: %s: %s\n", what, strerror(err));
    exit(1);
}

int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

double pct_us(const int64_t *sorted, size_t n, double p)
{
    size_t i = (size_t)(p * (double)(n - 1) + 0.5);
    return (double)sorted[i] / 1000.0;
}

static void open_side(struct ibv_device *dev, struct side *s)
{
    s->ctx = ibv_open_device(dev);
    if (!s->ctx)
        die("ibv_open_device", errno);
    s->pd = ibv_alloc_pd(s->ctx);
    if (!s->pd)
        die("ibv_alloc_pd", errno);
    s->cq = ibv_create_cq(s->ctx, CQ_DEPTH, NULL, NULL, 0);
    if (!s->cq)
        die("ibv_create_cq", errno);
    s->buf = aligned_alloc(4096, MAX_MSG);
    if (!s->buf)
        die("aligned_alloc", ENOMEM);
    memset(s->buf, 0x5a, MAX_MSG);
    s->mr = ibv_reg_mr(s->pd, s->buf, MAX_MSG, IBV_ACCESS_LOCAL_WRITE);
    if (!s->mr)
        die("ibv_reg_mr", errno);
    int rc = ibv_query_gid(s->ctx, PORT, GID_INDEX, &s->gid);
    if (rc)
        die("ibv_query_gid", rc < 0 ? errno : rc);
    snprintf(s->ip, sizeof s->ip, "%u.%u.%u.%u", s->gid.raw[12], s->gid.raw[13], s->gid.raw[14], s->gid.raw[15]);
}

static void close_side(struct side *s)
{
    ibv_dereg_mr(s->mr);
    ibv_destroy_cq(s->cq);
    ibv_dealloc_pd(s->pd);
    ibv_close_device(s->ctx);
    free(s->buf);
}

/* The path MTU enum of 256..4096 bytes (a power of two; checked by main). */
static enum ibv_mtu mtu_enum(int bytes)
{
#define MTU_OF_(name, b) if (bytes == (b)) return name;
    IBV_MTU_BYTES(MTU_OF_)
#undef MTU_OF_
    return IBV_MTU_1024;
}

static struct ibv_qp *create_rc_qp(struct side *s)
{
    struct ibv_qp_init_attr init = {
        .send_cq = s->cq, .recv_cq = s->cq, .qp_type = IBV_QPT_RC,
        .cap = { .max_send_wr = QP_DEPTH, .max_recv_wr = QP_DEPTH, .max_send_sge = 1, .max_recv_sge = 1 },
    };
    struct ibv_qp *qp = ibv_create_qp(s->pd, &init);
    if (!qp)
        die("ibv_create_qp", errno);
    return qp;
}

/* The three modifies ibv_rc_pingpong makes, towards the peer QP `remote_qpn` at `remote_gid`. */
static void connect_qp(struct ibv_qp *qp, uint32_t remote_qpn, const union ibv_gid *remote_gid,
                       uint32_t my_psn, uint32_t remote_psn, enum ibv_mtu mtu)
{
    struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .pkey_index = 0, .port_num = PORT,
                             .qp_access_flags = 0 };
    int rc = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
    if (rc)
        die("modify RESET->INIT", rc);
    memset(&a, 0, sizeof a);
    a.qp_state = IBV_QPS_RTR;
    a.path_mtu = mtu;
    a.dest_qp_num = remote_qpn;
    a.rq_psn = remote_psn;
    a.max_dest_rd_atomic = 1;
    a.min_rnr_timer = 12;
    a.ah_attr.is_global = 1;
    a.ah_attr.grh.dgid = *remote_gid;
    a.ah_attr.grh.sgid_index = GID_INDEX;
    a.ah_attr.grh.hop_limit = 64;
    a.ah_attr.port_num = PORT;
    rc = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN
                                   | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
    if (rc)
        die("modify INIT->RTR", rc);
    memset(&a, 0, sizeof a);
    a.qp_state = IBV_QPS_RTS;
    a.timeout = 14;
    a.retry_cnt = 7;
    a.rnr_retry = 7;
    a.sq_psn = my_psn;
    a.max_rd_atomic = 1;
    rc = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN
                                   | IBV_QP_MAX_QP_RD_ATOMIC);
    if (rc)
        die("modify RTR->RTS", rc);
}

static void bench_bringup(struct side *a, struct side *b, int pairs)
{
    int64_t *per_pair = calloc((size_t)pairs, sizeof *per_pair);
    struct ibv_qp *qa[BATCH], *qb[BATCH];
    if (!per_pair)
        die("calloc", ENOMEM);
    int64_t timed_ns = 0;
    for (int done = 0; done < pairs;) {
        int n = pairs - done < BATCH ? pairs - done : BATCH;
        for (int i = 0; i < n; i++) {
            int64_t t0 = now_ns();
            qa[i] = create_rc_qp(a);
            qb[i] = create_rc_qp(b);
            uint32_t psn_a = (uint32_t)(lrand48() & 0xFFFFFF), psn_b = (uint32_t)(lrand48() & 0xFFFFFF);
            connect_qp(qa[i], qb[i]->qp_num, &b->gid, psn_a, psn_b, PATH_MTU);
            connect_qp(qb[i], qa[i]->qp_num, &a->gid, psn_b, psn_a, PATH_MTU);
            per_pair[done + i] = now_ns() - t0;
            timed_ns += per_pair[done + i];
        }
        for (int i = 0; i < n; i++) {           /* not timed */
            if (ibv_destroy_qp(qa[i]) || ibv_destroy_qp(qb[i]))
                die("ibv_destroy_qp", errno);
        }
        done += n;
    }
    qsort(per_pair, (size_t)pairs, sizeof *per_pair, cmp_i64);
    printf("\nRC bring-up: create 2 QPs + RESET->INIT->RTR->RTS on both ends (destroy not timed)\n");
    printf("  %8s %10s %12s %10s %10s %10s\n", "pairs", "time_s", "pairs/s", "p50_us", "p99_us", "max_us");
    printf("  %8d %10.3f %12.0f %10.1f %10.1f %10.1f\n", pairs, (double)timed_ns / 1e9,
           (double)pairs / ((double)timed_ns / 1e9), pct_us(per_pair, (size_t)pairs, 0.50),
           pct_us(per_pair, (size_t)pairs, 0.99), (double)per_pair[pairs - 1] / 1000.0);
    free(per_pair);
}

static void post_recv(struct side *s, struct ibv_qp *qp, uint32_t len)
{
    struct ibv_sge sge = { .addr = (uintptr_t)s->buf, .length = len, .lkey = s->mr->lkey };
    struct ibv_recv_wr wr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1 }, *bad;
    int rc = ibv_post_recv(qp, &wr, &bad);
    if (rc)
        die("ibv_post_recv", rc);
}

static void post_send(struct side *s, struct ibv_qp *qp, uint32_t len)
{
    struct ibv_sge sge = { .addr = (uintptr_t)s->buf, .length = len, .lkey = s->mr->lkey };
    struct ibv_send_wr wr = { .wr_id = 2, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
                              .send_flags = IBV_SEND_SIGNALED }, *bad;
    int rc = ibv_post_send(qp, &wr, &bad);
    if (rc)
        die("ibv_post_send", rc);
}

/* Polls s's CQ until its receive completes (reaping send completions on the way). */
static void await_recv(struct side *s)
{
    int64_t deadline = now_ns() + OP_TIMEOUT_NS;
    struct ibv_wc wc[4];
    for (;;) {
        int n = ibv_poll_cq(s->cq, 4, wc);
        if (n < 0)
            die("ibv_poll_cq", EIO);
        int got_recv = 0;
        for (int i = 0; i < n; i++) {
            if (wc[i].status != IBV_WC_SUCCESS) {
                fprintf(stderr, "sv_bench: completion wr_id %llu: %s\n", (unsigned long long)wc[i].wr_id,
                        ibv_wc_status_str(wc[i].status));
                exit(1);
            }
            if (wc[i].opcode == IBV_WC_RECV)
                got_recv = 1;
        }
        if (got_recv)
            return;
        if (now_ns() > deadline) {
            fprintf(stderr, "sv_bench: no receive completion within %lld ms\n", OP_TIMEOUT_NS / 1000000);
            exit(1);
        }
    }
}

static void bench_latency(struct side *a, struct side *b, const uint32_t *sizes, int nsizes, int iters, int warmup,
                          int mtu_bytes)
{
    struct ibv_qp *qa = create_rc_qp(a), *qb = create_rc_qp(b);
    connect_qp(qa, qb->qp_num, &b->gid, 100, 200, mtu_enum(mtu_bytes));
    connect_qp(qb, qa->qp_num, &a->gid, 200, 100, mtu_enum(mtu_bytes));
    int64_t *rtt = calloc((size_t)iters, sizeof *rtt), *udp = calloc((size_t)iters, sizeof *udp);
    if (!rtt || !udp)
        die("calloc", ENOMEM);
    printf("\nSEND round trip at path MTU %d: A sends, B receives and sends back, A receives (RC, signaled,\n"
           "polling), against a UDP ping-pong of the same payload between the same addresses (one thread, polling)\n",
           mtu_bytes);
    printf("  %8s %8s %10s %10s %10s %10s %10s %10s %12s\n", "size_B", "iters", "p50_us", "p99_us", "mean_us",
           "udp_p50", "udp_p99", "udp_mean", "p50_vs_udp");
    for (int si = 0; si < nsizes; si++) {
        uint32_t size = sizes[si];
        int64_t sum = 0, usum = 0;
        for (int i = -warmup; i < iters; i++) {
            post_recv(a, qa, size);
            post_recv(b, qb, size);
            int64_t t0 = now_ns();
            post_send(a, qa, size);
            await_recv(b);
            post_send(b, qb, size);
            await_recv(a);
            int64_t dt = now_ns() - t0;
            if (i >= 0) {
                rtt[i] = dt;
                sum += dt;
            }
        }
        /* drain the last send completions so the next size starts clean */
        struct ibv_wc wc[4];
        for (int64_t end = now_ns() + 100000000LL; now_ns() < end;)
            if (ibv_poll_cq(a->cq, 4, wc) <= 0 && ibv_poll_cq(b->cq, 4, wc) <= 0)
                break;
        udp_pingpong(a->ip, b->ip, size, iters, warmup, udp);
        for (int i = 0; i < iters; i++)
            usum += udp[i];
        qsort(rtt, (size_t)iters, sizeof *rtt, cmp_i64);
        qsort(udp, (size_t)iters, sizeof *udp, cmp_i64);
        printf("  %8u %8d %10.1f %10.1f %10.1f %10.1f %10.1f %10.1f %11.2fx\n", size, iters,
               pct_us(rtt, (size_t)iters, 0.50), pct_us(rtt, (size_t)iters, 0.99), (double)sum / iters / 1000.0,
               pct_us(udp, (size_t)iters, 0.50), pct_us(udp, (size_t)iters, 0.99), (double)usum / iters / 1000.0,
               pct_us(rtt, (size_t)iters, 0.50) / pct_us(udp, (size_t)iters, 0.50));
    }
    free(rtt);
    free(udp);
    ibv_destroy_qp(qa);
    ibv_destroy_qp(qb);
}

struct bw_sender {
    struct side *s;
    struct ibv_qp *qp;
    atomic_bool stop;
};

/* Keeps BW_OUTSTANDING SENDs of BW_MSG bytes in flight until told to stop. */
static void *bw_send(void *arg)
{
    struct bw_sender *t = arg;
    int outstanding = 0;
    struct ibv_wc wc[16];
    while (!atomic_load(&t->stop) || outstanding > 0) {
        while (!atomic_load(&t->stop) && outstanding < BW_OUTSTANDING) {
            post_send(t->s, t->qp, BW_MSG);
            outstanding++;
        }
        int n = ibv_poll_cq(t->s->cq, 16, wc);
        for (int i = 0; i < n; i++) {
            if (wc[i].status != IBV_WC_SUCCESS) {
                fprintf(stderr, "sv_bench: bandwidth send: %s\n", ibv_wc_status_str(wc[i].status));
                exit(1);
            }
            outstanding--;
        }
    }
    return NULL;
}

static void bench_bandwidth(struct side *a, struct side *b, int ms)
{
    struct ibv_qp *qa = create_rc_qp(a), *qb = create_rc_qp(b);
    connect_qp(qa, qb->qp_num, &b->gid, 300, 400, PATH_MTU);
    connect_qp(qb, qa->qp_num, &a->gid, 400, 300, PATH_MTU);
    for (int i = 0; i < QP_DEPTH; i++)
        post_recv(b, qb, BW_MSG);
    struct bw_sender t = {.s = a, .qp = qa};
    pthread_t th;
    if (pthread_create(&th, NULL, bw_send, &t))
        die("pthread_create", EAGAIN);
    uint64_t bytes = 0, msgs = 0;
    int64_t first = 0, last = 0, end = now_ns() + (int64_t)ms * 1000000LL;
    struct ibv_wc wc[16];
    while (now_ns() < end) {
        int n = ibv_poll_cq(b->cq, 16, wc);
        for (int i = 0; i < n; i++) {
            if (wc[i].status != IBV_WC_SUCCESS) {
                fprintf(stderr, "sv_bench: bandwidth receive: %s\n", ibv_wc_status_str(wc[i].status));
                exit(1);
            }
            int64_t now = now_ns();
            if (msgs++)
                bytes += wc[i].byte_len;   /* the first one only starts the clock */
            else
                first = now;
            last = now;
            post_recv(b, qb, BW_MSG);
        }
    }
    atomic_store(&t.stop, true);
    pthread_join(th, NULL);
    double secs = (double)(last - first) / 1e9;
    double sv_pps = secs > 0 ? (double)bytes / BENCH_MTU / secs : 0;
    double udp_pps = udp_stream(a->ip, b->ip, BENCH_MTU + BENCH_ROCE_HDR, ms);
    printf("\nSEND bandwidth: %d-byte SENDs from A to B (%d in flight), against a UDP stream of %d-byte\n"
           "datagrams (one softverbs packet: path MTU %d + BTH + ICRC), sender and receiver threads\n",
           BW_MSG, BW_OUTSTANDING, BENCH_MTU + BENCH_ROCE_HDR, BENCH_MTU);
    printf("  %12s %12s %12s %12s %12s\n", "sv_MB/s", "sv_pkt/s", "udp_MB/s", "udp_pkt/s", "sv_vs_udp");
    printf("  %12.1f %12.0f %12.1f %12.0f %11.2fx\n", sv_pps * BENCH_MTU / 1e6, sv_pps,
           udp_pps * BENCH_MTU / 1e6, udp_pps, udp_pps > 0 ? sv_pps / udp_pps : 0);
    ibv_destroy_qp(qa);
    ibv_destroy_qp(qb);
}

/* The devices' loss and retry counters after the run: a clean run has no drops or retries. */
static void print_counters(struct side *s, const char *label)
{
    static const char *const shown[] = {"rcvd_sock_overflow", "send_err", "tx_sock_busy", "local_ack_timeout_err",
                                        "completer_retry_err", "rcvd_seq_err", "duplicate_request", "tx_wait"};
    const char *names[64];
    uint64_t values[64];
    int n = softverbs_query_counters(s->ctx, names, values, 64);
    printf("  %s:", label);
    for (size_t k = 0; k < sizeof shown / sizeof shown[0]; k++)
        for (int i = 0; i < n && i < 64; i++)
            if (!strcmp(names[i], shown[k]))
                printf(" %s=%llu", shown[k], (unsigned long long)values[i]);
    printf("\n");
}

static int parse_sizes(const char *arg, uint32_t *sizes, int max)
{
    int n = 0;
    char *copy = strdup(arg), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok && n < max; tok = strtok_r(NULL, ",", &save)) {
        char *end;
        unsigned long v = strtoul(tok, &end, 10);
        if (*end || v == 0 || v > MAX_MSG) {
            free(copy);
            return -1;
        }
        sizes[n++] = (uint32_t)v;
    }
    free(copy);
    return n;
}

int main(int argc, char **argv)
{
    int pairs = 2000, iters = 10000, warmup = 1000, bw_ms = 2000, mtu = 1024, opt;
    uint32_t sizes[8] = { 8, 64, 1024, 4096 };
    int nsizes = 4;
    while ((opt = getopt(argc, argv, "p:n:w:s:t:m:")) != -1) {
        switch (opt) {
        case 'p': pairs = atoi(optarg); break;
        case 'n': iters = atoi(optarg); break;
        case 'w': warmup = atoi(optarg); break;
        case 's': nsizes = parse_sizes(optarg, sizes, 8); break;
        case 't': bw_ms = atoi(optarg); break;
        case 'm': mtu = atoi(optarg); break;
        default: nsizes = -1; break;
        }
    }
    if (pairs < 1 || pairs > 1000000 || iters < 1 || iters > 10000000 || warmup < 0 || nsizes < 1 ||
        bw_ms < 100 || bw_ms > 600000 || (mtu != 256 && mtu != 512 && mtu != 1024 && mtu != 2048 && mtu != 4096)) {
        fprintf(stderr, "usage: sv_bench [-p pairs 1..1e6] [-n iterations 1..1e7] [-w warmup] "
                        "[-s size[,size...] each 1..%d] [-t bandwidth_ms 100..600000] "
                        "[-m round-trip path MTU 256|512|1024|2048|4096]\n", MAX_MSG);
        return 2;
    }
    const char *env = getenv("SOFTVERBS_DEVICES");
    if (!env || !*env) {
        char spec[128];
        unsigned pid = (unsigned)getpid();
        const char *link = mtu > 1024 ? ":mtu=9000" : "";   /* the default link carries path MTU 1024 */
        snprintf(spec, sizeof spec, "bencha@127.%u.%u.1%s,benchb@127.%u.%u.2%s", 1 + (pid >> 8) % 254, pid & 0xFF,
                 link, 1 + (pid >> 8) % 254, pid & 0xFF, link);
        if (softverbs_configure(spec) != 0) {
            fprintf(stderr, "sv_bench: softverbs_configure: %s\n", softverbs_last_error());
            return 2;
        }
    }
    int ndev = 0;
    struct ibv_device **devs = ibv_get_device_list(&ndev);
    if (!devs || ndev < 2) {
        fprintf(stderr, "sv_bench: need two softverbs devices, found %d (%s)\n", ndev,
                devs ? "check SOFTVERBS_DEVICES" : strerror(errno));
        return 2;
    }
    struct side a = { 0 }, b = { 0 };
    open_side(devs[0], &a);
    open_side(devs[1], &b);
    srand48(4791);
    printf("softverbs bench: devices %s (%s) and %s (%s), path MTU 1024 (round trip: %d), GID index %d\n",
           ibv_get_device_name(devs[0]), a.ip, ibv_get_device_name(devs[1]), b.ip, mtu, GID_INDEX);
    bench_bringup(&a, &b, pairs);
    bench_latency(&a, &b, sizes, nsizes, iters, warmup, mtu);
    bench_bandwidth(&a, &b, bw_ms);
    printf("\nDevice counters after the run\n");
    print_counters(&a, "A");
    print_counters(&b, "B");
    close_side(&a);
    close_side(&b);
    ibv_free_device_list(devs);
    return 0;
}
