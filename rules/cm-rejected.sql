-- id: cm-rejected
-- severity: error
-- role: cause
-- title: The peer rejected an rdma_cm connection
-- explanation: RDMA_CM_EVENT_REJECTED carries the IB CM reject reason as its status. Reason 28
--   (consumer defined) means the peer application called rdma_reject: its private data usually
--   says why. Other reasons come from the peer's CM: no resources (3), a timeout (4), a stale
--   connection (10), an invalid MTU or responder resources (26, 27) ... (reason 8, nobody
--   listening, is cm-no-listener).
-- fix: For reason 28, read the private data the peer sent and fix what its application refused
--   (often a version, size or credential check); for the other reasons, the reason names what
--   the peer's CM could not accept.
-- when: SELECT 1 FROM cm_events LIMIT 1
WITH rejected AS (
    SELECT e.host, e.seq, e.cm_id, e.qp_num, e.src_addr, e.dst_addr, e.cm_status AS reason,
           e.private_data, e.private_data_len,
           coalesce(_cm_call_before(e.host, e.cm_id, e.seq, 'rdma_connect'), e.seq) AS connect_seq
    FROM cm_events e
    WHERE e.cm_event_type = 8 AND e.cm_status <> 8),
peer_reject AS (
    -- the peer's rdma_reject of this connection: its id's addresses are ours, reversed
    SELECT r.host, r.seq, min(c.host) AS p_host, min(c.seq) AS p_seq
    FROM rejected r JOIN _ctl c ON c.host <> r.host AND c.verb IN ('rdma_reject', 'rdma_reject_ece')
                               AND c.in_src_addr = r.dst_addr AND c.in_dst_addr = r.src_addr
    GROUP BY r.host, r.seq)
SELECT r.host, r.qp_num::BIGINT AS qp,
       list_concat([ev(r.host, r.connect_seq), ev(r.host, r.seq)],
                   CASE WHEN p.p_seq IS NOT NULL THEN [ev(p.p_host, p.p_seq)]
                        ELSE []::STRUCT(host VARCHAR, seq BIGINT)[] END) AS evidence,
       r.host || ' connected to ' || coalesce(r.dst_addr, '?') || ': RDMA_CM_EVENT_REJECTED, reason ' || r.reason
           || ' (' || enum_reject_reason(r.reason) || ')'
           || CASE WHEN r.reason = 28 THEN ': the peer application refused it (rdma_reject'
                        || coalesce(' at ' || p.p_host || '#' || p.p_seq, '') || ')' ELSE '' END
           || CASE WHEN r.private_data_len > 0
                   THEN '; private data ' || r.private_data_len || ' bytes'
                        || coalesce(' "' || _cm_pdata_text(r.private_data) || '"', '')
                        || ' (0x' || left(r.private_data, 64) || CASE WHEN length(r.private_data) > 64 THEN '...' ELSE '' END || ')'
                   ELSE '' END AS message
FROM rejected r LEFT JOIN peer_reject p ON p.host = r.host AND p.seq = r.seq
