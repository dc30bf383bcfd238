/* The devices of this process: every softverbs device that opens here (one whose address another
 * process holds is skipped: it is that "host's" device). Each gets the MAD handler on its QP1;
 * a timer thread runs the CM's retransmissions and timewait. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cm_loc.h"
#include "softverbs.h"

struct cm_global g_cm = {.lock = PTHREAD_MUTEX_INITIALIZER};
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static bool g_log_on;

uint64_t cm_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void cm_count(enum cm_counter c)
{
    atomic_fetch_add_explicit(&g_cm.counters[c], 1, memory_order_relaxed);
}

static void vlog(const struct cm_dev *dev, const char *tag, const char *fmt, va_list ap)
{
    char ip[INET_ADDRSTRLEN] = "-";
    if (dev)
        inet_ntop(AF_INET, &dev->ip_be, ip, sizeof ip);
    char msg[384];
    vsnprintf(msg, sizeof msg, fmt, ap);
    fprintf(stderr, "softverbs-cm %s [%s] %s\n", ip, tag, msg);
}

void cm_log(const struct cm_dev *dev, const char *tag, const char *fmt, ...)
{
    if (!g_log_on)
        return;
    va_list ap;
    va_start(ap, fmt);
    vlog(dev, tag, fmt, ap);
    va_end(ap);
}

static const char *const g_counter_names[] = {
#define CM_COUNTER_NAME(name, text) text,
    CM_COUNTER_LIST(CM_COUNTER_NAME)
#undef CM_COUNTER_NAME
};

void cm_note(const struct cm_dev *dev, enum cm_counter c, const char *fmt, ...)
{
    cm_count(c);
    if (!g_log_on)
        return;
    va_list ap;
    va_start(ap, fmt);
    vlog(dev, g_counter_names[c], fmt, ap);
    va_end(ap);
}

/* softverbs extra: the CM's counters (names are static strings); returns their number */
__attribute__((visibility("default")))
int softverbs_cm_query_counters(const char **names, uint64_t *values, int max)
{
    int n = CM_CNT__COUNT;
    for (int i = 0; i < n && i < max && names && values; i++) {
        names[i] = g_counter_names[i];
        values[i] = atomic_load_explicit(&g_cm.counters[i], memory_order_relaxed);
    }
    return n;
}

void cm_send(struct cm_dev *dev, uint32_t dst_ip_be, const struct cm_msg *m)
{
    uint8_t mad[CM_MAD_LEN];
    if (cm_mad_encode(m, mad) != 0)
        return;
    if (softverbs_gsi_send(dev->verbs, dst_ip_be, mad, sizeof mad) == 0)
        cm_count(CM_CNT_MADS_SENT);
    char ip[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &dst_ip_be, ip, sizeof ip);
    cm_log(dev, "send", "%s to %s comm 0x%08x/0x%08x", cm_attr_name(m->attr), ip, m->local_comm_id,
           m->remote_comm_id);
}

void cm_mad_recv(void *arg, const void *mad, size_t len, uint32_t src_ip_be, uint32_t src_qpn)
{
    struct cm_dev *dev = arg;
    struct cm_msg m;
    int err = cm_mad_decode(mad, len, &m);
    if (err) {
        cm_note(dev, CM_CNT_MADS_MALFORMED, "%zu-byte MAD refused: %s", len, cm_mad_err_text(err));
        return;
    }
    if (src_qpn != 1) {
        cm_note(dev, CM_CNT_MADS_MALFORMED, "%s from QP 0x%x, not QP1", cm_attr_name(m.attr), src_qpn);
        return;
    }
    cm_count(CM_CNT_MADS_RCVD);
    pthread_mutex_lock(&g_cm.lock);
    cm_conn_handle(dev, &m, src_ip_be);
    pthread_mutex_unlock(&g_cm.lock);
}

static void *timer_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&g_cm.lock);
    for (;;) {
        uint64_t next = cm_conn_timers(cm_now_ms());
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        uint64_t wait_ms = next ? (next > cm_now_ms() ? next - cm_now_ms() : 0) : 1000;
        if (wait_ms > 1000)
            wait_ms = 1000;
        ts.tv_sec += (time_t)(wait_ms / 1000);
        ts.tv_nsec += (long)(wait_ms % 1000) * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&g_cm.cond, &g_cm.lock, &ts);
    }
    return NULL;
}

static void add_addr6(struct cm_dev *d, const struct in6_addr *a)
{
    for (int j = 0; j < d->n_addrs6; j++)
        if (!memcmp(&d->addrs6[j], a, sizeof *a))
            return;
    if (d->n_addrs6 < (int)(sizeof d->addrs6 / sizeof d->addrs6[0]))
        d->addrs6[d->n_addrs6++] = *a;
}

/* The addresses of the GID table: a device bound to an interface has an entry per address (each
 * IPv4 as IPv4-mapped, each IPv6 as itself, the link-local fe80:: too). */
static void collect_addrs(struct ibv_context *ctx, struct cm_dev *d)
{
    d->addrs_be[0] = d->ip_be;
    d->n_addrs = 1;
    union ibv_gid g;
    for (int i = 0; i < 64; i++) {
        if (ibv_query_gid(ctx, 1, i, &g) != 0)
            break;
        const struct in6_addr *a = (const struct in6_addr *)g.raw;
        if (IN6_IS_ADDR_UNSPECIFIED(a))
            continue;
        if (!IN6_IS_ADDR_V4MAPPED(a)) {
            add_addr6(d, a);
            continue;
        }
        uint32_t v4;
        memcpy(&v4, g.raw + 12, 4);
        bool seen = false;
        for (int j = 0; j < d->n_addrs; j++)
            seen |= d->addrs_be[j] == v4;
        if (!seen && d->n_addrs < (int)(sizeof d->addrs_be / sizeof d->addrs_be[0]))
            d->addrs_be[d->n_addrs++] = v4;
    }
}

