/*
 * Cost of one recorded data-path call in the tracing libibverbs.
 *
 *   tracer_bench bare   LIB          LIB is softverbs: the post_send without the tracer
 *   tracer_bench traced TRACER REAL  TRACER in front of REAL, recording into a ring this process drains
 *
 * The call is ibv_post_send of one WR with one SGE on a QP still in RESET: softverbs refuses it
 * at once (EINVAL), so the time is the verb's dispatch plus, traced, the tracer's full record of it
 * (timestamps, ring reservation, the WR and SGE blocks). Batches of 1000 calls are timed; the
 * median and 90th percentile of the per-call time over the batches are printed. A thread drains
 * the ring as `record` would (without decoding), and the ring is sized so nothing is dropped.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include "tr_ring.h"

#define BATCH 1000
#define BATCHES 1000

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static char ring_dir[256];
static atomic_int stop;

/* The reader's side, minimal: consume whatever the writer published. */
static void *drainer(void *arg)
{
    (void)arg;
    struct tr_ring_header *h = NULL;
    size_t bytes = 0;
    while (!atomic_load(&stop)) {
        if (h == NULL) {
            DIR *d = opendir(ring_dir);
            struct dirent *e;
            while (d != NULL && (e = readdir(d)) != NULL) {
                if (strncmp(e->d_name, "ring.", 5) == 0) {
                    char p[512];
                    snprintf(p, sizeof p, "%s/%s", ring_dir, e->d_name);
                    int fd = open(p, O_RDWR);
                    struct stat st;
                    if (fd >= 0 && fstat(fd, &st) == 0) {
                        bytes = (size_t)st.st_size;
                        void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
                        h = m == MAP_FAILED ? NULL : m;
                    }
                    if (fd >= 0) {
                        close(fd);
                    }
                }
            }
            if (d != NULL) {
                closedir(d);
            }
            continue;
        }
        for (unsigned i = 0; i < h->subrings; i++) {
            struct tr_sub *s = (struct tr_sub *)((char *)h + h->sub_offset + i * h->sub_stride);
            uint64_t head = atomic_load_explicit((_Atomic uint64_t *)&s->head, memory_order_acquire);
            atomic_store_explicit((_Atomic uint64_t *)&s->tail, head, memory_order_release);
        }
        /* a pass every 2 ms, as record's drain: a reader spinning on the head and tail took their
         * cache lines from the writer on every call (131 ns per recorded call against 83 with the pause, on a 2-core VM) */
        nanosleep(&(struct timespec){.tv_nsec = 2000000}, NULL);
    }
    if (h != NULL) {
        printf("dropped records: %llu\n", (unsigned long long)h->dropped);
        munmap(h, bytes);
    }
    return NULL;
}

#define SYM(h, name) ((__typeof__(&name))dlvsym(h, #name, "IBVERBS_1.1"))

int main(int argc, char **argv)
{
    if (argc < 3 || (strcmp(argv[1], "bare") != 0 && strcmp(argv[1], "traced") != 0)
        || (strcmp(argv[1], "traced") == 0 && argc < 4)) {
        fprintf(stderr, "usage: tracer_bench bare SOFTVERBS_LIB | tracer_bench traced TRACER_LIB REAL_LIB\n");
        return 2;
    }
    int traced = strcmp(argv[1], "traced") == 0;
    pthread_t drain;
    if (traced) {
        /* in memory, where record puts its rings: a ring on a disk file system's page cache cost
         * each recorded call ~300 ns more (an ext4 /tmp) */
        snprintf(ring_dir, sizeof ring_dir, "%s/tracer-bench-XXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
        if (mkdtemp(ring_dir) == NULL) {
            perror("mkdtemp");
            return 1;
        }
        setenv("RDMATRACE_REAL_VERBS", argv[3], 1);
        setenv("RDMATRACE_RING_DIR", ring_dir, 1);
        /* room for every record even if the drainer thread gets no CPU: a full ring would time the drop path */
        setenv("RDMATRACE_RING_MB", "512", 0);
        pthread_create(&drain, NULL, drainer, NULL);
    }
    void *h = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        fprintf(stderr, "tracer_bench: %s\n", dlerror());
        return 1;
    }
    int n = 0;
    struct ibv_device **list = SYM(h, ibv_get_device_list)(&n);
    if (list == NULL || n < 1) {
        fprintf(stderr, "tracer_bench: no device (set SOFTVERBS_DEVICES=name@127.x.y.z)\n");
        return 1;
    }
    struct ibv_context *ctx = SYM(h, ibv_open_device)(list[0]);
    struct ibv_pd *pd = SYM(h, ibv_alloc_pd)(ctx);
    struct ibv_cq *cq = SYM(h, ibv_create_cq)(ctx, 16, NULL, NULL, 0);
    struct ibv_qp_init_attr init = {.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
                                    .cap = {.max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 1, .max_recv_sge = 1}};
    struct ibv_qp *qp = SYM(h, ibv_create_qp)(pd, &init);
    static char buf[64];
    struct ibv_mr *mr = SYM(h, ibv_reg_mr)(pd, buf, sizeof buf, IBV_ACCESS_LOCAL_WRITE);
    if (qp == NULL || mr == NULL) {
        fprintf(stderr, "tracer_bench: setup failed\n");
        return 1;
    }
    struct ibv_sge sge = {.addr = (uintptr_t)buf, .length = sizeof buf, .lkey = mr->lkey};
    struct ibv_send_wr wr = {.wr_id = 1, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
                             .send_flags = IBV_SEND_SIGNALED};
    static int64_t per_call[BATCHES];
    for (int b = -100; b < BATCHES; b++) {   /* 100 warm-up batches */
        int64_t t0 = now_ns();
        for (int i = 0; i < BATCH; i++) {
            struct ibv_send_wr *bad;
            ibv_post_send(qp, &wr, &bad);
        }
        int64_t t1 = now_ns();
        if (b >= 0) {
            per_call[b] = t1 - t0;
        }
    }
    qsort(per_call, BATCHES, sizeof per_call[0], cmp64);
    printf("%s: ibv_post_send (1 WR, 1 SGE, refused in RESET) p50 %.1f ns  p90 %.1f ns per call\n",
           traced ? "traced" : "bare", per_call[BATCHES / 2] / (double)BATCH, per_call[BATCHES * 9 / 10] / (double)BATCH);
    if (traced) {
        atomic_store(&stop, 1);
        pthread_join(drain, NULL);
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf %s", ring_dir);
        if (system(cmd) != 0) {
            fprintf(stderr, "tracer_bench: could not remove %s\n", ring_dir);
        }
    }
    return 0;
}
