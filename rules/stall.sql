-- id: stall
-- severity: error
-- role: consequence
-- title: A QP has work outstanding and no completion for seconds
-- explanation: Verbs complete in microseconds, so a QP whose posted work requests stay without a
--   completion for stall_after_ns() (5 s) is hung: its sends wait for an acknowledgement that
--   does not come (the peer is not in RTR, drops the packets, has no receive posted and RNR
--   retries forever), or its receives wait for a first message the peer never sends. Counted:
--   signaled sends (every send with sq_sig_all) and receives accepted by the device, against the
--   completions polled for the QP. A QP waits from its first outstanding request or its last
--   completion, whichever is later, until the trace's present: the time a trace still being
--   written was read, else its last event (its END). Receives alone make a stall only on a QP
--   in RTR or RTS that never completed anything (a bring-up that hangs): a working QP idles with
--   receives posted, and one still in INIT waits for its program's own connection set-up (a
--   server whose client has not come), not for the wire. QPs destroyed or in ERR are not stalled (they failed, and other rules say why). The
--   message names what each side last did: the QP's state, its peer's state, posts and
--   completions and the peer's last control call.
-- fix: Follow the peer: the cause findings about this connection (PSNs, MTUs, GIDs, QPNs, a
--   receive never posted) say why it does not answer. With none, check that the peer reached RTR
--   (its state below), that its packets arrive (tcpdump udp port 4791 on both hosts) and that its
--   program is not itself blocked elsewhere.
-- when: SELECT 1 FROM qps WHERE destroy_seq IS NULL LIMIT 1
WITH live AS (   -- QPs never destroyed and not in error, with their host's present on the aligned clock
    SELECT q.host, q.qp_num, q.handle, coalesce(q.sq_sig_all, false) AS sig_all,
           h.now_wall_ns - coalesce(k.offset_ns, 0) AS now_ts, h.status = 'RECORDING' AS recording,
           f.state_name
    FROM qps q
    JOIN hosts h ON h.host = q.host
    LEFT JOIN host_clock_offset k ON k.host = q.host
    LEFT JOIN qp_final_state f ON f.host = q.host AND f.handle = q.handle
    WHERE q.destroy_seq IS NULL AND h.readable AND h.now_wall_ns IS NOT NULL AND coalesce(f.state, 0) NOT IN (5, 6)),
wrs AS (   -- the requests that will complete, numbered per queue in posting order
    SELECT w.host, w.qp_num, w.queue, w.seq, w.ts_ns,
           row_number() OVER (PARTITION BY w.host, w.qp_num, w.queue ORDER BY w.seq, w.wr_index) AS n
    FROM work_requests w JOIN live l ON l.host = w.host AND l.qp_num = w.qp_num
    WHERE w.accepted AND w.queue IN ('send', 'recv')
      AND (w.queue = 'recv' OR l.sig_all OR (coalesce(w.send_flags, 0) & 2) <> 0)),
posted AS (
    SELECT host, qp_num, queue, count(*) AS wrs FROM wrs GROUP BY host, qp_num, queue),
done AS (
    SELECT c.host, c.qp_num, CASE WHEN c.is_recv THEN 'recv' ELSE 'send' END AS queue,
           count(*) AS completed, max(c.ts_ns) AS last_ts
    FROM completions c JOIN live l ON l.host = c.host AND l.qp_num = c.qp_num
    GROUP BY c.host, c.qp_num, queue),
waiting AS (   -- per queue with requests outstanding: how many, since which request, for how long
    SELECT p.host, p.qp_num, p.queue, p.wrs - coalesce(d.completed, 0) AS outstanding, w.seq AS first_seq,
           l.now_ts - greatest(w.ts_ns, coalesce(d.last_ts, w.ts_ns)) AS waited_ns
    FROM posted p
    JOIN live l ON l.host = p.host AND l.qp_num = p.qp_num
    LEFT JOIN done d ON d.host = p.host AND d.qp_num = p.qp_num AND d.queue = p.queue
    JOIN wrs w ON w.host = p.host AND w.qp_num = p.qp_num AND w.queue = p.queue AND w.n = coalesce(d.completed, 0) + 1
    WHERE p.wrs > coalesce(d.completed, 0)),
