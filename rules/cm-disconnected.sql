-- id: cm-disconnected
-- severity: error
-- role: cause
-- title: The peer ended an rdma_cm connection while sends were still in flight
-- explanation: RDMA_CM_EVENT_DISCONNECTED on an id the program had not disconnected itself
--   means the peer called rdma_disconnect (a DREQ arrived) or its CM timed the connection out
--   (the peer process exited, its host went away). The CM moves the QP to ERR, so every work
--   request still queued completes with IBV_WC_WR_FLUSH_ERR: sends this program posted before
--   the event never reached the peer. (Receives left posted at the end flush as well; they are
--   not counted.)
-- fix: Agree on the end of the exchange before disconnecting: the side that disconnects first
--   should wait for its last receive (or an application-level "done" message) so the peer's
--   sends have completed; a peer that vanished needs its own trace or log to say why.
-- when: SELECT 1 FROM cm_events LIMIT 1
WITH disc AS (
    SELECT e.host, e.seq, e.ts_ns, e.cm_id, e.qp_num, e.src_addr, e.dst_addr
    FROM cm_events e
    WHERE e.cm_event_type = 10 AND e.qp_num IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM _ctl c WHERE c.host = e.host AND c.in_cm_id = e.cm_id
                        AND c.verb = 'rdma_disconnect' AND (c.seq < e.seq OR c.ts_ns <= e.ts_ns))),
-- the posts of the QPs that got the event, gated by it before they meet the completions below:
-- on a trace without one (no rdma_cm) this is empty after the first chunk of the data path,
-- whichever join order DuckDB picks for flushed (with the posts as a join's build side, a
-- 10M-event trace paid ~1.5 s of CPU for no row, in some runs and not others)
disc_posts AS (
    SELECT p.host, p.qp_num, p.queue, p.ok, p.wr_id, p.seq
    FROM posts p
    WHERE EXISTS (SELECT 1 FROM disc d WHERE d.host = p.host AND d.qp_num = p.qp_num)),
flushed AS (
    -- flushed completions of work requests posted to the send queue before the event. Programs
    -- often give sends and receives the same wr_id (rping: 0), and a flushed completion's opcode
    -- is not defined by the verbs: only a completion that is not a receive's, with a wr_id no
    -- receive on that QP used, counts as a send (the receives left posted at the end flush too)
    SELECT d.host, d.seq, count(*) AS n, min(w.seq) AS f_seq, arg_min(w.wr_id, w.seq) AS f_wr_id
    FROM disc d
    JOIN completions w ON w.host = d.host AND w.qp_num = d.qp_num AND w.seq > d.seq AND w.status = 5
    WHERE NOT coalesce(w.is_recv, false)
      AND EXISTS (SELECT 1 FROM disc_posts p WHERE p.host = w.host AND p.qp_num = w.qp_num AND p.queue = 'send'
                    AND p.ok AND p.wr_id = w.wr_id AND p.seq < d.seq)
      AND NOT EXISTS (SELECT 1 FROM disc_posts p WHERE p.host = w.host AND p.qp_num = w.qp_num AND p.queue <> 'send'
                        AND p.wr_id = w.wr_id AND p.seq < d.seq)
    GROUP BY d.host, d.seq),
peer AS (
    -- the peer's rdma_disconnect of this connection: its id's addresses are ours, reversed
    SELECT d.host, d.seq, arg_min(c.host, c.ts_ns) AS p_host, arg_min(c.seq, c.ts_ns) AS p_seq
    FROM disc d
    JOIN _ctl c ON c.host <> d.host AND c.verb = 'rdma_disconnect' AND c.in_src_addr = d.dst_addr AND c.in_dst_addr = d.src_addr
    GROUP BY d.host, d.seq)
SELECT d.host, d.qp_num::BIGINT AS qp,
       list_filter([ev(p.p_host, p.p_seq), ev(d.host, d.seq), ev(d.host, f.f_seq)], lambda e: e.seq IS NOT NULL) AS evidence,
       d.host || '''s connection to ' || coalesce(d.dst_addr, '?') || ' (QP ' || hex24(d.qp_num) || ') got RDMA_CM_EVENT_DISCONNECTED'
           || coalesce(': ' || p.p_host || ' called rdma_disconnect', ' without an rdma_disconnect in any loaded trace (the peer exited or its CM timed out)')
           || ' while ' || f.n || ' send(s) were in flight; they completed IBV_WC_WR_FLUSH_ERR (first wr_id ' || f.f_wr_id || ')' AS message
FROM disc d JOIN flushed f USING (host, seq) LEFT JOIN peer p USING (host, seq)
