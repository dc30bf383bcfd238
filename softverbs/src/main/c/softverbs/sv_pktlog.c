/* The packet log (sv_pktlog.h): one memory-mapped file per device, written lock-free. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "softverbs.h"
#include "sv_loc.h"
#include "sv_pktlog.h"

#define SV_PKTLOG_PATH_MAX 4096

struct sv_pktlog {
    struct sv_pktlog_header *hdr;
    struct sv_pktlog_rec *recs;
    size_t map_len;
};

static pthread_mutex_t g_dir_lock = PTHREAD_MUTEX_INITIALIZER;
static char g_dir[SV_PKTLOG_PATH_MAX];   /* softverbs_wire's; empty: the environment decides */
static _Thread_local char t_dir[SV_PKTLOG_PATH_MAX];
static _Thread_local struct sv_pktlog_cur *t_cur;

int softverbs_wire(const char *dir)
{
    if (dir && (!*dir || strlen(dir) >= SV_PKTLOG_PATH_MAX - 64)) {
        errno = EINVAL;
        sv_error_set("softverbs_wire: the directory name is empty or too long");
        return EINVAL;
    }
    pthread_mutex_lock(&g_dir_lock);
    snprintf(g_dir, sizeof g_dir, "%s", dir ? dir : "");
    pthread_mutex_unlock(&g_dir_lock);
    return 0;
}

const char *sv_pktlog_dir(void)
{
    pthread_mutex_lock(&g_dir_lock);
    memcpy(t_dir, g_dir, sizeof t_dir);
    pthread_mutex_unlock(&g_dir_lock);
    if (t_dir[0])
        return t_dir;
    const char *env = getenv("SOFTVERBS_WIRE");
    return env && *env ? env : NULL;
}

static uint64_t clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct sv_pktlog *sv_pktlog_open(uint32_t ip_be)
{
    const char *dir = sv_pktlog_dir();
    if (!dir)
        return NULL;
    char ip[INET_ADDRSTRLEN], path[SV_PKTLOG_PATH_MAX + 64];
    inet_ntop(AF_INET, &ip_be, ip, sizeof ip);
    snprintf(path, sizeof path, "%s/softverbs-%s-%ld.wire", dir, ip, (long)getpid());
    size_t header_len = (sizeof(struct sv_pktlog_header) + SV_CNT__COUNT * SV_PKTLOG_NAME_LEN + 63) & ~(size_t)63;
    size_t map_len = header_len + (size_t)SV_PKTLOG_CAPACITY * sizeof(struct sv_pktlog_rec);
    struct sv_pktlog *log = calloc(1, sizeof *log);
    int fd = log ? open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : -1;
    void *map = MAP_FAILED;
    if (fd >= 0 && ftruncate(fd, (off_t)map_len) == 0)
        map = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    int e = errno;
    if (fd >= 0)
        close(fd);
    if (map == MAP_FAILED) {
        fprintf(stderr, "softverbs %s: no packet log: %s: %s\n", ip, path, strerror(e));
        free(log);
        return NULL;
    }
    log->hdr = map;
    log->recs = (struct sv_pktlog_rec *)((char *)map + header_len);
    log->map_len = map_len;
    struct sv_pktlog_header *h = log->hdr;
    h->header_len = (uint32_t)header_len;
    h->record_len = sizeof(struct sv_pktlog_rec);
    h->capacity = SV_PKTLOG_CAPACITY;
    h->ip_be = ip_be;
    h->reason_count = SV_CNT__COUNT;
    h->reason_name_len = SV_PKTLOG_NAME_LEN;
    h->mono_ns_at_open = clock_ns(CLOCK_MONOTONIC);
    h->real_ns_at_open = clock_ns(CLOCK_REALTIME);
    char *names = (char *)(h + 1);
    for (int c = 0; c < SV_CNT__COUNT; c++)
        strncpy(names + (size_t)c * SV_PKTLOG_NAME_LEN, sv_counter_name[c], SV_PKTLOG_NAME_LEN - 1);
    atomic_store(&h->next, 0);
    memcpy(h->magic, SV_PKTLOG_MAGIC, sizeof h->magic);   /* last: a reader sees a whole header */
    return log;
}

void sv_pktlog_close(struct sv_pktlog *log)
{
    if (!log)
        return;
    msync(log->hdr, log->map_len, MS_ASYNC);
    munmap(log->hdr, log->map_len);
    free(log);
}

