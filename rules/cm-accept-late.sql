-- id: cm-accept-late
-- severity: warning
-- role: cause
-- title: rdma_accept came so late that the client's CM had to wait on MRA
-- explanation: A client's CM retransmits its connect request (REQ) when no reply comes within
--   the response timeout (the kernel: about 4 s, 2 x packet life + response timeout); the
--   server's CM answers those retries with MRA (message receipt acknowledged) while its
--   application has not called rdma_accept. The connection came up, but more than a second
--   after the request reached the application: one more delay and the client reports
--   RDMA_CM_EVENT_UNREACHABLE or REJECTED (timeout).
-- fix: Call rdma_accept (or rdma_reject) from the event loop as soon as the CONNECT_REQUEST
--   arrives; do slow setup (memory registration, buffers) before rdma_listen or after the
--   connection is established.
-- when: SELECT 1 FROM cm_events LIMIT 1
WITH requests AS (
    SELECT e.host, e.seq, e.ts_ns, e.cm_id,
           -- the request's new id has no QP yet: the one rdma_create_qp gives it
           coalesce(e.qp_num, (SELECT min(q.qp_num) FROM _cm_qp q WHERE q.host = e.host AND q.cm_id = e.cm_id)) AS qp_num,
           e.src_addr, e.dst_addr
    FROM cm_events e WHERE e.cm_event_type = 4),
accepted AS (
    SELECT r.*, a.seq AS accept_seq, a.ts_ns AS accept_ts
    FROM requests r
    JOIN _ctl a ON a.host = r.host AND a.in_cm_id = r.cm_id AND a.verb = 'rdma_accept' AND a.ok AND a.seq > r.seq)
SELECT host, qp_num::BIGINT AS qp, [ev(host, seq), ev(host, accept_seq)] AS evidence,
       host || ' accepted the connect request from ' || coalesce(dst_addr, '?') || ' '
           || round((accept_ts - ts_ns) / 1e9, 2) || ' s after RDMA_CM_EVENT_CONNECT_REQUEST'
           || ' (the client''s CM retransmits its REQ after about 4 s and gives up after its retries)' AS message
FROM accepted a
WHERE accept_ts - ts_ns > 1000000000
  AND NOT EXISTS (SELECT 1 FROM cm_events p WHERE p.host <> a.host AND p.cm_event_type IN (6, 7, 8)
                    AND p.src_addr = a.dst_addr AND p.dst_addr = a.src_addr AND p.ts_ns > a.ts_ns AND p.ts_ns < a.accept_ts)
