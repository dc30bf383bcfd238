-- needs: 00_macros, 40_calls, 50_objects, 60_qp_state

-- qp_final_state: per created QP, the state it ended in. Start from its last ibv_modify_qp
-- (the state ibv_query_qp saw after it, else the state asked for); when an error completion, a
-- flushed work request, a QP error event or an overrun of its CQ came after that modify, the QP
-- is in ERR (SQE for a send error on UC/UD, whose receive side keeps working).
CREATE TABLE qp_final_state AS
WITH last_modify AS (
    SELECT host, handle, max(seq) AS seq, arg_max(state_after, seq) AS state, arg_max(queried, seq) AS queried
    FROM qp_state_timeline WHERE ok OR queried GROUP BY host, handle),
errors AS (
    SELECT host, qp_num, seq, 'completion ' || enum_wc_status(status) AS what,
           status <> 5 AND NOT is_recv AS send_error
    FROM completions WHERE status <> 0
    UNION ALL
    SELECT host, qp_num, seq, 'IBV_EVENT_' || event_name, false FROM async_events
    WHERE event_type IN (1, 2, 3) AND qp_num IS NOT NULL
    UNION ALL
    SELECT q.host, q.qp_num, a.seq, 'IBV_EVENT_CQ_ERR on its CQ', false
    FROM async_events a JOIN qps q ON q.host = a.host AND (q.send_cq = a.element OR q.recv_cq = a.element)
    WHERE a.event_type = 0),
first_error AS (
    SELECT q.host, q.handle, min(e.seq) AS seq, arg_min(e.what, e.seq) AS what, arg_min(e.send_error, e.seq) AS send_error
    FROM qps q
    LEFT JOIN last_modify m ON m.host = q.host AND m.handle = q.handle
    JOIN errors e ON e.host = q.host AND e.qp_num = q.qp_num AND e.seq > coalesce(m.seq, q.create_seq)
                 AND (q.destroy_seq IS NULL OR e.seq < q.destroy_seq)
    WHERE coalesce(m.state, 0) NOT IN (0, 5, 6)
    GROUP BY q.host, q.handle)
SELECT q.host, q.qp_num, q.handle,
       CASE WHEN f.seq IS NOT NULL THEN CASE WHEN f.send_error AND q.qp_type IN (3, 4) THEN 5 ELSE 6 END
            ELSE coalesce(m.state, 0) END AS state,
       qp_state_name(CASE WHEN f.seq IS NOT NULL THEN CASE WHEN f.send_error AND q.qp_type IN (3, 4) THEN 5 ELSE 6 END
                          ELSE coalesce(m.state, 0) END) AS state_name,
       coalesce(f.seq, m.seq, q.create_seq) AS seq,
       CASE WHEN f.seq IS NOT NULL THEN 'inferred' WHEN m.queried THEN 'queried'
            WHEN m.seq IS NOT NULL THEN 'requested' ELSE 'created' END AS source,
       f.what
FROM qps q
LEFT JOIN last_modify m ON m.host = q.host AND m.handle = q.handle
LEFT JOIN first_error f ON f.host = q.host AND f.handle = q.handle;
