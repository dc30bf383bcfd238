-- id: path-mtu-exceeds-active
-- severity: error
-- role: cause
-- title: A QP's path MTU is larger than its port's active MTU
-- explanation: ibv_modify_qp checks path_mtu only against the port's max_mtu (rxe, softverbs),
--   so a value above the active MTU (what the link carries now, e.g. 1024 for a 1500-byte
--   Ethernet MTU) is accepted. Packets of that size are then dropped on the wire and every
--   message longer than the active MTU ends in IBV_WC_RETRY_EXC_ERR.
-- fix: Use min(local active_mtu, peer active_mtu) from ibv_query_port as path_mtu, or raise the
--   link MTU (e.g. 9000 for 4096-byte RoCE packets).
SELECT s.host, s.qp_num::BIGINT AS qp,
       [ev(s.host, s.path_mtu_seq), ev(s.host, p.seq)] AS evidence,
       s.host || ' QP ' || hex24(s.qp_num) || ' uses path MTU ' || mtu_bytes(s.path_mtu)
           || override_note(s.host, '--path-mtu') || ' but port ' || p.port_num || ' is active at '
           || mtu_bytes(p.active_mtu) || ' bytes: larger packets never arrive' AS message
FROM qp_settings s
JOIN _port_info p ON p.host = s.host AND p.port_num = coalesce(s.port_num, 1)
WHERE s.path_mtu IS NOT NULL AND p.active_mtu IS NOT NULL AND s.path_mtu > p.active_mtu
