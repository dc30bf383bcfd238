/* Routing of received datagrams: link MTU, codec validation (ICRC and all), P_Key, then the
 * destination QP; requests go to the responder, ACKs and responses to the completer. Anything
 * that fails a check is dropped and counted - a hostile datagram never gets further. */
#include <arpa/inet.h>
#include <errno.h>
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

static void dispatch(struct sv_endpoint *ep, const uint8_t *buf, size_t len, uint32_t src_ip_be, uint16_t src_port)
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

int sv_recv_drain(struct sv_endpoint *ep, int budget)
{
    uint8_t buf[SV_PKT_MAX_LEN + 1];   /* only the progress threads (8 MiB stacks) get here */
    int n = 0;
    for (; n < budget; n++) {
        struct sockaddr_in from;
        socklen_t fromlen = sizeof from;
        ssize_t len = recvfrom(ep->fd, buf, sizeof buf, MSG_DONTWAIT | MSG_TRUNC,
                               (struct sockaddr *)&from, &fromlen);
        if (len < 0)
            break;   /* EAGAIN: drained (another context's thread may have taken it) */
        if ((size_t)len > sizeof buf - 1 || from.sin_family != AF_INET) {
            sv_note(ep, SV_CNT_RCVD_MALFORMED, "oversized or non-IPv4 datagram (%zd bytes)", len);
            continue;
        }
        dispatch(ep, buf, (size_t)len, from.sin_addr.s_addr, ntohs(from.sin_port));
    }
    return n;
}
