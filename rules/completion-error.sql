-- id: completion-error
-- severity: error
-- role: consequence
-- title: Work completed with an error status
-- explanation: The first error completion of each QP is the one that matters (after it the QP
--   is in ERR and everything else flushes). The message names the status and ranks its
--   possible causes: first those this trace has evidence for (with the evidence), then the
--   others the status can mean but nothing in the trace supports. Flushes after the program
--   ended an rdma_cm connection (rdma_disconnect, a DISCONNECTED event) are not reported.
-- fix: Fix the first cause with evidence; the matching finding (psn-misaligned,
--   recv-not-posted, mr-access-missing, ...) says how.
-- when: SELECT 1 FROM _completion_stats WHERE status <> 0 LIMIT 1
WITH first_error_any AS (
    SELECT host, qp_num,
           coalesce(min(first_seq) FILTER (WHERE status <> 5), min(first_seq)) AS seq,
           coalesce(min(first_ts_ns) FILTER (WHERE status <> 5), min(first_ts_ns)) AS ts_ns,
           coalesce(arg_min(status, first_seq) FILTER (WHERE status <> 5), 5) AS status,
           coalesce(arg_min(first_wr_id, first_seq) FILTER (WHERE status <> 5), arg_min(first_wr_id, first_seq)) AS wr_id,
           coalesce(arg_min(first_vendor_err, first_seq) FILTER (WHERE status <> 5), 0) AS vendor_err,
           coalesce(sum(n) FILTER (WHERE status <> 5), 0) AS errors,
           coalesce(sum(n) FILTER (WHERE status = 5), 0) AS flushes
    FROM _completion_stats WHERE status <> 0 GROUP BY host, qp_num),
-- work flushed after the program ended its rdma_cm connection (rdma_disconnect, DISCONNECTED)
-- is the teardown's expected outcome, not an error
first_error AS (
    SELECT f.* FROM first_error_any f
    WHERE NOT (f.errors = 0 AND EXISTS (SELECT 1 FROM _cm_teardown t
                                        WHERE t.host = f.host AND t.qp_num = f.qp_num
                                          AND (t.seq < f.seq OR t.ts_ns <= f.ts_ns)))),
-- what each status can mean, in the order an engineer would check it
possible(status, rank, cause, text) AS (VALUES
    (12, 1, 'psn', 'the PSNs do not line up'),
    (12, 2, 'mtu', 'the path MTU differs between the ends or exceeds the link'),
    (12, 3, 'dest', 'packets go to the wrong QP number or GID'),
    (12, 4, 'not_ready', 'the peer QP was not in RTR yet'),
    (12, 5, 'peer_error', 'the peer QP was in error or destroyed'),
    (12, 6, 'timeout', 'the ACK timeout is too short'),
    (12, 7, 'link', 'packets were lost on the link (a verbs trace cannot show this)'),
    (13, 1, 'no_recv', 'the peer had no receive posted'),
    (13, 2, 'rnr_retry', 'rnr_retry is too small to wait for the receiver'),
    (10, 1, 'mr_rights', 'the peer MR lacks the remote access right'),
    (10, 2, 'rkey', 'the rkey is not a registered MR of the peer'),
    (10, 3, 'range', 'the remote address range is outside the peer MR'),
    (10, 4, 'qp_rights', 'the peer QP access flags do not allow the operation'),
    (9, 0, 'psn', 'the PSNs do not line up (a sender behind its peer: duplicates, then a message without its start)'),
    (9, 1, 'qp_rights', 'the peer QP access flags do not allow the operation'),
    (9, 2, 'too_long', 'the message is longer than the peer receive buffer'),
    (9, 3, 'mtu', 'the path MTUs differ, so packets of the wrong size are refused'),
    (4, 1, 'lkey', 'the lkey does not belong to a registered MR'),
    (1, 1, 'short_recv', 'the receive buffer is smaller than the message'),
    (5, 1, 'own_error', 'this QP had already failed (an error event or its CQ overran)'),
    (5, 2, 'moved_to_err', 'the QP was moved to ERR before the work completed'),
    (5, 3, 'peer_error', 'the peer QP was in error or destroyed'),
    (11, 1, 'peer_recv_bad', 'the peer receive work request is malformed (bad lkey)')),
