-- id: dest-qpn-mismatch
-- severity: error
-- role: cause
-- title: A QP sends to a QP number that is not its peer's
-- explanation: An RC/UC QP sends every packet to dest_qp_num (UD: to the WR's remote_qpn).
--   If that is not the QPN the peer created and advertised, the peer's device drops the
--   packets (no such QP, or a QP of another connection) and the sender ends in
--   IBV_WC_RETRY_EXC_ERR (UD: the data silently disappears).
-- fix: Program dest_qp_num (or remote_qpn) with the QPN received out of band from the peer.
SELECT a.host, a.qp_num::BIGINT AS qp,
       list_filter([ev(a.host, a.dest_qp_num_seq), ev(a.p_host, q.create_seq), ev(a.host, r.seq)],
                   lambda e: e.seq IS NOT NULL) AS evidence,
       a.host || ' QP ' || hex24(a.qp_num) || ' sends to QPN ' || hex24(a.dest_qp_num)
           || ' (dest_qp_num)' || override_note(a.host, '--dest-qpn') || ' but its peer on ' || a.p_host
           || ' is QP ' || hex24(a.p_qp_num)
           || CASE WHEN r.seq IS NOT NULL THEN ', as received out of band' ELSE '' END AS message
FROM _pair a
LEFT JOIN qps q ON q.host = a.p_host AND q.handle = a.p_handle
LEFT JOIN _received r ON r.host = a.host AND r.qp_num = a.p_qp_num
WHERE a.dest_qp_num IS NOT NULL AND a.dest_qp_num <> a.p_qp_num
UNION ALL
SELECT p.host, p.qp_num::BIGINT, [ev(p.host, min(p.first_seq))],
       p.host || ' UD QP ' || hex24(p.qp_num) || ' sent ' || sum(p.n) || ' work request(s) to remote QPN '
           || hex24(p.remote_qpn) || ' but its peer on ' || any_value(x.peer_host) || ' is QP '
           || hex24(any_value(x.peer_qp_num))
FROM _post_stats p
JOIN qp_peers x ON x.host = p.host AND x.qp_num = p.qp_num
WHERE p.queue = 'send' AND p.remote_qpn IS NOT NULL AND p.remote_qpn <> x.peer_qp_num
GROUP BY p.host, p.qp_num, p.remote_qpn
