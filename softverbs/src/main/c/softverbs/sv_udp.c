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

#include "sv_hdr.h"
#include "sv_loc.h"
#include "sv_pkt.h"

static pthread_mutex_t g_endpoint_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sv_endpoint *g_endpoints;

/* Asks for SV_SOCKET_BUF; returns what the kernel granted (getsockopt: bytes, doubled). */
static int set_buffer(int fd, int force_opt, int opt)
{
    int size = SV_SOCKET_BUF, got = 0;
    socklen_t len = sizeof got;
    /* the FORCE variant ignores rmem_max/wmem_max but needs CAP_NET_ADMIN */
    if (setsockopt(fd, SOL_SOCKET, force_opt, &size, sizeof size) != 0)
        setsockopt(fd, SOL_SOCKET, opt, &size, sizeof size);
    getsockopt(fd, SOL_SOCKET, opt, &got, &len);
    return got;
}

/* What one received datagram of up to `bytes` costs in a socket buffer on Linux (skb
 * truesize, measured on loopback: 1100 B -> 2304, 4200 B -> 8456, 8972 B -> 16644). */
static uint32_t truesize(uint32_t bytes)
{
    return sv_roundup_pow2(bytes + 320) + 320;
}

/* Request PSNs the device keeps in flight: what half the peer's receive buffer (assumed like
 * ours: same machine, same library) holds in full-size packets, leaving the rest for ACKs. */
static int tx_limit(int rcvbuf, uint32_t link_mtu)
{
    long n = (long)rcvbuf / (2 * (long)truesize(link_mtu - SV_IPV4_UDP_HDRS));
    return n < SV_TX_LIMIT_MIN ? SV_TX_LIMIT_MIN : n > SV_TX_LIMIT_MAX ? SV_TX_LIMIT_MAX : (int)n;
}

static int open_socket(const struct sv_devcfg *cfg, struct sv_endpoint *ep)
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
    int rcvbuf = set_buffer(fd, SO_RCVBUFFORCE, SO_RCVBUF);
    int sndbuf = set_buffer(fd, SO_SNDBUFFORCE, SO_SNDBUF);
    /* every datagram then carries the kernel's count of drops on this socket (buffer full) */
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_RXQ_OVFL, &one, sizeof one);
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
    ep->fd = fd;
    ep->tx_limit = tx_limit(rcvbuf, cfg->link_mtu);
    atomic_store(&ep->counters[SV_CNT_SOCKET_RCVBUF], (uint64_t)rcvbuf);
    atomic_store(&ep->counters[SV_CNT_SOCKET_SNDBUF], (uint64_t)sndbuf);
    atomic_store(&ep->counters[SV_CNT_TX_LIMIT], (uint64_t)ep->tx_limit);
    sv_log(ep, "socket %s:%d: receive buffer %d bytes, send buffer %d bytes, %d request packets in flight",
           ip, SV_ROCE_UDP_PORT, rcvbuf, sndbuf, ep->tx_limit);
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
    ep->ip_be = cfg->ip_be;
    ep->rx_slot = cfg->link_mtu - SV_IPV4_UDP_HDRS + 1;   /* one more: longer means above the MTU */
    ep->rx_buf = malloc((size_t)SV_RX_BATCH * ep->rx_slot);
    rc = ep->rx_buf ? open_socket(cfg, ep) : ENOMEM;
    if (rc) {
        free(ep->rx_buf);
        free(ep);
        ep = NULL;
        goto out;
    }
    pthread_rwlock_init(&ep->qp_lock, NULL);
    pthread_mutex_init(&ep->rx_lock, NULL);
    pthread_mutex_init(&ep->wait_lock, NULL);
    pthread_mutex_init(&ep->tx_lock, NULL);
    ep->link_mtu = cfg->link_mtu;
    ep->pktlog = sv_pktlog_open(cfg->ip_be);
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
    sv_udp_flush(ep);
    close(ep->fd);
    pthread_mutex_destroy(&ep->tx_lock);
    pthread_rwlock_destroy(&ep->qp_lock);
    pthread_mutex_destroy(&ep->rx_lock);
    pthread_mutex_destroy(&ep->wait_lock);
    free(ep->rx_buf);
    free(ep->rx_batch);
    sv_pktlog_close(ep->pktlog);
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

