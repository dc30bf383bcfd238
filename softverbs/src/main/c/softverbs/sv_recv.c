/* Routing of received datagrams: link MTU, codec validation (ICRC and all), P_Key, then the
 * destination QP; requests go to the responder, ACKs and responses to the completer. Anything
 * that fails a check is dropped and counted - a hostile datagram never gets further. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "sv_loc.h"
#include "sv_pkt.h"

static bool transport_matches(enum ibv_qp_type type, sv_hdr_mask_t m)
{
    switch (type) {
    case IBV_QPT_RC: return sv_mask_has(m, SV_HDR_RC);
    case IBV_QPT_UC: return sv_mask_has(m, SV_HDR_UC);
    case IBV_QPT_UD: return sv_mask_has(m, SV_HDR_UD);
    default: return false;
    }
}

static void route(struct sv_endpoint *ep, const uint8_t *buf, size_t len, uint32_t src_ip_be, uint16_t src_port)
{
    /* an Ethernet port drops frames above its MTU before anything looks at them */
    if (len + SV_IPV4_UDP_HDRS > ep->link_mtu) {
        sv_note(ep, SV_CNT_RCVD_LINK_MTU_DROP, "%zu-byte datagram from port %u exceeds link MTU %u",
                len + SV_IPV4_UDP_HDRS, src_port, ep->link_mtu);
        return;
    }
    struct sv_flow flow = {.src_ip_be = src_ip_be, .dst_ip_be = ep->ip_be,
                           .src_port = src_port, .dst_port = SV_ROCE_UDP_PORT};
    struct sv_pkt pkt;
    int err = sv_pkt_decode(buf, len, &flow, &pkt);
    if (err) {
        sv_note(ep, err == SV_PKT_ERR_ICRC ? SV_CNT_RCVD_BAD_ICRC : SV_CNT_RCVD_MALFORMED,
                "%zu-byte datagram refused: %s", len, sv_pkt_err_text(err));
        return;
    }
    sv_count(ep, SV_CNT_RCVD_PKTS);
    if (ep->pktlog)
        sv_pktlog_received(ep->pktlog);
    /* P_Key match (IBA 10.9.3): same 15-bit key; our table holds only the full 0xFFFF */
    if ((pkt.pkey & 0x7FFF) != (SV_DEFAULT_PKEY & 0x7FFF)) {
        sv_note(ep, SV_CNT_BAD_PKEY, "QP 0x%x: P_Key 0x%04x does not match 0xffff", pkt.dest_qpn, pkt.pkey);
        return;
    }
    sv_hdr_mask_t m = sv_opcode_info(pkt.opcode)->mask;
    if (sv_mask_has(m, SV_HDR_CNP)) {
        sv_note(ep, SV_CNT_RCVD_DROPPED, "QP 0x%x: CNP ignored (no congestion control)", pkt.dest_qpn);
        return;
    }
    if (pkt.dest_qpn == 1) {   /* QP1: MADs for the connection manager */
        sv_gsi_dispatch(ep, &pkt, src_ip_be);
        return;
    }
    pthread_rwlock_rdlock(&ep->qp_lock);
    struct sv_qp *qp = pkt.dest_qpn ? sv_endpoint_lookup_qp(ep, pkt.dest_qpn) : NULL;
    if (!qp) {
        pthread_rwlock_unlock(&ep->qp_lock);
        sv_note(ep, SV_CNT_RCVD_UNKNOWN_QPN, "%s for QP 0x%x: no such QP", sv_opcode_name(pkt.opcode),
                pkt.dest_qpn);
        return;
    }
    pthread_mutex_lock(&qp->lock);
    if (!transport_matches(qp->ibqp.qp_type, m))
        sv_note(ep, SV_CNT_RCVD_DROPPED, "QP 0x%x: %s does not belong to this QP's transport",
                pkt.dest_qpn, sv_opcode_name(pkt.opcode));
    else if (sv_mask_has(m, SV_HDR_REQ))
        sv_resp_handle(qp, &pkt, src_ip_be);
    else if (qp->ibqp.qp_type == IBV_QPT_RC)
        sv_comp_handle(qp, &pkt);
    else
        sv_note(ep, SV_CNT_RCVD_DROPPED, "QP 0x%x: %s has no requester to go to", pkt.dest_qpn,
                sv_opcode_name(pkt.opcode));
    pthread_mutex_unlock(&qp->lock);
    pthread_rwlock_unlock(&ep->qp_lock);
}

