/* The ring writer: one mapped file per process, one sub-ring per writing thread (tr_ring.h). */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tr_loc.h"

_Static_assert(sizeof(struct tr_sub) == TR_SUB_CONTROL_BYTES, "sub-ring control block is 192 bytes");
_Static_assert(offsetof(struct tr_ring_header, real_lib) == 128, "ring header layout (Java mirrors it)");
_Static_assert(offsetof(struct tr_ring_header, names) == 12928, "ring header layout (Java mirrors it)");
_Static_assert(sizeof(struct tr_ring_header) <= TR_SUB_OFFSET, "ring header fits before sub-ring 0");

int tr_recording;

static struct tr_ring_header *ring;
static size_t ring_bytes;
static char ring_dir[512];
static char ring_real[512];
static atomic_uint ring_generation = 1;
static pthread_mutex_t ring_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t release_key;
static int ring_prefault = 1;   /* RDMATRACE_PREFAULT=0 turns it off (to measure what it saves) */

/* This thread's sub-ring, valid while gen == ring_generation. */
struct tr_thread {
    struct tr_sub *sub;
    int64_t *data;
    uint64_t mask;
    int64_t tid;
    unsigned gen;
    int refused;
};
static __thread struct tr_thread self;

static struct tr_sub *sub_at(unsigned i)
{
    return (struct tr_sub *)((char *)ring + ring->sub_offset + (size_t)i * ring->sub_stride);
}

/* Frees the thread's sub-ring when it exits; records already written stay for the reader. */
static void release_sub(void *p)
{
    struct tr_sub *sub = p;
    if (sub != NULL && self.gen == atomic_load(&ring_generation)) {
        atomic_store_explicit((_Atomic uint64_t *)&sub->owner, 0, memory_order_release);
    }
}

/*
 * Maps the whole sub-ring in before the thread's first record. A first write to a page of the
 * shared file faults (tmpfs allocates and zeroes it); in a virtual machine each fault costs tens of
 * microseconds, paid on the program's data path every 512 records. Prefaulting once per sub-ring
 * moves that cost to the thread's first verbs call. MADV_POPULATE_WRITE (Linux 5.14) changes no
 * byte; where it is missing, each page is written with an atomic OR of 0, which keeps records a
 * previous owner left for the reader intact.
 */
static void prefault_sub(struct tr_sub *sub, uint64_t bytes)
{
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0) {
        page = 4096;
    }
    uintptr_t start = (uintptr_t)sub & ~(uintptr_t)(page - 1);
    uintptr_t end = (uintptr_t)sub + TR_SUB_CONTROL_BYTES + bytes;
#ifdef MADV_POPULATE_WRITE
    if (madvise((void *)start, end - start, MADV_POPULATE_WRITE) == 0) {
        return;
    }
#endif
    for (uintptr_t a = start; a < end; a += (uintptr_t)page) {
        atomic_fetch_or_explicit((_Atomic uint64_t *)a, 0, memory_order_relaxed);
    }
}

static int claim_sub(void)
{
    unsigned gen = atomic_load_explicit(&ring_generation, memory_order_acquire);
    self.sub = NULL;
    self.gen = gen;
    self.tid = (int64_t)syscall(SYS_gettid);
    if (ring == NULL) {
        return 0;
    }
    for (unsigned i = 0; i < ring->subrings; i++) {
        struct tr_sub *sub = sub_at(i);
        uint64_t expected = 0;
        if (atomic_compare_exchange_strong((_Atomic uint64_t *)&sub->owner, &expected, (uint64_t)self.tid)) {
            self.sub = sub;
            self.data = (int64_t *)((char *)sub + TR_SUB_CONTROL_BYTES);
            self.mask = ring->sub_slots - 1;
            pthread_setspecific(release_key, sub);
            if (ring_prefault) {
                prefault_sub(sub, ring->sub_slots * 8);
            }
            return 1;
        }
    }
    if (!self.refused) {
        self.refused = 1;
        atomic_fetch_add((_Atomic uint64_t *)&ring->threads_refused, 1);
    }
    return 0;
}