status_text(status, text) AS (VALUES
    (1, 'local length error'), (2, 'local QP operation error'), (4, 'local protection error'),
    (5, 'work request flushed'), (7, 'bad response error'), (8, 'local access error'),
    (9, 'remote invalid request error'), (10, 'remote access error'), (11, 'remote operation error'),
    (12, 'transport retry counter exceeded'), (13, 'RNR retry counter exceeded'), (19, 'fatal error'),
    (20, 'response timeout error'), (21, 'general error')),
send_len AS (SELECT host, qp_num, max(max_length) AS length FROM _post_stats WHERE queue = 'send' AND ok GROUP BY ALL),
recv_len AS (SELECT host, qp_num, min(min_length) AS length FROM _post_stats WHERE queue = 'recv' AND ok GROUP BY ALL),
remote_ops AS (
    SELECT p.host, p.qp_num, p.rkey, x.peer_host, min(p.first_seq) AS seq, min(p.min_remote_addr) AS min_addr,
           max(p.max_remote_end) AS max_end,
           bit_or(CASE WHEN p.opcode IN (0, 1) THEN 2 WHEN p.opcode = 4 THEN 4 ELSE 8 END) AS needed
    FROM _post_stats p JOIN qp_peers x ON x.host = p.host AND x.qp_num = p.qp_num
    WHERE p.queue = 'send' AND p.opcode IN (0, 1, 4, 5, 6)
    GROUP BY p.host, p.qp_num, p.rkey, x.peer_host),
