-- id: path-mtu-mismatch
-- severity: error
-- role: cause
-- title: The two ends of a connection use different path MTUs
-- explanation: Each QP packetises messages by its own path_mtu, and a responder drops any
--   packet longer than its own path MTU (and expects every FIRST/MIDDLE packet to be exactly
--   that long). When the ends disagree, every message longer than the smaller MTU fails: the
--   sender retries until IBV_WC_RETRY_EXC_ERR. Reported on the side with the larger MTU.
-- fix: Negotiate the path MTU out of band and program the same value on both QPs: the smaller
--   of the two ports' active MTUs (ibv_query_port active_mtu).
SELECT a.host, a.qp_num::BIGINT AS qp,
       list_filter([ev(a.host, a.path_mtu_seq), ev(a.p_host, a.p_path_mtu_seq),
                    ev(a.p_host, packets_above_mtu_seq(a.p_host, a.p_qp_num, mtu_bytes(a.p_path_mtu)))],
                   lambda e: e.seq IS NOT NULL) AS evidence,
       a.host || ' QP ' || hex24(a.qp_num) || ' uses path MTU ' || mtu_bytes(a.path_mtu)
           || override_note(a.host, '--path-mtu') || ' but its peer ' || a.p_host || ' QP ' || hex24(a.p_qp_num)
           || ' uses ' || mtu_bytes(a.p_path_mtu) || override_note(a.p_host, '--path-mtu')
           || ': messages longer than ' || mtu_bytes(a.p_path_mtu) || ' bytes are dropped by the peer'
           || coalesce('; in the packet capture, ' || packets_above_mtu(a.p_host, a.p_qp_num, mtu_bytes(a.p_path_mtu)), '') AS message
FROM _pair a
WHERE a.path_mtu IS NOT NULL AND a.p_path_mtu IS NOT NULL AND a.path_mtu > a.p_path_mtu
