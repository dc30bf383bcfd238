-- id: cm-accept-missing
-- severity: error
-- role: cause
-- title: A connect request reached the server's application, which never answered it in time
-- explanation: The passive side's CM hands each connect request (REQ) to the application as
--   RDMA_CM_EVENT_CONNECT_REQUEST; the connection exists only once the application calls
--   rdma_accept (or refuses it with rdma_reject). Until then the CM answers the client's REQ
--   retransmissions with MRA (message receipt acknowledged), and when the client's CM runs out
--   of time and retries it reports RDMA_CM_EVENT_UNREACHABLE (-ETIMEDOUT) or REJECTED (reason
--   1, timeout). An rdma_accept after that is too late: the client is gone.
-- fix: Answer every RDMA_CM_EVENT_CONNECT_REQUEST promptly: rdma_create_qp and rdma_accept (or
--   rdma_reject) on the new id from the event loop, without waiting for other work; an
--   application that needs time can raise the client's timeout (rdma_set_option
--   RDMA_OPTION_ID_ACK_TIMEOUT) but should not rely on it.
-- when: SELECT 1 FROM cm_events LIMIT 1
WITH requests AS (
    SELECT e.host, e.seq, e.ts_ns, e.cm_id,
           -- the request's new id has no QP yet: the one rdma_create_qp gives it
           coalesce(e.qp_num, (SELECT min(q.qp_num) FROM _cm_qp q WHERE q.host = e.host AND q.cm_id = e.cm_id)) AS qp_num,
           e.src_addr, e.dst_addr
    FROM cm_events e WHERE e.cm_event_type = 4),
answers AS (
    SELECT r.host, r.seq, arg_min(c.verb, c.seq) AS answer, min(c.seq) AS answer_seq, arg_min(c.ts_ns, c.seq) AS answer_ts
    FROM requests r
    JOIN _ctl c ON c.host = r.host AND c.in_cm_id = r.cm_id AND c.seq > r.seq
               AND c.verb IN ('rdma_accept', 'rdma_reject', 'rdma_reject_ece', 'rdma_destroy_id')
    GROUP BY r.host, r.seq),
gave_up AS (
    -- the client's connect ending in error: its id's addresses are ours, reversed
    SELECT r.host, r.seq, arg_min(p.host, p.ts_ns) AS p_host, arg_min(p.seq, p.ts_ns) AS p_seq, min(p.ts_ns) AS p_ts,
           arg_min('RDMA_CM_EVENT_' || p.event_name || ' ' || p.cm_status, p.ts_ns) AS p_event
    FROM requests r
    JOIN cm_events p ON p.host <> r.host AND p.cm_event_type IN (6, 7, 8)
                    AND p.src_addr = r.dst_addr AND p.dst_addr = r.src_addr AND p.ts_ns > r.ts_ns
    GROUP BY r.host, r.seq),
answered AS (
    SELECT r.*, a.answer, a.answer_seq, a.answer_ts, g.p_host, g.p_seq, g.p_ts, g.p_event
    FROM requests r LEFT JOIN answers a USING (host, seq) LEFT JOIN gave_up g USING (host, seq))
SELECT host, qp_num::BIGINT AS qp,
       list_filter([ev(host, seq), ev(host, answer_seq), ev(p_host, p_seq)], lambda e: e.seq IS NOT NULL) AS evidence,
       host || ' got RDMA_CM_EVENT_CONNECT_REQUEST from ' || coalesce(dst_addr, '?') || ' on ' || coalesce(src_addr, '?')
           || CASE WHEN answer IS NULL THEN ' and never called rdma_accept or rdma_reject on it'
                   ELSE ' and called rdma_accept only ' || round((answer_ts - ts_ns) / 1e9, 2) || ' s later, after the client gave up' END
           || coalesce('; ' || p_host || '''s connect ended ' || p_event || ' '
                       || round((p_ts - ts_ns) / 1e9, 1) || ' s after the request', '') AS message
FROM answered
WHERE answer IS NULL OR (answer = 'rdma_accept' AND p_ts IS NOT NULL AND p_ts < answer_ts)