stalled AS (
    SELECT l.host, l.qp_num, l.handle, l.recording, l.state_name,
           s.outstanding AS sends, s.first_seq AS send_seq, s.waited_ns AS send_waited,
           r.outstanding AS recvs, r.first_seq AS recv_seq, r.waited_ns AS recv_waited,
           coalesce(d.completed, 0) AS completed
    FROM live l
    LEFT JOIN waiting s ON s.host = l.host AND s.qp_num = l.qp_num AND s.queue = 'send'
    LEFT JOIN waiting r ON r.host = l.host AND r.qp_num = l.qp_num AND r.queue = 'recv'
    LEFT JOIN (SELECT host, qp_num, sum(completed) AS completed FROM done GROUP BY host, qp_num) d
           ON d.host = l.host AND d.qp_num = l.qp_num
    WHERE s.waited_ns >= stall_after_ns()
       OR (r.waited_ns >= stall_after_ns() AND coalesce(d.completed, 0) = 0 AND l.state_name IN ('RTR', 'RTS'))),
peer_last AS (   -- the peer QP's last control-path call
    SELECT p.host, p.qp_num, max(c.seq) AS seq, arg_max(c.verb, c.seq) AS verb
    FROM qp_peers p JOIN _ctl c ON c.host = p.peer_host AND c.qp_num = p.peer_qp_num
    WHERE p.host IN (SELECT host FROM stalled)
    GROUP BY p.host, p.qp_num),
peer_work AS (
    SELECT p.host, p.qp_num,
           coalesce(sum(ps.n) FILTER (WHERE ps.queue = 'send' AND ps.ok), 0) AS sends,
           coalesce(sum(ps.n) FILTER (WHERE ps.queue = 'recv' AND ps.ok), 0) AS recvs
    FROM qp_peers p LEFT JOIN _post_stats ps ON ps.host = p.peer_host AND ps.qp_num = p.peer_qp_num
    WHERE p.host IN (SELECT host FROM stalled)
    GROUP BY p.host, p.qp_num),
peer_done AS (
    SELECT p.host, p.qp_num, coalesce(sum(cs.n), 0) AS completed
    FROM qp_peers p LEFT JOIN _completion_stats cs ON cs.host = p.peer_host AND cs.qp_num = p.peer_qp_num
    WHERE p.host IN (SELECT host FROM stalled)
    GROUP BY p.host, p.qp_num)
SELECT s.host, s.qp_num::BIGINT AS qp,
       list_filter([ev(s.host, coalesce(s.send_seq, s.recv_seq)), ev(p.peer_host, pl.seq)],
                   lambda e: e.seq IS NOT NULL) AS evidence,
       s.host || ' QP ' || hex24(s.qp_num)
           || CASE WHEN s.send_waited >= stall_after_ns()
                   THEN ' has ' || s.sends || ' send(s) outstanding with no completion for '
                        || printf('%.1f', s.send_waited / 1e9) || ' s (the first posted at ' || s.host || '#' || s.send_seq || ')'
                   ELSE ' waits for its first message: ' || s.recvs || ' receive(s) posted, none completed for '
                        || printf('%.1f', s.recv_waited / 1e9) || ' s (since ' || s.host || '#' || s.recv_seq || ')' END
           || CASE WHEN s.recording THEN ', still recording' ELSE ' when the trace ended' END
           || '; it is in ' || coalesce(s.state_name, 'RESET')
           || CASE WHEN s.send_waited >= stall_after_ns() AND s.recvs IS NOT NULL
                   THEN ', with ' || s.recvs || ' receive(s) outstanding' ELSE '' END
           || CASE WHEN p.peer_host IS NULL
                   THEN '; no loaded trace has its peer QP'
                        || coalesce(' (dest_qp_num ' || hex24(qs.dest_qp_num) || ')', '')
                   ELSE '; its peer ' || p.peer_host || ' QP ' || hex24(p.peer_qp_num) || ' is in ' || coalesce(pf.state_name, 'RESET')
                        || ', posted ' || pw.sends || ' send(s) and ' || pw.recvs || ' receive(s), completed ' || pd.completed
                        || coalesce(', last call ' || pl.verb || ' at ' || p.peer_host || '#' || pl.seq, '') END AS message
FROM stalled s
LEFT JOIN qp_peers p ON p.host = s.host AND p.handle = s.handle
LEFT JOIN qp_final_state pf ON pf.host = p.peer_host AND pf.handle = p.peer_handle
LEFT JOIN peer_last pl ON pl.host = s.host AND pl.qp_num = s.qp_num
LEFT JOIN peer_work pw ON pw.host = s.host AND pw.qp_num = s.qp_num
LEFT JOIN peer_done pd ON pd.host = s.host AND pd.qp_num = s.qp_num
LEFT JOIN qp_settings qs ON qs.host = s.host AND qs.handle = s.handle
