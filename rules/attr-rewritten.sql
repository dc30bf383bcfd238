-- id: attr-rewritten
-- severity: warning
-- role: cause
-- title: A QP attribute is not what was asked, or was changed on a live connection
-- explanation: After a successful ibv_modify_qp, ibv_query_qp should return the values just
--   set. A different value means the device rewrote it (rounded, clamped or ignored it), so
--   the connection runs with parameters the peer did not agree to. Changing a connection
--   attribute once the QP is past RTR has the same effect mid-flight.
-- fix: Compare requested and queried values (qp_state_timeline req_/got_ columns); ask for
--   values the device supports (device limits in ibv_query_device), and set connection
--   attributes once, during INIT->RTR->RTS.
WITH fields AS (
    SELECT host, qp_num, seq, query_seq, from_state_name, to_state_name, from_state, attr_mask, ok,
           unnest([
             {'name': 'path_mtu', 'req': req_path_mtu::VARCHAR, 'got': got_path_mtu::VARCHAR},
             {'name': 'qkey', 'req': req_qkey::VARCHAR, 'got': got_qkey::VARCHAR},
             {'name': 'rq_psn', 'req': hex24(req_rq_psn), 'got': hex24(got_rq_psn)},
             {'name': 'sq_psn', 'req': hex24(req_sq_psn), 'got': hex24(got_sq_psn)},
             {'name': 'dest_qp_num', 'req': hex24(req_dest_qp_num), 'got': hex24(got_dest_qp_num)},
             {'name': 'qp_access_flags', 'req': flags_access(req_qp_access_flags), 'got': flags_access(got_qp_access_flags)},
             {'name': 'pkey_index', 'req': req_pkey_index::VARCHAR, 'got': got_pkey_index::VARCHAR},
             {'name': 'max_rd_atomic', 'req': req_max_rd_atomic::VARCHAR, 'got': got_max_rd_atomic::VARCHAR},
             {'name': 'max_dest_rd_atomic', 'req': req_max_dest_rd_atomic::VARCHAR, 'got': got_max_dest_rd_atomic::VARCHAR},
             {'name': 'min_rnr_timer', 'req': req_min_rnr_timer::VARCHAR, 'got': got_min_rnr_timer::VARCHAR},
             {'name': 'port_num', 'req': req_port_num::VARCHAR, 'got': got_port_num::VARCHAR},
             {'name': 'timeout', 'req': req_timeout::VARCHAR, 'got': got_timeout::VARCHAR},
             {'name': 'retry_cnt', 'req': req_retry_cnt::VARCHAR, 'got': got_retry_cnt::VARCHAR},
             {'name': 'rnr_retry', 'req': req_rnr_retry::VARCHAR, 'got': got_rnr_retry::VARCHAR},
             {'name': 'sl', 'req': req_sl::VARCHAR, 'got': got_sl::VARCHAR},
             {'name': 'dgid', 'req': req_dgid, 'got': got_dgid},
             {'name': 'sgid_index', 'req': req_sgid_index::VARCHAR, 'got': got_sgid_index::VARCHAR},
             {'name': 'hop_limit', 'req': req_hop_limit::VARCHAR, 'got': got_hop_limit::VARCHAR}]) AS x
    FROM qp_state_timeline
    WHERE ok),
changed AS (
    -- the previous successful value of the same field on the same QP
    SELECT fields.*, lag(x.req) OVER (PARTITION BY host, qp_num, x.name ORDER BY seq) AS before,
           lag(seq) OVER (PARTITION BY host, qp_num, x.name ORDER BY seq) AS before_seq
    FROM fields WHERE x.req IS NOT NULL)
SELECT host, qp_num::BIGINT AS qp,
       list_filter([ev(host, seq), ev(host, query_seq)], lambda e: e.seq IS NOT NULL) AS evidence,
       'ibv_modify_qp ' || from_state_name || '->' || to_state_name || ' on QP ' || hex24(qp_num) || ' set '
           || x.name || ' = ' || x.req || ' but ibv_query_qp returned ' || x.got AS message
FROM changed
WHERE x.got IS NOT NULL AND x.req <> x.got
UNION ALL
SELECT host, qp_num::BIGINT,
       [ev(host, before_seq), ev(host, seq)],
       'ibv_modify_qp ' || from_state_name || '->' || to_state_name || ' on QP ' || hex24(qp_num) || ' changed '
           || x.name || ' from ' || before || ' to ' || x.req || ' while the connection was live'
           || override_note(host, '--modify-in-rts')
FROM changed
WHERE before IS NOT NULL AND before <> x.req AND from_state IN (2, 3, 4)
  -- a value rdma_cm set, changed by the program itself: cm-attr-overridden reports it
  AND NOT (EXISTS (SELECT 1 FROM _cm_nested n WHERE n.host = changed.host AND n.seq = changed.before_seq)
           AND NOT EXISTS (SELECT 1 FROM _cm_nested n WHERE n.host = changed.host AND n.seq = changed.seq))