static void wait_unlink(struct sv_endpoint *ep, struct sv_qp *qp);

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
    /* its packets in flight no longer count, and nobody resumes it */
    pthread_mutex_lock(&qp->lock);
    atomic_fetch_sub(&ep->tx_inflight, (int)qp->tx_charged);
    qp->tx_charged = 0;
    pthread_mutex_unlock(&qp->lock);
    pthread_mutex_lock(&ep->wait_lock);
    wait_unlink(ep, qp);
    pthread_mutex_unlock(&ep->wait_lock);
    pthread_rwlock_unlock(&ep->qp_lock);
}

/* ---- transmit pacing ---- */

void sv_qp_tx_sync(struct sv_qp *qp)
{
    uint32_t want = 0;
    if (qp->ibqp.qp_type == IBV_QPT_RC && (qp->state == IBV_QPS_RTS || qp->state == IBV_QPS_SQD)) {
        want = (qp->req.psn - qp->comp.psn) & SV_PSN_MASK;
        if (want > SV_WINDOW_PSNS)
            want = SV_WINDOW_PSNS;   /* a long READ reserves more PSNs than it sends packets */
        want += sv_req_tx_reserved(qp);
    }
    if (want != qp->tx_charged) {
        atomic_fetch_add(&qp->ctx->ep->tx_inflight, (int)want - (int)qp->tx_charged);
        qp->tx_charged = want;
    }
}

static bool tx_fits(struct sv_endpoint *ep, uint32_t need)
{
    return atomic_load(&ep->tx_inflight) + (int)need <= ep->tx_limit;
}

bool sv_ep_tx_admit(struct sv_endpoint *ep, struct sv_qp *qp, uint32_t need)
{
    int cur = atomic_load(&ep->tx_inflight);
    do {
        if (cur + (int)need > ep->tx_limit)
            return false;
    } while (!atomic_compare_exchange_weak(&ep->tx_inflight, &cur, cur + (int)need));
    qp->tx_charged += need;   /* sv_qp_tx_sync turns it into sent PSNs + the chunk's rest */
    return true;
}

static void wait_unlink(struct sv_endpoint *ep, struct sv_qp *qp)
{
    if (!qp->tx_waiting)
        return;
    struct sv_qp *prev = NULL;
    for (struct sv_qp *q = ep->wait_head; q; prev = q, q = q->tx_wait_next) {
        if (q != qp)
            continue;
        if (prev)
            prev->tx_wait_next = q->tx_wait_next;
        else
            ep->wait_head = q->tx_wait_next;
        if (ep->wait_tail == q)
            ep->wait_tail = prev;
        break;
    }
    qp->tx_waiting = false;
    qp->tx_wait_next = NULL;
    atomic_store(&ep->wait_nonempty, ep->wait_head != NULL);
}

void sv_ep_tx_wait(struct sv_endpoint *ep, struct sv_qp *qp)
{
    sv_count(ep, SV_CNT_TX_WAIT);
    pthread_mutex_lock(&ep->wait_lock);
    if (!qp->tx_waiting) {
        qp->tx_waiting = true;
        qp->tx_wait_next = NULL;
        if (ep->wait_tail)
            ep->wait_tail->tx_wait_next = qp;
        else
            ep->wait_head = qp;
        ep->wait_tail = qp;
        atomic_store(&ep->wait_nonempty, true);
    }
    pthread_mutex_unlock(&ep->wait_lock);
}

