/* rdma_cm ids: creation and destruction, port spaces and ports, binding, address and route
 * resolution (a RoCE path between two softverbs devices: IPv4-mapped GIDs, no SA query). */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "cm_loc.h"

#define CM_EPHEMERAL_LO 32768u
#define CM_EPHEMERAL_HI 60999u

int cm_err(int e)
{
    errno = e;
    return -1;
}

const char *cm_state_name(enum cm_state s)
{
    static const char *const names[] = {
#define CM_STATE_NAME(name) #name,
        CM_STATE_LIST(CM_STATE_NAME)
#undef CM_STATE_NAME
    };
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

struct cm_id *cm_id_checked(struct rdma_cm_id *id)
{
    if (!id)
        return NULL;
    struct cm_id *c = cm_id_of(id);
    return c->magic == CM_ID_MAGIC ? c : NULL;
}

uint64_t cm_service_id(enum rdma_port_space ps, uint16_t port)
{
    /* the kernel's rdma_get_service_id: 0x0000000001000000 | ps << 16 | port (e.g. RDMA_IB_IP_PS_TCP) */
    return 0x0000000001000000ull | ((uint64_t)(ps & 0xFF) << 16) | port;
}

uint16_t cm_src_port(const struct cm_id *c) { return ntohs(c->id.route.addr.src_sin.sin_port); }
uint16_t cm_dst_port(const struct cm_id *c) { return ntohs(c->id.route.addr.dst_sin.sin_port); }
/* an id bound to an IPv6 address has no IPv4 one: INADDR_NONE, never a device's nor the wildcard */
uint32_t cm_src_ip(const struct cm_id *c)
{
    return c->id.route.addr.src_addr.sa_family == AF_INET6 ? INADDR_NONE : c->id.route.addr.src_sin.sin_addr.s_addr;
}
uint32_t cm_dst_ip(const struct cm_id *c) { return c->id.route.addr.dst_sin.sin_addr.s_addr; }

static uint32_t rand32(void)
{
    uint32_t v;
    if (getrandom(&v, sizeof v, 0) != sizeof v)
        v = (uint32_t)time(NULL) * 2654435761u;
    return v;
}

struct cm_id *cm_id_alloc(struct cm_channel *ch, void *context, enum rdma_port_space ps,
                          enum ibv_qp_type qp_type)
{
    struct cm_id *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->magic = CM_ID_MAGIC;
    c->channel = ch;
    c->id.channel = &ch->ch;
    c->id.context = context;
    c->id.ps = ps;
    c->id.qp_type = qp_type;
    c->state = CM_ST_IDLE;
    c->local_comm_id = rand32() | 1u;
    c->qkey = ps == RDMA_PS_UDP || ps == RDMA_PS_IB ? RDMA_UDP_QKEY : 0;
    c->next = g_cm.ids;
    g_cm.ids = c;
    return c;
}

void cm_id_set_dev(struct cm_id *c, struct cm_dev *dev)
{
    c->dev = dev;
    c->id.verbs = dev ? dev->verbs : NULL;
    c->id.port_num = dev ? 1 : 0;
    if (dev) {
        c->id.route.addr.addr.ibaddr.sgid = dev->gid;
        c->id.route.addr.addr.ibaddr.pkey = htons(0xFFFF);
    }
}

void cm_id_fill_path(struct cm_id *c, uint32_t dst_ip_be)
{
    struct ibv_sa_path_rec *p = &c->path;
    memset(p, 0, sizeof *p);
    p->sgid = c->dev->gid;
    memset(p->dgid.raw, 0, 10);
    p->dgid.raw[10] = p->dgid.raw[11] = 0xFF;
    memcpy(p->dgid.raw + 12, &dst_ip_be, 4);
    p->hop_limit = CM_HOP_LIMIT;
    p->traffic_class = c->tos;
    p->reversible = 1;
    p->numb_path = 1;
    p->pkey = htons(0xFFFF);
    p->mtu_selector = 2;             /* exactly */
    p->mtu = (uint8_t)c->dev->active_mtu;
    p->rate_selector = 2;
    p->rate = c->dev->active_speed_rate;
    p->packet_life_time_selector = 2;
    p->packet_life_time = CM_PACKET_LIFETIME;
    c->id.route.addr.addr.ibaddr.dgid = p->dgid;
    c->id.route.path_rec = p;
    c->id.route.num_paths = 1;
}

int rdma_create_id(struct rdma_event_channel *channel, struct rdma_cm_id **id, void *context,
                   enum rdma_port_space ps)
{
    if (!id)
        return cm_err(EINVAL);
    enum ibv_qp_type qp_type;
    switch (ps) {
    case RDMA_PS_TCP: case RDMA_PS_IB: qp_type = IBV_QPT_RC; break;
    case RDMA_PS_UDP: case RDMA_PS_IPOIB: qp_type = IBV_QPT_UD; break;
    default: return cm_err(EINVAL);
    }
    int err = cm_init();
    if (err)
        return cm_err(err);
    struct cm_channel *ch = channel ? cm_channel_of(channel) : cm_channel_new();
    if (!ch)
        return cm_err(ENOMEM);
    pthread_mutex_lock(&g_cm.lock);
    struct cm_id *c = cm_id_alloc(ch, context, ps, qp_type);
    if (c)
        c->sync = channel == NULL;
    pthread_mutex_unlock(&g_cm.lock);
    if (!c) {
        if (!channel)
            cm_channel_free(ch);
        return cm_err(ENOMEM);
    }
    *id = &c->id;
    return 0;
}

static void unlink_id(struct cm_id *c)   /* g_cm.lock held */
{
    for (struct cm_id **pp = &g_cm.ids; *pp; pp = &(*pp)->next) {
        if (*pp == c) {
            *pp = c->next;
            return;
        }
    }
}

int rdma_destroy_id(struct rdma_cm_id *id)
{
    pthread_mutex_lock(&g_cm.lock);
    struct cm_id *c = cm_id_checked(id);
    if (!c || c->destroying) {
        pthread_mutex_unlock(&g_cm.lock);
        return cm_err(EINVAL);
    }
    c->destroying = true;
    cm_conn_abandon(c);
    /* requests this listener has not handed out yet are refused, as the kernel does */
    for (struct cm_id *k = g_cm.ids; k; k = k->next) {
        if (k->listener == c && !k->delivered) {
            k->listener = NULL;
            cm_conn_abandon(k);
            k->state = CM_ST_DEAD;
            k->destroying = true;
        }
    }
    cm_channel_drop_id(c->channel, c);
    uint64_t until = cm_now_ms() + CM_DESTROY_WAIT_MS;
    while (c->events_acked < c->events_reported && cm_now_ms() < until) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_sec += 1;
        pthread_cond_timedwait(&g_cm.cond, &g_cm.lock, &ts);
    }
    unlink_id(c);
    /* children refused above die with no one to tell */
    for (struct cm_id **pp = &g_cm.ids; *pp;) {
        struct cm_id *k = *pp;
        if (k->destroying && k->state == CM_ST_DEAD && !k->delivered && !k->listener) {
            *pp = k->next;
            cm_channel_drop_id(k->channel, k);
            k->magic = 0;
            free(k);
        } else {
            pp = &k->next;
        }
    }
    c->magic = 0;
    pthread_mutex_unlock(&g_cm.lock);
    if (c->sync)
        cm_channel_free(c->channel);
    free(c->ep_qp_attr);
    free(c);
    return 0;
}