/* The BTH (and AETH) fields of a UDP payload, as far as its bytes go. */
static void fill(struct sv_pktlog_rec *r, enum sv_pktlog_dir dir, uint32_t peer_ip_be, const uint8_t *buf, size_t len,
                 size_t avail)
{
    memset(r, 0, sizeof *r);
    r->mono_ns = sv_now_ns();
    r->dir = (uint8_t)dir;
    r->reason = 0xff;
    r->peer_ip_be = peer_ip_be;
    r->ip_len = (uint16_t)(len + SV_IPV4_UDP_HDRS > 0xffff ? 0xffff : len + SV_IPV4_UDP_HDRS);
    if (!buf || avail < SV_BTH_LEN || avail > len)
        return;
    r->opcode = buf[0];
    r->dest_qpn = (uint32_t)buf[5] << 16 | (uint32_t)buf[6] << 8 | buf[7];
    r->psn = (uint32_t)buf[9] << 16 | (uint32_t)buf[10] << 8 | buf[11];
    if (buf[8] & 0x80)
        r->flags |= SV_PKTLOG_F_ACKREQ;
    const struct sv_opcode_info *info = sv_opcode_info(buf[0]);
    if (!info || avail < len || len < (size_t)info->hdr_len + SV_ICRC_LEN)
        return;
    if (sv_mask_has(info->mask, SV_HDR_AETH)) {
        r->flags |= SV_PKTLOG_F_AETH;
        r->syndrome = buf[info->off_aeth];
    }
    size_t pad = (buf[1] >> 4) & 3;
    size_t after = len - info->hdr_len - SV_ICRC_LEN;
    r->payload_len = (uint16_t)(after >= pad ? after - pad : 0);
    r->flags |= SV_PKTLOG_F_DECODED;
}

static void put(struct sv_pktlog *log, const struct sv_pktlog_rec *r)
{
    uint64_t i = atomic_fetch_add_explicit(&log->hdr->next, 1, memory_order_relaxed);
    if (i < log->hdr->capacity)
        memcpy(&log->recs[i], r, sizeof *r);
}

void sv_pktlog_raw(struct sv_pktlog *log, enum sv_pktlog_dir dir, uint32_t peer_ip_be, const uint8_t *buf, size_t len)
{
    if (!log)
        return;
    struct sv_pktlog_rec r;
    fill(&r, dir, peer_ip_be, buf, len, len);
    put(log, &r);
}

void sv_pktlog_push(struct sv_pktlog_cur *cur, uint32_t peer_ip_be, const uint8_t *buf, size_t len, size_t avail)
{
    *cur = (struct sv_pktlog_cur){.prev = t_cur, .peer_ip_be = peer_ip_be, .buf = buf, .len = len, .avail = avail};
    t_cur = cur;
}

void sv_pktlog_pop(struct sv_pktlog_cur *cur)
{
    t_cur = cur->prev;
}

/* Counters that mean the packet went no further. */
static bool is_drop(enum sv_counter c)
{
    switch (c) {
    case SV_CNT_RCVD_LINK_MTU_DROP: case SV_CNT_SENT_LINK_MTU_DROP: case SV_CNT_RCVD_BAD_ICRC:
    case SV_CNT_RCVD_MALFORMED: case SV_CNT_RCVD_UNKNOWN_QPN: case SV_CNT_RCVD_DROPPED: case SV_CNT_BAD_PKEY:
    case SV_CNT_QKEY_VIOLATION: case SV_CNT_OUT_OF_SEQ_REQUEST: case SV_CNT_SEND_ERR:
        return true;
    default:
        return false;
    }
}

void sv_pktlog_note(struct sv_pktlog *log, enum sv_counter c)
{
    if (!log || !t_cur || c < 0 || c >= SV_CNT__COUNT)
        return;
    struct sv_pktlog_rec r;
    fill(&r, is_drop(c) ? SV_PKT_DROPPED : SV_PKT_NOTED, t_cur->peer_ip_be, t_cur->buf, t_cur->len, t_cur->avail);
    r.reason = (uint8_t)c;
    put(log, &r);
}

void sv_pktlog_received(struct sv_pktlog *log)
{
    if (!log || !t_cur)
        return;
    struct sv_pktlog_rec r;
    fill(&r, SV_PKT_RECEIVED, t_cur->peer_ip_be, t_cur->buf, t_cur->len, t_cur->avail);
    put(log, &r);
}