-- since_ns: when the evidence became true on the aligned clock (NULL: a setting, true from the start),
-- before_ns: evidence that counts only if it happened clearly before the error (a peer's teardown)
evidence(host, qp_num, cause, detail, evs, since_ns, before_ns) AS (
    SELECT host, qp_num, 'psn', 'sq_psn ' || hex24(sq_psn) || ', peer rq_psn ' || hex24(p_rq_psn),
           [ev(host, sq_psn_seq), ev(p_host, p_rq_psn_seq)], NULL, NULL
    FROM _pair WHERE sq_psn <> p_rq_psn
    UNION ALL
    SELECT a.host, a.qp_num, 'psn', 'peer sq_psn ' || hex24(a.p_sq_psn) || ', this rq_psn ' || hex24(a.rq_psn),
           [ev(a.p_host, a.p_sq_psn_seq), ev(a.host, a.rq_psn_seq)], NULL, NULL
    FROM _pair a WHERE a.p_sq_psn <> a.rq_psn
    UNION ALL
    SELECT host, qp_num, 'mtu', 'path MTU ' || mtu_bytes(path_mtu) || ' vs peer ' || mtu_bytes(p_path_mtu),
           [ev(host, path_mtu_seq), ev(p_host, p_path_mtu_seq)], NULL, NULL
    FROM _pair WHERE path_mtu <> p_path_mtu
    UNION ALL
    SELECT s.host, s.qp_num, 'mtu', 'path MTU ' || mtu_bytes(s.path_mtu) || ' above the active MTU ' || mtu_bytes(p.active_mtu),
           [ev(s.host, s.path_mtu_seq), ev(s.host, p.seq)], NULL, NULL
    FROM qp_settings s JOIN _port_info p ON p.host = s.host AND p.port_num = coalesce(s.port_num, 1)
    WHERE s.path_mtu > p.active_mtu
    UNION ALL
    SELECT host, qp_num, 'dest', 'dest_qp_num ' || hex24(dest_qp_num) || ' but the peer is ' || hex24(p_qp_num),
           [ev(host, dest_qp_num_seq)], NULL, NULL
    FROM _pair WHERE dest_qp_num <> p_qp_num
    UNION ALL
    SELECT host, qp_num, 'dest', 'source ' || detail, [ev(host, av_seq), ev(host, gid_seq)], NULL, NULL
    FROM _bad_sgid
    UNION ALL
    SELECT a.host, a.qp_num, 'dest', 'dgid ' || a.dgid || ' is not a GID of ' || a.p_host, [ev(a.host, a.av_seq)], NULL, NULL
    FROM _pair a WHERE a.dgid IS NOT NULL AND EXISTS (SELECT 1 FROM gids g WHERE g.host = a.p_host)
         AND NOT EXISTS (SELECT 1 FROM gids g WHERE g.host = a.p_host AND g.gid = a.dgid)
    UNION ALL
    SELECT a.host, a.qp_num, 'not_ready', 'first send ' || round((a.p_rtr_ts_ns - f.ts_ns) / 1e6, 3) || ' ms before the peer RTR',
           [ev(a.host, f.seq), ev(a.p_host, a.p_rtr_seq)], NULL, NULL
    FROM _pair a JOIN _first_send f ON f.host = a.host AND f.qp_num = a.qp_num
    -- later than the first send beyond the two clocks' error (a recorded program's unknown clock: never)
    WHERE a.p_rtr_ts_ns IS NULL OR a.p_rtr_ts_ns > f.ts_ns + clock_slack_ns()
          + (SELECT coalesce(sum(k.uncertainty_ns), 0) FROM host_clock_offset k WHERE k.host IN (a.host, a.p_host))
    UNION ALL
    SELECT a.host, a.qp_num, 'peer_error', 'peer QP in error since ' || e.host || '#' || e.seq || ' (' || e.what || ')',
           [ev(e.host, e.seq)], e.ts_ns, NULL
    FROM _pair a JOIN _qp_error e ON e.host = a.p_host AND e.qp_num = a.p_qp_num
    UNION ALL
    SELECT a.host, a.qp_num, 'peer_error', 'peer QP destroyed at ' || q.host || '#' || q.destroy_seq, [ev(q.host, q.destroy_seq)],
           NULL, o.destroy_ts_ns
    FROM _pair a JOIN qps q ON q.host = a.p_host AND q.handle = a.p_handle
    JOIN objects o ON o.host = q.host AND o.handle = q.handle AND o.create_seq = q.create_seq
    WHERE q.destroy_seq IS NOT NULL
    UNION ALL
    SELECT host, qp_num, 'timeout', 'ACK timeout ' || timeout || ' (' || round(ack_timeout_ms(timeout), 3) || ' ms)',
           [ev(host, timeout_seq)], NULL, NULL
    FROM qp_settings WHERE timeout BETWEEN 1 AND 7
    UNION ALL
    SELECT a.host, a.qp_num, 'no_recv',
           CASE WHEN r.seq IS NULL THEN 'the peer never posted a receive'
                ELSE 'the peer posted its first receive ' || round((r.ts_ns - f.recv_consuming_ts_ns) / 1e6, 3)
                     || ' ms after the first send' END,
           list_filter([ev(a.host, f.recv_consuming_seq), ev(a.p_host, r.seq)], lambda e: e.seq IS NOT NULL), NULL, NULL
    FROM _pair a JOIN _first_send f ON f.host = a.host AND f.qp_num = a.qp_num
    LEFT JOIN _first_recv r ON r.host = a.p_host AND r.qp_num = a.p_qp_num
    WHERE f.recv_consuming_seq IS NOT NULL AND (r.seq IS NULL OR r.ts_ns > f.recv_consuming_ts_ns + clock_slack_ns()
          + (SELECT coalesce(sum(k.uncertainty_ns), 0) FROM host_clock_offset k WHERE k.host IN (a.host, a.p_host)))
    UNION ALL
    SELECT host, qp_num, 'rnr_retry', 'rnr_retry ' || rnr_retry, [ev(host, rnr_retry_seq)], NULL, NULL
    FROM qp_settings WHERE rnr_retry < 7
    UNION ALL
    SELECT o.host, o.qp_num, 'mr_rights', 'peer MR rkey 0x' || lower(hex(m.rkey)) || ' has ' || m.access_names,
           [ev(o.host, o.seq), ev(m.host, m.create_seq)], NULL, NULL
    FROM remote_ops o JOIN mrs m ON m.host = o.peer_host AND m.rkey = o.rkey
    WHERE (m.access & o.needed) <> o.needed
    UNION ALL
    SELECT o.host, o.qp_num, 'rkey', 'rkey 0x' || lower(hex(o.rkey)) || ' is no MR of ' || o.peer_host,
           [ev(o.host, o.seq)], NULL, NULL
    FROM remote_ops o
    WHERE EXISTS (SELECT 1 FROM mrs m WHERE m.host = o.peer_host)
      AND NOT EXISTS (SELECT 1 FROM mrs m WHERE m.host = o.peer_host AND m.rkey = o.rkey)
    UNION ALL
    SELECT o.host, o.qp_num, 'range', 'remote address outside the peer MR', [ev(o.host, o.seq), ev(m.host, m.create_seq)],
           NULL, NULL
    FROM remote_ops o JOIN mrs m ON m.host = o.peer_host AND m.rkey = o.rkey
    WHERE o.min_addr < m.addr OR o.max_end > m.addr + m.length
    UNION ALL
    SELECT a.host, a.qp_num, 'qp_rights', 'peer qp_access_flags ' || flags_access(a.p_qp_access_flags),
           [ev(a.p_host, a.p_qp_access_flags_seq)], NULL, NULL
    FROM _pair a JOIN remote_ops o ON o.host = a.host AND o.qp_num = a.qp_num
    WHERE (a.p_qp_access_flags & o.needed) <> o.needed
    UNION ALL
    SELECT a.host, a.qp_num, 'too_long', 'sends up to ' || s.length || ' bytes, peer receives ' || r.length,
           []::STRUCT(host VARCHAR, seq BIGINT)[], NULL, NULL
    FROM _pair a JOIN send_len s ON s.host = a.host AND s.qp_num = a.qp_num
    JOIN recv_len r ON r.host = a.p_host AND r.qp_num = a.p_qp_num WHERE s.length > r.length
    UNION ALL
    SELECT a.host, a.qp_num, 'short_recv', 'receives ' || r.length || ' bytes, peer sends up to ' || s.length,
           []::STRUCT(host VARCHAR, seq BIGINT)[], NULL, NULL
    FROM _pair a JOIN recv_len r ON r.host = a.host AND r.qp_num = a.qp_num
    JOIN send_len s ON s.host = a.p_host AND s.qp_num = a.p_qp_num WHERE s.length > r.length
    UNION ALL
    SELECT p.host, p.qp_num, 'lkey', 'lkey 0x' || lower(hex(p.lkey)) || ' is no MR of ' || p.host,
           [ev(p.host, min(p.first_seq))], NULL, NULL
    FROM _post_stats p
    WHERE p.lkey IS NOT NULL AND EXISTS (SELECT 1 FROM mrs m WHERE m.host = p.host)
      AND NOT EXISTS (SELECT 1 FROM mrs m WHERE m.host = p.host AND m.lkey = p.lkey)
    GROUP BY p.host, p.qp_num, p.lkey
    UNION ALL
    SELECT a.host, a.qp_num, 'own_error', 'IBV_EVENT_' || a.event_name || ' at ' || a.host || '#' || a.seq,
           [ev(a.host, a.seq)], a.ts_ns, NULL
    FROM async_events a WHERE a.event_type IN (1, 2, 3) AND a.qp_num IS NOT NULL
    UNION ALL
    SELECT q.host, q.qp_num, 'own_error', 'IBV_EVENT_CQ_ERR on its CQ at ' || a.host || '#' || a.seq, [ev(a.host, a.seq)],
           a.ts_ns, NULL
    FROM async_events a JOIN qps q ON q.host = a.host AND (q.send_cq = a.element OR q.recv_cq = a.element)
    WHERE a.event_type = 0
    UNION ALL
    SELECT host, qp_num, 'moved_to_err', 'ibv_modify_qp to ERR at ' || host || '#' || seq, [ev(host, seq)], ts_ns, NULL
    FROM qp_state_timeline WHERE ok AND to_state = 6),