int rdma_migrate_id(struct rdma_cm_id *id, struct rdma_event_channel *channel)
{
    pthread_mutex_lock(&g_cm.lock);
    struct cm_id *c = cm_id_checked(id);
    if (!c) {
        pthread_mutex_unlock(&g_cm.lock);
        return cm_err(EINVAL);
    }
    struct cm_channel *to = channel ? cm_channel_of(channel) : cm_channel_new();
    if (!to) {
        pthread_mutex_unlock(&g_cm.lock);
        return cm_err(ENOMEM);
    }
    /* events already queued for the id move with it */
    struct cm_channel *from = c->channel;
    struct cm_event *moved = NULL, **tail = &moved;
    pthread_mutex_lock(&from->lock);
    for (struct cm_event **pp = &from->head; *pp;) {
        struct cm_event *e = *pp;
        if (e->id == c) {
            *pp = e->next;
            e->next = NULL;
            *tail = e;
            tail = &e->next;
        } else {
            pp = &e->next;
        }
    }
    from->tail = NULL;
    for (struct cm_event *e = from->head; e; e = e->next)
        from->tail = e;
    pthread_mutex_unlock(&from->lock);
    cm_channel_drop_id(from, c);   /* refreshes the readiness byte */
    while (moved) {
        struct cm_event *n = moved->next;
        cm_channel_push(to, moved);
        moved = n;
    }
    bool was_sync = c->sync;
    c->channel = to;
    c->id.channel = &to->ch;
    c->sync = channel == NULL;
    pthread_mutex_unlock(&g_cm.lock);
    if (was_sync)
        cm_channel_free(from);
    return 0;
}