int64_t *tr_reserve(uint32_t nslots)
{
    if (!tr_recording) {
        return NULL;
    }
    if (tr_empty_pending) {
        tr_poll_flush();   /* keeps the thread's records in call order */
    }
    if (self.gen != atomic_load_explicit(&ring_generation, memory_order_relaxed) || self.sub == NULL) {
        if (self.gen == atomic_load(&ring_generation) && self.sub == NULL && self.refused) {
            atomic_fetch_add_explicit((_Atomic uint64_t *)&ring->dropped, 1, memory_order_relaxed);
            return NULL;
        }
        if (!claim_sub()) {
            if (ring != NULL) {
                atomic_fetch_add_explicit((_Atomic uint64_t *)&ring->dropped, 1, memory_order_relaxed);
            }
            return NULL;
        }
    }
    struct tr_sub *sub = self.sub;
    uint64_t cap = self.mask + 1;
    if (nslots == 0 || nslots > cap / 2) {
        atomic_fetch_add_explicit((_Atomic uint64_t *)&ring->dropped, 1, memory_order_relaxed);
        return NULL;
    }
    uint64_t head = sub->head; /* only this thread writes it */
    uint64_t tail = atomic_load_explicit((_Atomic uint64_t *)&sub->tail, memory_order_acquire);
    uint64_t pos = head & self.mask;
    uint64_t room_to_end = cap - pos;
    uint64_t pad = nslots > room_to_end ? room_to_end : 0;
    if (head + pad + nslots - tail > cap) {
        atomic_fetch_add_explicit((_Atomic uint64_t *)&ring->dropped, 1, memory_order_relaxed);
        return NULL;
    }
    if (pad != 0) {
        self.data[pos] = (int64_t)((uint64_t)TR_PAD | (pad << 32));
        atomic_store_explicit((_Atomic uint64_t *)&sub->head, head + pad, memory_order_release);
        head += pad;
        pos = 0;
    }
    return &self.data[pos];
}

void tr_commit(int64_t *rec, uint32_t nslots)
{
    rec[RH_TID] = self.tid;
    struct tr_sub *sub = self.sub;
    atomic_store_explicit((_Atomic uint64_t *)&sub->head, sub->head + nslots, memory_order_release);
}

/* "NAME:A,B,C;" for one slot list. */
#define NAME_(n) #n ","
static const char layout_text[] =
    "STATUS:" STATUS_SLOTS(NAME_) ";DEVICE_ATTR:" DEVICE_ATTR_SLOTS(NAME_) ";PORT_ATTR:" PORT_ATTR_SLOTS(NAME_)
    ";GID_ENTRY:" GID_ENTRY_SLOTS(NAME_) ";AH_ATTR:" AH_ATTR_SLOTS(NAME_) ";QP_ATTR:" QP_ATTR_SLOTS(NAME_)
    ";QP_INIT:" QP_INIT_SLOTS(NAME_) ";ASYNC_EVENT:" ASYNC_EVENT_SLOTS(NAME_) ";SEND_WR:" SEND_WR_SLOTS(NAME_)
    ";RECV_WR:" RECV_WR_SLOTS(NAME_) ";SGE:" SGE_SLOTS(NAME_) ";WC:" WC_SLOTS(NAME_)
    ";RING_HEADER:" RING_HEADER_SLOTS(NAME_) ";KIND:" TR_KIND_LIST(NAME_) ";TEXT:" TEXT_SLOTS(NAME_)
    ";DEVICE_INFO:" DEVICE_INFO_SLOTS(NAME_) ";PORT:" PORT_SLOTS(NAME_) ";CREATE_QP:" CREATE_QP_SLOTS(NAME_)
    ";QP:" QP_SLOTS(NAME_) ";POST:" POST_SLOTS(NAME_) ";POLL:" POLL_SLOTS(NAME_) ";AH:" AH_SLOTS(NAME_)
    ";ARGS:" ARGS_SLOTS(NAME_) ";CM_FUNC:" CM_FUNC_LIST(NAME_) ";CM_CALL:" CM_CALL_SLOTS(NAME_)
    ";CM_EVENT:" CM_EVENT_SLOTS(NAME_) ";CM_PDATA:" CM_PDATA_SLOTS(NAME_) ";";
_Static_assert(sizeof(layout_text) <= TR_NAMES_BYTES, "slot names fit in the ring header");

static const char *const steering_prefixes[] = {
    "NCCL_", "UCX_", "MLX5_", "RDMAV_", "IBV_", "SOFTVERBS_", "MLX4_", "HFI1_", "EFA_", "OMPI_MCA_btl",
    "OMPI_MCA_pml", "I_MPI_FABRICS", "FI_", "RXE_", NULL,
};

static void copy_cmdline(char *dst, size_t cap)
{
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return;
    }
    ssize_t n = read(fd, dst, cap - 2);
    close(fd);
    if (n > 0) {
        dst[n] = '\0';
        dst[n + 1] = '\0';
    }
}

static void copy_env(char *dst, size_t cap)
{
    extern char **environ;
    size_t used = 0;
    for (char **e = environ; e != NULL && *e != NULL; e++) {
        for (int p = 0; steering_prefixes[p] != NULL; p++) {
            size_t pl = strlen(steering_prefixes[p]);
            if (strncmp(*e, steering_prefixes[p], pl) == 0) {
                size_t len = strlen(*e) + 1;
                if (used + len + 1 < cap) {
                    memcpy(dst + used, *e, len);
                    used += len;
                }
                break;
            }
        }
    }
    dst[used] = '\0';
}