ranked AS (
    SELECT e.host, e.qp_num, e.seq, e.status, e.wr_id, e.vendor_err, e.errors, e.flushes,
           p.rank, p.text, string_agg(DISTINCT v.detail, '; ') AS detail,
           flatten(list(v.evs) FILTER (WHERE v.evs IS NOT NULL)) AS evs,
           count(v.cause) > 0 AS supported
    FROM first_error e
    LEFT JOIN possible p ON p.status = e.status
    LEFT JOIN evidence v ON v.host = e.host AND v.qp_num = e.qp_num AND v.cause = p.cause
                        -- evidence that became true later cannot be the cause (within the clock's error)
                        AND (v.since_ns IS NULL OR v.since_ns <= e.ts_ns + clock_slack_ns()
                             + (SELECT coalesce(max(uncertainty_ns), 0) FROM host_clock_offset))
                        AND (v.before_ns IS NULL OR v.before_ns < e.ts_ns - clock_slack_ns()
                             - (SELECT coalesce(max(uncertainty_ns), 0) FROM host_clock_offset))
    GROUP BY e.host, e.qp_num, e.seq, e.status, e.wr_id, e.vendor_err, e.errors, e.flushes, p.rank, p.text)
SELECT r.host, r.qp_num::BIGINT AS qp,
       list_concat([ev(r.host, r.seq)], flatten(list(r.evs ORDER BY r.rank) FILTER (WHERE r.supported))) AS evidence,
       enum_wc_status(r.status) || coalesce(' (' || any_value(t.text) || ')', '') || ' on ' || r.host
           || ' QP ' || hex24(r.qp_num) || ', wr_id 0x' || lower(hex(r.wr_id))
           || CASE r.status
                   WHEN 12 THEN coalesce(' after ' || (SELECT arg_max(s.retry_cnt, s.handle) FROM qp_settings s
                                                      WHERE s.host = r.host AND s.qp_num = r.qp_num) || ' retries (retry_cnt)', '')
                   WHEN 13 THEN coalesce(' after ' || (SELECT arg_max(s.rnr_retry, s.handle) FROM qp_settings s
                                                      WHERE s.host = r.host AND s.qp_num = r.qp_num) || ' RNR retries (rnr_retry)', '')
                   ELSE '' END
           || CASE WHEN r.vendor_err <> 0 THEN ', vendor_err 0x' || lower(hex(r.vendor_err)) ELSE '' END
           || CASE WHEN r.errors > 1 OR r.flushes > 0
                   THEN ' (' || concat_ws(', ', CASE WHEN r.errors > 1 THEN 'first of ' || r.errors || ' errors' END,
                                          CASE WHEN r.flushes > 0 THEN r.flushes || ' flushed' END) || ')'
                   ELSE '' END
           || coalesce('; likely: ' || string_agg(r.text || ' [' || r.detail || ']', '; ' ORDER BY r.rank)
                       FILTER (WHERE r.supported), '; no cause found in this trace')
           || coalesce('; other possible causes, not supported by this trace: '
                       || string_agg(r.text, '; ' ORDER BY r.rank) FILTER (WHERE NOT r.supported AND r.text IS NOT NULL), '')
           || CASE WHEN NOT EXISTS (SELECT 1 FROM qp_peers x WHERE x.host = r.host AND x.qp_num = r.qp_num)
                   THEN '; the peer''s trace is not loaded, so its side was not checked' ELSE '' END
           AS message
FROM ranked r
LEFT JOIN status_text t ON t.status = r.status
GROUP BY r.host, r.qp_num, r.seq, r.status, r.wr_id, r.vendor_err, r.errors, r.flushes