int rdma_set_option(struct rdma_cm_id *id, int level, int optname, void *optval, size_t optlen)
{
    pthread_mutex_lock(&g_cm.lock);
    struct cm_id *c = cm_id_checked(id);
    int rc = 0;
    if (!c || !optval)
        rc = EINVAL;
    else if (level == RDMA_OPTION_ID && optname == RDMA_OPTION_ID_TOS && optlen == sizeof(uint8_t))
        c->tos = *(uint8_t *)optval;
    else if (level == RDMA_OPTION_ID && optname == RDMA_OPTION_ID_REUSEADDR && optlen == sizeof(int))
        c->reuseaddr = *(int *)optval != 0;
    else if (level == RDMA_OPTION_ID && optname == RDMA_OPTION_ID_AFONLY && optlen == sizeof(int))
        rc = 0;                      /* IPv4 only: nothing to restrict */
    else if (level == RDMA_OPTION_ID && optname == RDMA_OPTION_ID_ACK_TIMEOUT && optlen == sizeof(uint8_t))
        c->ack_timeout = *(uint8_t *)optval;
    else if (level == RDMA_OPTION_IB && optname == RDMA_OPTION_IB_PATH)
        rc = ENOSYS;                 /* no SA: the path is always the RoCE path between the devices */
    else
        rc = EINVAL;
    pthread_mutex_unlock(&g_cm.lock);
    return rc ? cm_err(rc) : 0;
}

static bool port_taken(const struct cm_id *self, enum rdma_port_space ps, uint32_t ip_be, uint16_t port)
{
    for (const struct cm_id *c = g_cm.ids; c; c = c->next) {
        if (c == self || !c->bound || c->id.ps != ps || cm_src_port(c) != port || c->state == CM_ST_DEAD ||
            c->listener || c->destroying)
            continue;
        uint32_t other = cm_src_ip(c);
        if (other == ip_be || other == INADDR_ANY || ip_be == INADDR_ANY) {
            if (!(self->reuseaddr && c->reuseaddr && c->state != CM_ST_LISTEN))
                return true;
        }
    }
    return false;
}

/* Binds c to ip:port (port 0 = ephemeral); g_cm.lock held. 0 or errno. */
static int bind_locked(struct cm_id *c, uint32_t ip_be, uint16_t port)
{
    struct cm_dev *dev = NULL;
    if (ip_be != INADDR_ANY) {
        dev = cm_dev_by_ip(ip_be);
        /* the kernel's rdma_cm: a loopback address no device owns binds as the wildcard (no device
         * yet; a listen then hears every device), e.g. libfabric's server binding "localhost" */
        if (!dev && (ntohl(ip_be) >> 24) == 127)
            ip_be = INADDR_ANY;
        else if (!dev)
            return ENODEV;           /* the kernel: no RDMA device has this address */
    }
    if (port == 0) {
        uint32_t span = CM_EPHEMERAL_HI - CM_EPHEMERAL_LO + 1, start = rand32() % span;
        uint32_t i;
        for (i = 0; i < span; i++) {
            uint16_t p = (uint16_t)(CM_EPHEMERAL_LO + (start + i) % span);
            if (!port_taken(c, c->id.ps, ip_be, p)) {
                port = p;
                break;
            }
        }
        if (i == span)
            return EADDRNOTAVAIL;
    } else if (port_taken(c, c->id.ps, ip_be, port)) {
        return EADDRINUSE;
    }
    struct sockaddr_in *s = &c->id.route.addr.src_sin;
    s->sin_family = AF_INET;
    s->sin_addr.s_addr = ip_be;
    s->sin_port = htons(port);
    c->bound = true;
    if (dev)
        cm_id_set_dev(c, dev);
    if (c->state == CM_ST_IDLE)
        c->state = CM_ST_ADDR_BOUND;
    return 0;
}