void sv_ep_tx_resume(struct sv_endpoint *ep)
{
    if (!atomic_load(&ep->wait_nonempty))
        return;
    /* the read lock keeps every QP on the list alive (destroy unlinks under the write lock) */
    pthread_rwlock_rdlock(&ep->qp_lock);
    /* in order, each QP at most once per call (one that parks itself again waits for the next
     * call); the first whose next chunk does not fit stays first */
    for (uint32_t n = ep->qp_count; n > 0; n--) {
        pthread_mutex_lock(&ep->wait_lock);
        struct sv_qp *qp = ep->wait_head;
        pthread_mutex_unlock(&ep->wait_lock);
        if (!qp)
            break;
        pthread_mutex_lock(&qp->lock);
        bool go = tx_fits(ep, sv_req_tx_need(qp));
        if (go) {
            pthread_mutex_lock(&ep->wait_lock);
            wait_unlink(ep, qp);
            pthread_mutex_unlock(&ep->wait_lock);
            /* time spent parked on this device's limit is not time the peer failed to answer:
             * the ACK timeout of what is in flight counts from now */
            sv_qp_postpone_retrans(qp);
            sv_req_schedule(qp, false);
        }
        pthread_mutex_unlock(&qp->lock);
        if (!go)
            break;
    }
    pthread_rwlock_unlock(&ep->qp_lock);
}

/* ---- transmit ---- */

static bool busy_errno(int e)
{
    return e == EAGAIN || e == EWOULDBLOCK || e == ENOBUFS || e == ENOMEM;
}

static enum sv_tx send_failed(struct sv_endpoint *ep, int e)
{
    if (busy_errno(e)) {
        sv_note(ep, SV_CNT_TX_SOCK_BUSY, "sendto: %s", strerror(e));   /* a full TX ring */
        return SV_TX_BUSY;
    }
    sv_note(ep, SV_CNT_SEND_ERR, "sendto: %s, packet lost", e ? strerror(e) : "short write");
    return SV_TX_DROPPED;
}

/* Sends the held-back ACKs and then (buf, len) if given, in one sendmmsg; tx_lock held. The
 * result is the last datagram's (SV_TX_SENT without one); an ACK that does not leave is lost. */
static enum sv_tx send_batch(struct sv_endpoint *ep, uint32_t dst_ip_be, const uint8_t *buf, size_t len)
{
    struct mmsghdr msgs[SV_TX_COALESCE + 1];
    struct iovec iov[SV_TX_COALESCE + 1];
    struct sockaddr_in to[SV_TX_COALESCE + 1];
    int n = atomic_load(&ep->tx_npending);
    for (int i = 0; i <= n; i++) {
        bool own = i == n;
        if (own && !buf)
            break;
        to[i] = (struct sockaddr_in){.sin_family = AF_INET, .sin_port = htons(SV_ROCE_UDP_PORT),
                                     .sin_addr.s_addr = own ? dst_ip_be : ep->tx_pending[i].dst_ip_be};
        iov[i] = (struct iovec){.iov_base = own ? (void *)buf : ep->tx_pending[i].buf,
                                .iov_len = own ? len : ep->tx_pending[i].len};
        msgs[i].msg_hdr = (struct msghdr){.msg_name = &to[i], .msg_namelen = sizeof to[i], .msg_iov = &iov[i],
                                          .msg_iovlen = 1};
    }
    int total = n + (buf ? 1 : 0);
    /* tx_npending drops to 0 only once the held ACKs have left (below): a flush that finds it
     * non-zero waits here on tx_lock, so sv_udp_flush returns after them, never during */
    for (int off = 0; off < total;) {
        int k = sendmmsg(ep->fd, msgs + off, (unsigned int)(total - off), MSG_DONTWAIT);
        if (k > 0) {
            atomic_fetch_add_explicit(&ep->counters[SV_CNT_SENT_PKTS], (uint64_t)k, memory_order_relaxed);
            for (int i = off; ep->pktlog && i < off + k && i < n; i++)   /* the caller logs its own */
                sv_pktlog_raw(ep->pktlog, SV_PKT_SENT, to[i].sin_addr.s_addr, iov[i].iov_base, iov[i].iov_len);
            off += k;
            continue;
        }
        int e = errno;
        if (off == n) {
            atomic_store(&ep->tx_npending, 0);
            return send_failed(ep, e);   /* the caller's own datagram: a request can wait */
        }
        struct sv_pktlog_cur cur;    /* the lost ACK is the packet the note is about */
        if (ep->pktlog)
            sv_pktlog_push(&cur, to[off].sin_addr.s_addr, iov[off].iov_base, iov[off].iov_len, iov[off].iov_len);
        sv_note(ep, SV_CNT_SEND_ERR, "sendmmsg: %s, ACK lost", strerror(e));
        if (ep->pktlog)
            sv_pktlog_pop(&cur);
        off++;
    }
    atomic_store(&ep->tx_npending, 0);
    return SV_TX_SENT;
}

