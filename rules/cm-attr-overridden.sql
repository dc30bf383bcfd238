-- id: cm-attr-overridden
-- severity: warning
-- role: cause
-- title: The program changed by hand a QP attribute rdma_cm had set for the connection
-- explanation: With rdma_create_qp, librdmacm moves the QP through INIT, RTR and RTS itself
--   (inside rdma_connect / rdma_accept or the event that completes them), with the values the
--   two CMs agreed on: path MTU, PSNs, the peer's QPN, RDMA read depths, timers and retry
--   counts. A later ibv_modify_qp by the program that sets one of them to another value breaks
--   that agreement behind the peer's back: the peer keeps the negotiated value (an RNR timer
--   or an RDMA read depth that no longer match), and a CM that re-arms the QP overwrites it.
-- fix: Pass the values through rdma_cm instead (rdma_conn_param: responder_resources,
--   initiator_depth, retry_count, rnr_retry_count; rdma_set_option for the ACK timeout / TOS),
--   or create the QP yourself and use rdma_init_qp_attr for every transition.
-- when: SELECT 1 FROM _cm_nested LIMIT 1
WITH fields AS (
    SELECT t.host, t.qp_num, t.seq, t.from_state_name, t.to_state_name, n.seq IS NOT NULL AS by_cm,
           unnest([
             {'name': 'path_mtu', 'v': t.req_path_mtu::VARCHAR},
             {'name': 'rq_psn', 'v': hex24(t.req_rq_psn)},
             {'name': 'sq_psn', 'v': hex24(t.req_sq_psn)},
             {'name': 'dest_qp_num', 'v': hex24(t.req_dest_qp_num)},
             {'name': 'qp_access_flags', 'v': flags_access(t.req_qp_access_flags)},
             {'name': 'max_rd_atomic', 'v': t.req_max_rd_atomic::VARCHAR},
             {'name': 'max_dest_rd_atomic', 'v': t.req_max_dest_rd_atomic::VARCHAR},
             {'name': 'min_rnr_timer', 'v': t.req_min_rnr_timer::VARCHAR},
             {'name': 'timeout', 'v': t.req_timeout::VARCHAR},
             {'name': 'retry_cnt', 'v': t.req_retry_cnt::VARCHAR},
             {'name': 'rnr_retry', 'v': t.req_rnr_retry::VARCHAR}]) AS x
    FROM qp_state_timeline t
    LEFT JOIN _cm_nested n ON n.host = t.host AND n.seq = t.seq
    WHERE t.ok AND EXISTS (SELECT 1 FROM _cm_qp q WHERE q.host = t.host AND q.qp_num = t.qp_num)),
changed AS (
    SELECT f.*, lag(x.v) OVER w AS before, lag(seq) OVER w AS before_seq, lag(by_cm) OVER w AS before_by_cm
    FROM fields f WHERE x.v IS NOT NULL
    WINDOW w AS (PARTITION BY host, qp_num, x.name ORDER BY seq))
SELECT host, qp_num::BIGINT AS qp, [ev(host, before_seq), ev(host, seq)] AS evidence,
       host || ' QP ' || hex24(qp_num) || ': rdma_cm set ' || x.name || ' = ' || before
           || ', then the program''s own ibv_modify_qp ' || from_state_name || '->' || to_state_name
           || ' forced ' || x.name || ' = ' || x.v AS message
FROM changed
WHERE before_by_cm AND NOT by_cm AND before <> x.v