/* Binds c to an IPv6 address of a device's GID table (libfabric enumerates the interfaces'
 * addresses so); g_cm.lock held. The id has its device, but connections need IPv4: softverbs
 * carries RoCE v2 over IPv4 only. */
static int bind6_locked(struct cm_id *c, const struct sockaddr_in6 *sin6)
{
    struct cm_dev *dev = cm_dev_by_ip6(&sin6->sin6_addr);
    if (!dev)
        return IN6_IS_ADDR_UNSPECIFIED(&sin6->sin6_addr) || IN6_IS_ADDR_LOOPBACK(&sin6->sin6_addr) ? EAFNOSUPPORT
                                                                                                   : ENODEV;
    uint16_t port = ntohs(sin6->sin6_port);
    if (port == 0) {
        uint32_t span = CM_EPHEMERAL_HI - CM_EPHEMERAL_LO + 1, start = rand32() % span, i;
        for (i = 0; i < span && port_taken(c, c->id.ps, INADDR_NONE, (uint16_t)(CM_EPHEMERAL_LO + (start + i) % span)); i++)
            ;
        if (i == span)
            return EADDRNOTAVAIL;
        port = (uint16_t)(CM_EPHEMERAL_LO + (start + i) % span);
    } else if (port_taken(c, c->id.ps, INADDR_NONE, port)) {
        return EADDRINUSE;
    }
    c->id.route.addr.src_sin6 = *sin6;
    c->id.route.addr.src_sin6.sin6_port = htons(port);
    c->bound = true;
    cm_id_set_dev(c, dev);
    if (c->state == CM_ST_IDLE)
        c->state = CM_ST_ADDR_BOUND;
    return 0;
}

int rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr)
{
    if (!addr)
        return cm_err(EINVAL);
    if (addr->sa_family != AF_INET && addr->sa_family != AF_INET6)
        return cm_err(EAFNOSUPPORT);
    pthread_mutex_lock(&g_cm.lock);
    struct cm_id *c = cm_id_checked(id);
    int rc = !c ? EINVAL : c->bound || c->state != CM_ST_IDLE ? EINVAL
           : addr->sa_family == AF_INET6 ? bind6_locked(c, (const struct sockaddr_in6 *)addr)
           : bind_locked(c, ((const struct sockaddr_in *)addr)->sin_addr.s_addr,
                         ntohs(((const struct sockaddr_in *)addr)->sin_port));
    pthread_mutex_unlock(&g_cm.lock);
    return rc ? cm_err(rc) : 0;
}

static void push_event(struct cm_id *c, enum rdma_cm_event_type type, int status)
{
    struct cm_event *e = cm_event_new(c, type, status, NULL, 0);
    if (e)
        cm_channel_push(c->channel, e);
}

int rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src_addr, struct sockaddr *dst_addr,
                      int timeout_ms)
{
    if (!dst_addr)
        return cm_err(EINVAL);
    if (dst_addr->sa_family != AF_INET || (src_addr && src_addr->sa_family != AF_INET))
        return cm_err(EAFNOSUPPORT);
    const struct sockaddr_in *dst = (const struct sockaddr_in *)dst_addr;
    pthread_mutex_lock(&g_cm.lock);
    struct cm_id *c = cm_id_checked(id);
    if (!c || (c->state != CM_ST_IDLE && c->state != CM_ST_ADDR_BOUND)) {
        pthread_mutex_unlock(&g_cm.lock);
        return cm_err(EINVAL);
    }
    if (c->id.route.addr.src_addr.sa_family == AF_INET6) {
        pthread_mutex_unlock(&g_cm.lock);
        return cm_err(EAFNOSUPPORT);   /* bound to an IPv6 address: no IPv4 path from it */
    }
    int rc = 0;
    if (!c->bound) {
        uint32_t ip = src_addr ? ((const struct sockaddr_in *)src_addr)->sin_addr.s_addr : INADDR_ANY;
        uint16_t port = src_addr ? ntohs(((const struct sockaddr_in *)src_addr)->sin_port) : 0;
        rc = bind_locked(c, ip, port);
    }
    if (rc) {
        pthread_mutex_unlock(&g_cm.lock);
        return cm_err(rc);
    }
    c->id.route.addr.dst_sin = *dst;
    struct cm_dev *dev = c->dev ? c->dev : cm_dev_route(dst->sin_addr.s_addr);
    if (!dev || dst->sin_addr.s_addr == INADDR_ANY) {
        cm_log(NULL, "addr", "no softverbs device reaches the destination: ADDR_ERROR");
        push_event(c, RDMA_CM_EVENT_ADDR_ERROR, -ENODEV);
    } else {
        cm_id_set_dev(c, dev);
        c->id.route.addr.src_sin.sin_addr.s_addr = dev->ip_be;
        c->id.route.addr.addr.ibaddr.dgid = dev->gid;
        memcpy(c->id.route.addr.addr.ibaddr.dgid.raw + 12, &dst->sin_addr.s_addr, 4);
        c->state = CM_ST_ADDR_RESOLVED;
        push_event(c, RDMA_CM_EVENT_ADDR_RESOLVED, 0);
    }
    (void)timeout_ms;                /* resolution is immediate: no ARP on softverbs */
    pthread_mutex_unlock(&g_cm.lock);
    return c->sync ? cm_sync_wait(c, RDMA_CM_EVENT_ADDR_RESOLVED) : 0;
}

int rdma_resolve_route(struct rdma_cm_id *id, int timeout_ms)
{
    pthread_mutex_lock(&g_cm.lock);
    struct cm_id *c = cm_id_checked(id);
    if (!c || c->state != CM_ST_ADDR_RESOLVED) {
        pthread_mutex_unlock(&g_cm.lock);
        return cm_err(EINVAL);
    }
    cm_id_fill_path(c, cm_dst_ip(c));
    c->state = CM_ST_ROUTE_RESOLVED;
    push_event(c, RDMA_CM_EVENT_ROUTE_RESOLVED, 0);
    (void)timeout_ms;
    pthread_mutex_unlock(&g_cm.lock);
    return c->sync ? cm_sync_wait(c, RDMA_CM_EVENT_ROUTE_RESOLVED) : 0;
}

int rdma_listen(struct rdma_cm_id *id, int backlog)
{
    pthread_mutex_lock(&g_cm.lock);
    struct cm_id *c = cm_id_checked(id);
    int rc = 0;
    if (!c || (c->state != CM_ST_IDLE && c->state != CM_ST_ADDR_BOUND))
        rc = EINVAL;
    else if (!c->bound)
        rc = bind_locked(c, INADDR_ANY, 0);
    if (!rc) {
        for (const struct cm_id *o = g_cm.ids; o; o = o->next)
            if (o != c && o->state == CM_ST_LISTEN && o->id.ps == c->id.ps && cm_src_port(o) == cm_src_port(c) &&
                (cm_src_ip(o) == cm_src_ip(c) || !cm_src_ip(o) || !cm_src_ip(c)))
                rc = EADDRINUSE;
    }
    if (!rc) {
        c->state = CM_ST_LISTEN;
        c->backlog = backlog > 0 ? backlog : 1024;
    }
    pthread_mutex_unlock(&g_cm.lock);
    return rc ? cm_err(rc) : 0;
}

__be16 rdma_get_src_port(struct rdma_cm_id *id)
{
    if (!id)
        return 0;
    sa_family_t f = id->route.addr.src_addr.sa_family;
    return f == AF_INET ? id->route.addr.src_sin.sin_port : f == AF_INET6 ? id->route.addr.src_sin6.sin6_port : 0;
}

__be16 rdma_get_dst_port(struct rdma_cm_id *id)
{
    return id && id->route.addr.dst_addr.sa_family == AF_INET ? id->route.addr.dst_sin.sin_port : 0;
}