static void dispatch(struct sv_endpoint *ep, const uint8_t *buf, size_t len, uint32_t src_ip_be, uint16_t src_port)
{
    if (!ep->pktlog) {
        route(ep, buf, len, src_ip_be, src_port);
        return;
    }
    struct sv_pktlog_cur cur;   /* what the counters moved by routing it are about */
    sv_pktlog_push(&cur, src_ip_be, buf, len, len < ep->rx_slot ? len : ep->rx_slot);
    route(ep, buf, len, src_ip_be, src_port);
    sv_pktlog_pop(&cur);
}

/* SO_RXQ_OVFL: each datagram carries the socket's running count of datagrams the kernel
 * dropped because the receive buffer was full; the growth is ours to count. */
static void note_overflow(struct sv_endpoint *ep, const struct msghdr *mh)
{
    for (struct cmsghdr *c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR((struct msghdr *)mh, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SO_RXQ_OVFL)
            continue;
        uint32_t drops;
        memcpy(&drops, CMSG_DATA(c), sizeof drops);
        uint32_t seen = atomic_load(&ep->rx_ovfl_seen);
        if (drops != seen) {
            atomic_store(&ep->rx_ovfl_seen, drops);   /* under rx_lock: one writer */
            atomic_fetch_add(&ep->counters[SV_CNT_RCVD_SOCK_OVERFLOW], (uint32_t)(drops - seen));
            sv_log(ep, "the kernel dropped %u datagram(s): socket receive buffer full", drops - seen);
        }
    }
}

/* recvmmsg's headers for the endpoint's SV_RX_BATCH slots: set up once, only the fields the
 * kernel writes back are reset per call. Belongs to the rx_lock holder. */
struct sv_rx_batch {
    struct mmsghdr msgs[SV_RX_BATCH];
    struct iovec iov[SV_RX_BATCH];
    struct sockaddr_in from[SV_RX_BATCH];
    union { char buf[CMSG_SPACE(sizeof(uint32_t))]; struct cmsghdr align; } ctl[SV_RX_BATCH];
};

static struct sv_rx_batch *rx_batch(struct sv_endpoint *ep)
{
    if (ep->rx_batch)
        return ep->rx_batch;
    struct sv_rx_batch *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    for (int i = 0; i < SV_RX_BATCH; i++) {
        b->iov[i] = (struct iovec){.iov_base = ep->rx_buf + (size_t)i * ep->rx_slot, .iov_len = ep->rx_slot};
        b->msgs[i].msg_hdr = (struct msghdr){.msg_name = &b->from[i], .msg_iov = &b->iov[i], .msg_iovlen = 1,
                                             .msg_control = b->ctl[i].buf};
    }
    ep->rx_batch = b;
    return b;
}

static _Thread_local const struct sv_endpoint *t_draining;

bool sv_recv_in_drain(const struct sv_endpoint *ep)
{
    return t_draining == ep;
}

int sv_recv_drain(struct sv_endpoint *ep, int budget, bool wait)
{
    if (wait)
        pthread_mutex_lock(&ep->rx_lock);
    else if (pthread_mutex_trylock(&ep->rx_lock) != 0)
        return 0;   /* another thread is on it */
    t_draining = ep;
    struct sv_rx_batch *b = rx_batch(ep);
    int total = 0;
    while (b && total < budget) {
        int want = budget - total < SV_RX_BATCH ? budget - total : SV_RX_BATCH;
        for (int i = 0; i < want; i++) {
            b->msgs[i].msg_hdr.msg_namelen = sizeof b->from[i];
            b->msgs[i].msg_hdr.msg_controllen = sizeof b->ctl[i].buf;
        }
        /* MSG_TRUNC: msg_len is the datagram's real length, so a long one is seen as such */
        int n = recvmmsg(ep->fd, b->msgs, (unsigned int)want, MSG_DONTWAIT | MSG_TRUNC, NULL);
        if (n <= 0)
            break;   /* EAGAIN: drained */
        for (int i = 0; i < n; i++) {
            note_overflow(ep, &b->msgs[i].msg_hdr);
            size_t len = b->msgs[i].msg_len;
            if (b->from[i].sin_family != AF_INET) {
                sv_note(ep, SV_CNT_RCVD_MALFORMED, "non-IPv4 datagram (%zu bytes)", len);
                continue;
            }
            /* longer than the slot: above the link MTU, refused by dispatch before any read */
            dispatch(ep, (const uint8_t *)b->iov[i].iov_base, len, b->from[i].sin_addr.s_addr,
                     ntohs(b->from[i].sin_port));
        }
        total += n;
        if (n < want)
            break;
    }
    t_draining = NULL;
    pthread_mutex_unlock(&ep->rx_lock);
    return total;
}
