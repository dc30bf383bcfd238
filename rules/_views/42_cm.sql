-- needs: 30_clock, 40_calls

-- cm_events: one row per event rdma_get_cm_event returned to a recorded program (the tracing
-- librdmacm; format 1.2). The rdma_* calls themselves are rows of calls (verb 'rdma_...').
CREATE TABLE cm_events AS
SELECT c.host, c.seq, c.wall_ns - coalesce(k.offset_ns, 0) AS ts_ns, c.thread_id,
       c.event_code AS cm_event_type, replace(enum_cm_event_type(c.event_code), 'RDMA_CM_EVENT_', '') AS event_name,
       c.status AS cm_status, c.id AS cm_id, c.listen_id, c.qp_num, c.port_space, c.src_addr, c.dst_addr,
       c.reject_reason, c.private_data_len, c.private_data, c.responder_resources, c.initiator_depth,
       c.retry_count, c.rnr_retry_count, c.peer_qp_num, c.qkey
FROM _cm_event c LEFT JOIN host_clock_offset k USING (host);

-- _cm_qp: which QP each rdma_cm id carries (rdma_create_qp / rdma_create_ep, or an event's id).
CREATE TABLE _cm_qp AS
SELECT DISTINCT host, cm_id, qp_num FROM (
    SELECT host, in_cm_id AS cm_id, out_qp_num AS qp_num FROM _ctl
    WHERE verb IN ('rdma_create_qp', 'rdma_create_qp_ex') AND ok
    UNION ALL SELECT host, out_cm_id, out_qp_num FROM _ctl WHERE verb = 'rdma_create_ep' AND ok
    UNION ALL SELECT host, cm_id, qp_num FROM cm_events)
WHERE cm_id IS NOT NULL AND qp_num IS NOT NULL;

-- _cm_teardown: per QP of an rdma_cm id, the first event that ends its connection: the
-- program's rdma_disconnect / rdma_destroy_qp / rdma_destroy_id, or a DISCONNECTED event; by
-- seq and by time (a call is recorded when it returns, dated when it began: work another thread
-- polled meanwhile can have the lower seq but the later time).
CREATE TABLE _cm_teardown AS
SELECT q.host, q.qp_num, min(x.seq) AS seq, min(x.ts_ns) AS ts_ns
FROM _cm_qp q
JOIN (SELECT host, seq, ts_ns, in_cm_id AS cm_id FROM _ctl
      WHERE verb IN ('rdma_disconnect', 'rdma_destroy_qp', 'rdma_destroy_id', 'rdma_destroy_ep')
      UNION ALL SELECT host, seq, ts_ns, cm_id FROM cm_events WHERE cm_event_type = 10) x
  ON x.host = q.host AND x.cm_id = q.cm_id
GROUP BY q.host, q.qp_num;

-- _cm_nested: verbs calls librdmacm made on the program's behalf: on the same thread, inside an
-- rdma_* call or an rdma_get_cm_event that returned an event (the QP transitions of
-- rdma_accept / rdma_connect, with the kernel CM's values).
CREATE TABLE _cm_nested AS
WITH span AS (
    SELECT host, thread_id, mono_ns AS start_ns, mono_ns + duration_ns AS end_ns FROM _ctl
    WHERE verb LIKE 'rdma_%' AND duration_ns > 0
    UNION ALL
    -- an event is dated when rdma_get_cm_event returned it, after waiting `duration`
    SELECT host, thread_id, mono_ns - duration, mono_ns FROM _cm_event WHERE duration > 0)
SELECT DISTINCT c.host, c.seq
FROM _ctl c JOIN span s ON s.host = c.host AND s.thread_id = c.thread_id
                       AND c.mono_ns >= s.start_ns AND c.mono_ns <= s.end_ns
WHERE c.verb NOT LIKE 'rdma_%';

-- _cm_connect: per id, the last rdma_connect / rdma_resolve_addr / rdma_resolve_route call
-- before each CM event on it (the call the event answers).
CREATE MACRO _cm_call_before(h, id, s, fn) AS (
    SELECT max(c.seq) FROM _ctl c WHERE c.host = h AND c.in_cm_id = id AND c.verb = fn AND c.seq < s);

-- _cm_addr_host: the address part of an address text ('127.1.2.3:7000' -> '127.1.2.3').
CREATE MACRO _cm_addr_host(a) AS regexp_extract(a, '^\[?(.*?)\]?:[0-9]+$', 1);

-- _cm_pdata_text: private data as ASCII text when it is printable (trailing NULs dropped), else NULL.
CREATE MACRO _cm_pdata_text(hexdata) AS
    CASE WHEN hexdata IS NOT NULL
              AND regexp_matches(regexp_replace(lower(hexdata), '(00)+$', ''), '^([2-6][0-9a-f]|7[0-9a-e])+$')
         THEN decode(unhex(regexp_replace(lower(hexdata), '(00)+$', ''))) END;