static int ring_create(void)
{
    const char *mb_text = getenv(TR_ENV_RING_MB);
    long mb = mb_text != NULL ? strtol(mb_text, NULL, 10) : 4;
    if (mb < 1 || mb > 1024) {
        mb = 4;
    }
    uint64_t sub_slots = (uint64_t)mb * 1024 * 1024 / 8;
    uint64_t stride = TR_SUB_CONTROL_BYTES + sub_slots * 8;
    size_t bytes = TR_SUB_OFFSET + (size_t)TR_SUBRINGS * stride;
    char path[640];
    int fd = -1;
    for (int n = 0; n < 100 && fd < 0; n++) {
        /* ring.<pid>.<n>: an exec keeps the pid, so a second image of it takes the next number */
        snprintf(path, sizeof path, "%s/ring.%d.%d", ring_dir, (int)getpid(), n);
        fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0 && errno != EEXIST) {
            break;
        }
    }
    if (fd < 0) {
        return -1;
    }
    if (ftruncate(fd, (off_t)bytes) != 0) {
        close(fd);
        unlink(path);
        return -1;
    }
    void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED) {
        unlink(path);
        return -1;
    }
    struct tr_ring_header *h = m;
    h->version = TR_RING_VERSION;
    h->subrings = TR_SUBRINGS;
    h->sub_slots = sub_slots;
    h->sub_offset = TR_SUB_OFFSET;
    h->sub_stride = stride;
    h->pid = (uint64_t)getpid();
    const char *pf = getenv(TR_ENV_PREFAULT);
    ring_prefault = pf == NULL || strcmp(pf, "0") != 0;
    const char *mode = getenv(TR_ENV_SUMMARY);
    h->data_path_summary = mode != NULL && strcmp(mode, "summary") == 0;
    struct timespec mono, wall;
    clock_gettime(CLOCK_MONOTONIC, &mono);
    clock_gettime(CLOCK_REALTIME, &wall);
    h->mono_at_open = (uint64_t)mono.tv_sec * 1000000000ULL + (uint64_t)mono.tv_nsec;
    h->wall_at_open = (uint64_t)wall.tv_sec * 1000000000ULL + (uint64_t)wall.tv_nsec;
    snprintf(h->real_lib, sizeof h->real_lib, "%s", ring_real);
    copy_cmdline(h->cmdline, sizeof h->cmdline);
    copy_env(h->env, sizeof h->env);
    memcpy(h->names, layout_text, sizeof layout_text);
    /* the magic last: a reader that sees it sees a complete header */
    atomic_store_explicit((_Atomic uint64_t *)&h->magic, TR_RING_MAGIC, memory_order_release);
    ring = h;
    ring_bytes = bytes;
    return 0;
}

int tr_ring_open(const char *dir, const char *real_lib)
{
    if (dir == NULL || dir[0] == '\0' || strlen(dir) >= sizeof ring_dir) {
        return -1;
    }
    snprintf(ring_dir, sizeof ring_dir, "%s", dir);
    snprintf(ring_real, sizeof ring_real, "%s", real_lib != NULL ? real_lib : "");
    pthread_key_create(&release_key, release_sub);
    if (ring_create() != 0) {
        return -1;
    }
    tr_recording = 1;
    return 0;
}

/* In a forked child: the parent's ring is not ours; open a ring of our own for this pid. */
void tr_ring_after_fork(void)
{
    if (ring == NULL) {
        return;
    }
    pthread_mutex_init(&ring_lock, NULL);
    munmap(ring, ring_bytes);
    ring = NULL;
    tr_recording = 0;
    atomic_fetch_add(&ring_generation, 1);
    if (ring_create() == 0) {
        tr_recording = 1;
    }
}

void tr_ring_close(void)
{
    pthread_mutex_lock(&ring_lock);
    if (ring != NULL) {
        tr_poll_flush();
        atomic_store_explicit((_Atomic uint64_t *)&ring->closed, 1, memory_order_release);
    }
    pthread_mutex_unlock(&ring_lock);
}

void tr_args(enum tr_kind kind, int64_t t0, int64_t dur, const void *handle, int64_t ret, int err, int nargs,
             const int64_t *args)
{
    uint32_t n = TR_PAYLOAD + ARG_NSLOTS;
    int64_t *r = tr_reserve(n);
    if (r == NULL) {
        return;
    }
    tr_head(r, kind, 0, n, t0, handle, ret, err, dur);
    for (int i = 0; i < ARG_NSLOTS; i++) {
        r[TR_PAYLOAD + i] = i < nargs ? args[i] : 0;
    }
    tr_commit(r, n);
}

void tr_text(int64_t *slots, const char *text)
{
    char *dst = (char *)slots;
    memset(dst, 0, TX_NSLOTS * 8);
    if (text != NULL) {
        strncpy(dst, text, TX_NSLOTS * 8 - 1);
    }
}

/* The ring for the tracing librdmacm (tracer/cm/), exported in RDMATRACE_PRIVATE_1.0: the CM's
 * records go into the same per-thread sub-rings as the verbs', so one trace keeps their order. */
int64_t *rdmatrace_ring_reserve(uint32_t nslots)
{
    return tr_reserve(nslots);
}

void rdmatrace_ring_commit(int64_t *rec, uint32_t nslots)
{
    if (rec != NULL) {
        tr_commit(rec, nslots);
    }
}
