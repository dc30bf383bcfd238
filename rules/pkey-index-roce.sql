-- id: pkey-index-roce
-- severity: error
-- role: cause
-- title: A QP on a RoCE port uses a P_Key index other than 0
-- explanation: RoCE has no partitions: every end sends the default P_Key 0xFFFF, which is at
--   index 0. A port whose P_Key table reports more entries accepts another index, and the QP's
--   packets then carry a P_Key its peer's port does not have: the peer drops them (its
--   bad_pkey_cntr counts them) and the connection times out. Reported on the end with the
--   non-zero index, with its peer's index; an index past the table is pkey-index.
-- fix: Use pkey_index 0 on RoCE (perftest --pkey_index, the P_Key index of a program's
--   INIT modify).
-- when: SELECT 1 FROM qp_settings WHERE pkey_index > 0 LIMIT 1
SELECT s.host, s.qp_num::BIGINT AS qp,
       list_filter([ev(s.host, s.pkey_index_seq), ev(q.peer_host, t.pkey_index_seq)], lambda e: e.seq IS NOT NULL) AS evidence,
       s.host || ' QP ' || hex24(s.qp_num) || ' uses P_Key index ' || s.pkey_index || ' on RoCE port '
           || p.port_num || CASE WHEN q.peer_host IS NOT NULL
                                 THEN ' but its peer ' || q.peer_host || ' QP ' || hex24(q.peer_qp_num) || ' uses '
                                      || coalesce(t.pkey_index, 0)
                                 ELSE '' END
           || '; RoCE has one partition, the default P_Key 0xFFFF at index 0' AS message
FROM qp_settings s
JOIN _port_info p ON p.host = s.host AND p.port_num = coalesce(s.port_num, 1)
LEFT JOIN qp_peers q ON q.host = s.host AND q.handle = s.handle
LEFT JOIN qp_settings t ON t.host = q.peer_host AND t.handle = q.peer_handle
WHERE p.link_layer = 2 AND s.pkey_index > 0 AND (p.pkey_tbl_len IS NULL OR s.pkey_index < p.pkey_tbl_len)