static enum sv_tx transmit(struct sv_endpoint *ep, uint32_t dst_ip_be, const uint8_t *buf, size_t len)
{
    if (len + SV_IPV4_UDP_HDRS > ep->link_mtu) {
        /* a frame above the MTU never leaves */
        sv_note(ep, SV_CNT_SENT_LINK_MTU_DROP, "%zu-byte packet exceeds link MTU %u", len + SV_IPV4_UDP_HDRS,
                ep->link_mtu);
        return SV_TX_DROPPED;
    }
    if (atomic_load(&ep->tx_npending) > 0) {
        /* ACKs are waiting: they go first, with this one, in one system call */
        pthread_mutex_lock(&ep->tx_lock);
        enum sv_tx t = send_batch(ep, dst_ip_be, buf, len);
        pthread_mutex_unlock(&ep->tx_lock);
        return t;
    }
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(SV_ROCE_UDP_PORT),
                             .sin_addr.s_addr = dst_ip_be};
    ssize_t n = sendto(ep->fd, buf, len, MSG_DONTWAIT, (struct sockaddr *)&to, sizeof to);
    if (n == (ssize_t)len) {
        sv_count(ep, SV_CNT_SENT_PKTS);
        return SV_TX_SENT;
    }
    return send_failed(ep, n < 0 ? errno : 0);
}

void sv_udp_send_ack(struct sv_endpoint *ep, uint32_t dst_ip_be, const uint8_t *buf, size_t len)
{
    if (!sv_recv_in_drain(ep) || len > SV_ACK_WIRE_MAX) {
        if (sv_udp_send(ep, dst_ip_be, buf, len) == SV_TX_BUSY)
            sv_note(ep, SV_CNT_SEND_ERR, "ACK lost: socket busy");
        return;
    }
    pthread_mutex_lock(&ep->tx_lock);
    int n = atomic_load(&ep->tx_npending);
    if (n == SV_TX_COALESCE) {
        send_batch(ep, 0, NULL, 0);
        n = 0;
    }
    struct sv_tx_pending *p = &ep->tx_pending[n];
    p->dst_ip_be = dst_ip_be;
    p->len = (uint32_t)len;
    memcpy(p->buf, buf, len);
    atomic_store(&ep->tx_npending, n + 1);
    sv_count(ep, SV_CNT_ACK_HELD);
    pthread_mutex_unlock(&ep->tx_lock);
}

void sv_udp_flush(struct sv_endpoint *ep)
{
    if (atomic_load(&ep->tx_npending) == 0)
        return;
    pthread_mutex_lock(&ep->tx_lock);
    send_batch(ep, 0, NULL, 0);
    pthread_mutex_unlock(&ep->tx_lock);
}

enum sv_tx sv_udp_send(struct sv_endpoint *ep, uint32_t dst_ip_be, const uint8_t *buf, size_t len)
{
    if (!ep->pktlog)
        return transmit(ep, dst_ip_be, buf, len);
    struct sv_pktlog_cur cur;
    sv_pktlog_push(&cur, dst_ip_be, buf, len, len);
    enum sv_tx tx = transmit(ep, dst_ip_be, buf, len);
    if (tx == SV_TX_SENT)
        sv_pktlog_raw(ep->pktlog, SV_PKT_SENT, dst_ip_be, buf, len);
    sv_pktlog_pop(&cur);
    return tx;
}