static bool open_one(struct ibv_device *ibdev, struct cm_dev *d)
{
    struct ibv_context *ctx = ibv_open_device(ibdev);
    if (!ctx)
        return false;   /* e.g. EADDRINUSE: another process is that host */
    union ibv_gid gid;
    struct ibv_port_attr pa;
    struct ibv_device_attr da;
    if (ibv_query_gid(ctx, 1, CM_GID_INDEX, &gid) || ibv_query_port(ctx, 1, &pa) ||
        ibv_query_device(ctx, &da) || !IN6_IS_ADDR_V4MAPPED((struct in6_addr *)gid.raw)) {
        ibv_close_device(ctx);
        return false;
    }
    memset(d, 0, sizeof *d);
    d->verbs = ctx;
    d->gid = gid;
    memcpy(&d->ip_be, gid.raw + 12, 4);
    collect_addrs(ctx, d);
    d->guid_be = da.node_guid;
    d->active_mtu = pa.active_mtu;
    d->active_speed_rate = IBV_RATE_2_5_GBPS;
    d->max_rd_atomic = (uint8_t)(da.max_qp_rd_atom > 255 ? 255 : da.max_qp_rd_atom);
    d->ack_delay = da.local_ca_ack_delay;
    if (softverbs_gsi_attach(ctx, cm_mad_recv, d) != 0) {
        ibv_close_device(ctx);
        return false;
    }
    return true;
}

static void init_once(void)
{
    const char *v = getenv("SOFTVERBS_LOG");
    g_log_on = v && *v && strcmp(v, "0") != 0;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&g_cm.cond, &ca);
    pthread_condattr_destroy(&ca);
    int n = 0;
    struct ibv_device **list = ibv_get_device_list(&n);
    for (int i = 0; list && i < n && g_cm.ndev < CM_MAX_DEVICES; i++)
        if (open_one(list[i], &g_cm.dev[g_cm.ndev]))
            g_cm.ndev++;
    if (list)
        ibv_free_device_list(list);
    if (pthread_create(&g_cm.timer_thread, NULL, timer_main, NULL) != 0) {
        g_cm.init_err = EAGAIN;
        return;
    }
    pthread_detach(g_cm.timer_thread);
    g_cm.init_err = g_cm.ndev ? 0 : ENODEV;
    g_cm.ready = true;
}

int cm_init(void)
{
    pthread_once(&g_once, init_once);
    return g_cm.ready ? 0 : g_cm.init_err;
}

struct cm_dev *cm_dev_by_ip(uint32_t ip_be)
{
    for (int i = 0; i < g_cm.ndev; i++)
        for (int j = 0; j < g_cm.dev[i].n_addrs; j++)
            if (g_cm.dev[i].addrs_be[j] == ip_be)
                return &g_cm.dev[i];
    return NULL;
}

struct cm_dev *cm_dev_by_ip6(const struct in6_addr *a)
{
    for (int i = 0; i < g_cm.ndev; i++)
        for (int j = 0; j < g_cm.dev[i].n_addrs6; j++)
            if (!memcmp(&g_cm.dev[i].addrs6[j], a, sizeof *a))
                return &g_cm.dev[i];
    return NULL;
}

struct cm_dev *cm_dev_by_verbs(struct ibv_context *verbs)
{
    for (int i = 0; i < g_cm.ndev; i++)
        if (g_cm.dev[i].verbs == verbs)
            return &g_cm.dev[i];
    return NULL;
}

/* Which local device reaches dst: the device owning dst (loopback), else the device owning the
 * source address the kernel's routing picks, else - all of 127/8 being one loopback link - a
 * loopback device for a loopback destination. */
struct cm_dev *cm_dev_route(uint32_t dst_ip_be)
{
    struct cm_dev *d = cm_dev_by_ip(dst_ip_be);
    if (d)
        return d;
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd >= 0) {
        struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(4791), .sin_addr.s_addr = dst_ip_be};
        struct sockaddr_in me;
        socklen_t len = sizeof me;
        if (connect(fd, (struct sockaddr *)&to, sizeof to) == 0 &&
            getsockname(fd, (struct sockaddr *)&me, &len) == 0)
            d = cm_dev_by_ip(me.sin_addr.s_addr);
        close(fd);
        if (d)
            return d;
    }
    if ((ntohl(dst_ip_be) >> 24) == 127)
        for (int i = 0; i < g_cm.ndev; i++)
            if ((ntohl(g_cm.dev[i].ip_be) >> 24) == 127)
                return &g_cm.dev[i];
    return NULL;
}

struct ibv_context **rdma_get_devices(int *num_devices)
{
    if (cm_init() != 0 && g_cm.ndev == 0) {
        if (num_devices)
            *num_devices = 0;
        struct ibv_context **none = calloc(1, sizeof *none);
        return none;
    }
    struct ibv_context **list = calloc((size_t)g_cm.ndev + 1, sizeof *list);
    if (!list) {
        errno = ENOMEM;
        return NULL;
    }
    for (int i = 0; i < g_cm.ndev; i++)
        list[i] = g_cm.dev[i].verbs;
    if (num_devices)
        *num_devices = g_cm.ndev;
    return list;
}

void rdma_free_devices(struct ibv_context **list)
{
    free(list);   /* the contexts stay open for the life of the process, as in librdmacm */
}
