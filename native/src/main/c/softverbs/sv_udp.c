/* The wire: one UDP socket per device per process, bound to the device's IPv4:4791 and shared
 * (refcounted) by every context of that device in the process. A second process asking for the
 * same device gets EADDRINUSE, like two hosts claiming one address. The QPN table is here too:
 * the socket, not a context, is what packets arrive on. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sv_loc.h"
#include "sv_pkt.h"

#define SV_SOCKET_BUF (4 << 20)   /* room for a full 128-packet window of 4 KiB packets */

static pthread_mutex_t g_endpoint_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sv_endpoint *g_endpoints;

static void set_buffer(int fd, int force_opt, int opt)
{
    int size = SV_SOCKET_BUF;
    /* the FORCE variant ignores rmem_max/wmem_max but needs CAP_NET_ADMIN */
    if (setsockopt(fd, SOL_SOCKET, force_opt, &size, sizeof size) != 0)
        setsockopt(fd, SOL_SOCKET, opt, &size, sizeof size);
}

static int open_socket(const struct sv_devcfg *cfg, int *out)
{
    char ip[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &cfg->ip_be, ip, sizeof ip);
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        int e = errno;
        sv_error_set("device %s: cannot create a UDP socket: %s", cfg->name, strerror(e));
        return e;
    }
    /* DF set and no fragmentation: Linux then sends IP ID 0, which the ICRC covers */
    int pmtu = IP_PMTUDISC_DO;
    setsockopt(fd, IPPROTO_IP, IP_MTU_DISCOVER, &pmtu, sizeof pmtu);
    set_buffer(fd, SO_RCVBUFFORCE, SO_RCVBUF);
    set_buffer(fd, SO_SNDBUFFORCE, SO_SNDBUF);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(SV_ROCE_UDP_PORT),
                             .sin_addr.s_addr = cfg->ip_be};
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        int e = errno;
        if (e == EADDRINUSE)
            sv_error_set("device %s: %s:%d is already bound by another process (each device "
                         "belongs to one process; give this process its own device address, "
                         "e.g. SOFTVERBS_DEVICES=b@127.0.0.2)", cfg->name, ip, SV_ROCE_UDP_PORT);
        else
            sv_error_set("device %s: cannot bind %s:%d: %s", cfg->name, ip, SV_ROCE_UDP_PORT,
                         strerror(e));
        close(fd);
        return e;
    }
    *out = fd;
    return 0;
}

int sv_endpoint_acquire(const struct sv_devcfg *cfg, struct sv_endpoint **out)
{
    int rc = 0;
    pthread_mutex_lock(&g_endpoint_lock);
    struct sv_endpoint *ep;
    for (ep = g_endpoints; ep; ep = ep->next)
        if (ep->ip_be == cfg->ip_be)
            break;
    if (ep) {
        ep->refcnt++;
        goto out;
    }
    ep = calloc(1, sizeof *ep);
    if (!ep) {
        rc = ENOMEM;
        goto out;
    }
    rc = open_socket(cfg, &ep->fd);
    if (rc) {
        free(ep);
        ep = NULL;
        goto out;
    }
    pthread_rwlock_init(&ep->qp_lock, NULL);
    ep->ip_be = cfg->ip_be;
    ep->link_mtu = cfg->link_mtu;
    ep->refcnt = 1;
    ep->next_qpn = SV_FIRST_QPN;
    ep->next = g_endpoints;
    g_endpoints = ep;
out:
    pthread_mutex_unlock(&g_endpoint_lock);
    *out = ep;
    return rc;
}

void sv_endpoint_release(struct sv_endpoint *ep)
{
    pthread_mutex_lock(&g_endpoint_lock);
    if (--ep->refcnt > 0) {
        pthread_mutex_unlock(&g_endpoint_lock);
        return;
    }
    for (struct sv_endpoint **p = &g_endpoints; *p; p = &(*p)->next) {
        if (*p == ep) {
            *p = ep->next;
            break;
        }
    }
    pthread_mutex_unlock(&g_endpoint_lock);
    close(ep->fd);
    pthread_rwlock_destroy(&ep->qp_lock);
    free(ep);
}

struct sv_endpoint *sv_endpoint_find(uint32_t ip_be)
{
    pthread_mutex_lock(&g_endpoint_lock);
    struct sv_endpoint *ep = g_endpoints;
    while (ep && ep->ip_be != ip_be)
        ep = ep->next;
    pthread_mutex_unlock(&g_endpoint_lock);
    return ep;
}

/* ---- QPN table ---- */

struct sv_qp *sv_endpoint_lookup_qp(struct sv_endpoint *ep, uint32_t qpn)
{
    for (struct sv_qp *qp = ep->qp_bucket[qpn % SV_QP_BUCKETS]; qp; qp = qp->ep_next)
        if (qp->ibqp.qp_num == qpn)
            return qp;
    return NULL;
}

int sv_endpoint_add_qp(struct sv_endpoint *ep, struct sv_qp *qp)
{
    pthread_rwlock_wrlock(&ep->qp_lock);
    if (ep->qp_count >= SV_MAX_QP) {
        pthread_rwlock_unlock(&ep->qp_lock);
        return ENOMEM;
    }
    /* cyclic allocator over [17, 2^24): the first user QP is 17 as on rxe */
    uint32_t qpn = ep->next_qpn;
    for (uint32_t tries = 0; tries <= ep->qp_count; tries++) {
        if (!sv_endpoint_lookup_qp(ep, qpn))
            break;
        qpn = qpn + 1 > 0xFFFFFEu ? SV_FIRST_QPN : qpn + 1;
    }
    qp->ibqp.qp_num = qpn;
    ep->next_qpn = qpn + 1 > 0xFFFFFEu ? SV_FIRST_QPN : qpn + 1;
    struct sv_qp **b = &ep->qp_bucket[qpn % SV_QP_BUCKETS];
    qp->ep_next = *b;
    *b = qp;
    ep->qp_count++;
    pthread_rwlock_unlock(&ep->qp_lock);
    return 0;
}

void sv_endpoint_remove_qp(struct sv_endpoint *ep, struct sv_qp *qp)
{
    pthread_rwlock_wrlock(&ep->qp_lock);
    for (struct sv_qp **p = &ep->qp_bucket[qp->ibqp.qp_num % SV_QP_BUCKETS]; *p; p = &(*p)->ep_next) {
        if (*p == qp) {
            *p = qp->ep_next;
            ep->qp_count--;
            break;
        }
    }
    pthread_rwlock_unlock(&ep->qp_lock);
}

/* ---- transmit ---- */

void sv_udp_send(struct sv_endpoint *ep, uint32_t dst_ip_be, const uint8_t *buf, size_t len)
{
    if (len + SV_IPV4_UDP_HDRS > ep->link_mtu) {
        /* a frame above the MTU never leaves */
        sv_note(ep, SV_CNT_SENT_LINK_MTU_DROP, "%zu-byte packet exceeds link MTU %u", len + SV_IPV4_UDP_HDRS,
                ep->link_mtu);
        return;
    }
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(SV_ROCE_UDP_PORT),
                             .sin_addr.s_addr = dst_ip_be};
    ssize_t n = sendto(ep->fd, buf, len, MSG_DONTWAIT, (struct sockaddr *)&to, sizeof to);
    if (n == (ssize_t)len)
        sv_count(ep, SV_CNT_SENT_PKTS);
    else
        /* like a full TX ring: the transport will retry */
        sv_note(ep, SV_CNT_SEND_ERR, "sendto: %s", n < 0 ? strerror(errno) : "short write");
}
