-- needs: 00_macros, 05_qp_transitions, 10_hosts, 25_pairing, 30_clock, 40_calls, 50_objects, 60_qp_state, 70_connections

-- Private helpers shared by several rules (names start with '_'; not part of the documented API).

-- ' (injected by --opt value)' when host h ran with override opt, else ''.
CREATE MACRO override_note(h, opt) AS
    coalesce((SELECT ' (injected by ' || name || CASE WHEN value = '' THEN '' ELSE ' ' || value END || ')'
              FROM _override o WHERE o.host = h AND o.name = opt LIMIT 1), '');

-- _probe_calls: calls whose failure is the expected outcome of a deliberate probe, not a fault:
-- those made inside scenario step TC02, the illegal-transition probe; and a failed ibv_create_qp
-- after which the program created a QP of that type on that PD (a limit found by trial, as
-- libfabric's verbs provider bisects max_inline_data with throwaway QPs).
CREATE TABLE _probe_calls AS
WITH bounds AS (
    SELECT host, seq AS start_seq,
           (SELECT min(m2.seq) FROM _mark m2 WHERE m2.host = m.host AND m2.step = 'TC02'
                   AND m2.verdict <> 'INFO' AND m2.seq > m.seq) AS end_seq
    FROM _mark m WHERE step = 'TC02' AND verdict = 'INFO')
SELECT c.host, c.seq
FROM _ctl c JOIN bounds b ON b.host = c.host AND c.seq > b.start_seq AND (b.end_seq IS NULL OR c.seq < b.end_seq)
UNION
SELECT f.host, f.seq
FROM _ctl f
WHERE f.verb = 'ibv_create_qp' AND NOT f.ok
  AND EXISTS (SELECT 1 FROM _ctl s WHERE s.host = f.host AND s.verb = 'ibv_create_qp' AND s.ok AND s.seq > f.seq
                                     AND s.in_pd = f.in_pd AND s.in_qp_type = f.in_qp_type);

-- _port_info: per host and port, the port attributes from the SESSION and from ibv_query_port
-- calls (the SESSION wins); seq is the event that says so.
CREATE TABLE _port_info AS
SELECT host, port_num, arg_min(active_mtu, pri) AS active_mtu, arg_min(max_mtu, pri) AS max_mtu,
       arg_min(link_layer, pri) AS link_layer, arg_min(pkey_tbl_len, pri) AS pkey_tbl_len,
       arg_min(gid_tbl_len, pri) AS gid_tbl_len, arg_min(seq, pri) AS seq
FROM (SELECT host, port_num, active_mtu, max_mtu, link_layer, pkey_tbl_len, gid_tbl_len, seq, 0 AS pri FROM _port
      UNION ALL
      SELECT host, in_port_num, out_active_mtu, out_max_mtu, out_link_layer, out_pkey_tbl_len, out_gid_tbl_len, seq, 1
      FROM _ctl WHERE verb = 'ibv_query_port' AND ok)
WHERE port_num IS NOT NULL
GROUP BY host, port_num;

-- _device_info: per host, device limits from the SESSION.
CREATE TABLE _device_info AS
SELECT host, any_value(seq) AS seq, any_value(phys_port_cnt) AS phys_port_cnt, any_value(max_qp_wr) AS max_qp_wr,
       any_value(max_sge) AS max_sge, any_value(max_cqe) AS max_cqe
FROM _device GROUP BY host;

-- _advertised / _received: the PARAMS each host sent (its own QPN) and received (the peer's
-- QPN), the last one per QPN.
CREATE TABLE _advertised AS
SELECT host, qp_num, max(seq) AS seq, arg_max(psn, seq) AS psn, arg_max(gid, seq) AS gid,
       arg_max(gid_index, seq) AS gid_index, arg_max(path_mtu, seq) AS path_mtu, arg_max(rkey, seq) AS rkey,
       arg_max(addr, seq) AS addr, arg_max(length, seq) AS length, arg_max(pkey_index, seq) AS pkey_index
FROM _oob WHERE direction = 'SENT' AND oob_kind = 'PARAMS' GROUP BY host, qp_num;

CREATE TABLE _received AS
SELECT host, qp_num, max(seq) AS seq, arg_max(psn, seq) AS psn, arg_max(gid, seq) AS gid,
       arg_max(path_mtu, seq) AS path_mtu, arg_max(rkey, seq) AS rkey
FROM _oob WHERE direction = 'RECEIVED' AND oob_kind = 'PARAMS' GROUP BY host, qp_num;

-- _pair: each QP with its peer and both ends' settings (peer columns prefixed p_).
CREATE TABLE _pair AS
SELECT q.pair_id, q.peer_host, q.peer_qp_num, q.peer_handle, s.*, p.*
FROM qp_peers q
JOIN qp_settings s ON s.host = q.host AND s.handle = q.handle
JOIN (SELECT COLUMNS('(.*)') AS 'p_\1' FROM qp_settings) p ON p.p_host = q.peer_host AND p.p_handle = q.peer_handle;

-- _post_stats: the data path summarised once, so rules need not scan every posted work
-- request: one row per (host, QP, queue, opcode, outcome, keys) with counts, first
-- occurrence, lengths and the remote address range touched.
-- The same as grouping the posts view, but the data path's posts are grouped on their own
-- columns first (millions of rows become a few thousand groups) and only then meet the clock
-- offset and the QP handles: a group's QP is its handle's when its first and last post fall in
-- the same _qp_handle interval (a handle's intervals follow each other, so every post between
-- does too); the posts of a group whose handle changed QPs in between are taken one by one.
-- (10M events: the per-post range join and grouping took ~1 s of CPU.)
-- An ibv_post_srq_recv has no QP (qp_num NULL); its SRQ handle is in srq.
CREATE TABLE _post_stats AS
WITH dp AS (
    SELECT host, handle, qp_num, verb, opcode, ret = 0 AS ok, err::INTEGER AS errno, rkey, lkey, remote_qpn,
           count(*) AS n, min(seq) AS first_seq, min(wall_ns) AS first_wall_ns, max(seq) AS last_seq,
           min(length) AS min_length, max(length) AS max_length,
           min(remote_addr) AS min_remote_addr, max(remote_addr + coalesce(length, 0)) AS max_remote_end
    FROM _datapath
    -- verb >= 27 is checked inside the scan (DuckDB checks the IN list only after it): polls stay out
    WHERE kind = 2 AND verb >= 27 AND verb IN (27, 28, 37)
    GROUP BY host, handle, qp_num, verb, opcode, ok, errno, rkey, lkey, remote_qpn),
located AS (
    SELECT g.*, f.create_seq AS first_in, l.create_seq AS last_in, f.qp_num AS handle_qp
    FROM dp g
    LEFT JOIN _qp_handle f ON f.host = g.host AND f.handle = g.handle AND g.first_seq >= f.create_seq AND g.first_seq < f.until_seq
    LEFT JOIN _qp_handle l ON l.host = g.host AND l.handle = g.handle AND g.last_seq >= l.create_seq AND g.last_seq < l.until_seq),
split AS (
    SELECT * FROM located WHERE qp_num IS NULL AND first_in IS DISTINCT FROM last_in),
all_posts AS (
    SELECT g.host, coalesce(g.qp_num, g.handle_qp) AS qp_num, CASE g.verb WHEN 27 THEN 'send' WHEN 28 THEN 'recv' ELSE 'srq' END AS queue,
           CASE WHEN g.verb = 37 THEN g.handle END AS srq, g.opcode, g.ok, g.errno, g.rkey, g.lkey, g.remote_qpn, g.n, g.first_seq, g.first_wall_ns - coalesce(k.offset_ns, 0) AS first_ts_ns,
           g.last_seq, g.min_length, g.max_length, g.min_remote_addr, g.max_remote_end
    FROM located g
    LEFT JOIN host_clock_offset k ON k.host = g.host
    WHERE g.qp_num IS NOT NULL OR g.first_in IS NOT DISTINCT FROM g.last_in
    UNION ALL
    SELECT d.host, q.qp_num, CASE d.verb WHEN 27 THEN 'send' WHEN 28 THEN 'recv' ELSE 'srq' END,
           CASE WHEN d.verb = 37 THEN d.handle END, d.opcode, d.ret = 0, d.err::INTEGER, d.rkey, d.lkey, d.remote_qpn, 1, d.seq, d.wall_ns - coalesce(k.offset_ns, 0),
           d.seq, d.length, d.length, d.remote_addr, d.remote_addr + coalesce(d.length, 0)
    FROM _datapath d
    JOIN split s ON s.host = d.host AND s.handle = d.handle AND s.verb = d.verb AND d.qp_num IS NULL
        AND s.opcode IS NOT DISTINCT FROM d.opcode AND s.ok IS NOT DISTINCT FROM (d.ret = 0)
        AND s.errno IS NOT DISTINCT FROM d.err::INTEGER AND s.rkey IS NOT DISTINCT FROM d.rkey
        AND s.lkey IS NOT DISTINCT FROM d.lkey AND s.remote_qpn IS NOT DISTINCT FROM d.remote_qpn
    LEFT JOIN host_clock_offset k ON k.host = d.host
    LEFT JOIN _qp_handle q ON q.host = d.host AND q.handle = d.handle AND d.seq >= q.create_seq AND d.seq < q.until_seq
    WHERE d.kind = 2 AND d.verb >= 27 AND d.verb IN (27, 28, 37)
    UNION ALL
    -- posts with attributes the data-path table has no column for (as in the posts view)
    SELECT host, qp_num, CASE verb WHEN 'ibv_post_send' THEN 'send' WHEN 'ibv_post_recv' THEN 'recv' ELSE 'srq' END,
           CASE WHEN verb = 'ibv_post_srq_recv' THEN handle END, in_wr_opcode, ok, errno, in_rkey, in_lkey, in_remote_qpn, 1, seq, ts_ns, seq, in_length, in_length,
           in_remote_addr, in_remote_addr + coalesce(in_length, 0)
    FROM _ctl
    WHERE verb IN ('ibv_post_send', 'ibv_post_recv', 'ibv_post_srq_recv'))
SELECT host, qp_num, queue, srq, opcode, ok, errno, rkey, lkey, remote_qpn,
       sum(n)::BIGINT AS n, min(first_seq) AS first_seq, min(first_ts_ns) AS first_ts_ns, max(last_seq) AS last_seq,
       min(min_length) AS min_length, max(max_length) AS max_length,
       min(min_remote_addr) AS min_remote_addr, max(max_remote_end) AS max_remote_end
FROM all_posts
GROUP BY host, qp_num, queue, srq, opcode, ok, errno, rkey, lkey, remote_qpn;

-- _completion_stats: completions summarised per (host, QP, status).
CREATE TABLE _completion_stats AS
SELECT host, qp_num, status, count(*) AS n, min(seq) AS first_seq, min(ts_ns) AS first_ts_ns,
       arg_min(wr_id, seq) AS first_wr_id, arg_min(vendor_err, seq) AS first_vendor_err
FROM completions
GROUP BY host, qp_num, status;

-- _first_send: per QP, the first successful send, and the first one that consumes a receive at
-- the peer: SEND(2), SEND_WITH_IMM(3), SEND_WITH_INV(9), RDMA_WRITE_WITH_IMM(1).
CREATE TABLE _first_send AS
SELECT host, qp_num, min(first_seq) AS seq, min(first_ts_ns) AS ts_ns,
       min(first_seq) FILTER (WHERE opcode IN (1, 2, 3, 9)) AS recv_consuming_seq,
       min(first_ts_ns) FILTER (WHERE opcode IN (1, 2, 3, 9)) AS recv_consuming_ts_ns
FROM _post_stats WHERE queue = 'send' AND ok GROUP BY host, qp_num;

-- _first_recv: per QP, the first successful ibv_post_recv; for a QP that receives from an SRQ
-- (ibv_srq_pingpong, middleware sharing one receive pool), the first ibv_post_srq_recv to that
-- SRQ while the SRQ existed (posts counts the SRQ's posts, shared by its QPs).
CREATE TABLE _first_recv AS
SELECT host, qp_num, min(seq) AS seq, min(ts_ns) AS ts_ns, sum(posts) AS posts, bool_or(via_srq) AS via_srq
FROM (SELECT host, qp_num, first_seq AS seq, first_ts_ns AS ts_ns, n AS posts, false AS via_srq
      FROM _post_stats WHERE queue = 'recv' AND ok
      UNION ALL
      SELECT q.host, q.qp_num, p.first_seq, p.first_ts_ns, p.n, true
      FROM qps q
      JOIN objects s ON s.host = q.host AND s.object_kind = 'srq' AND s.handle = q.srq AND s.created
                    AND s.create_seq < q.create_seq AND (s.destroy_seq IS NULL OR s.destroy_seq > q.create_seq)
      JOIN _post_stats p ON p.host = q.host AND p.queue = 'srq' AND p.ok AND p.srq = q.srq
                        AND p.first_seq > s.create_seq AND (s.destroy_seq IS NULL OR p.first_seq < s.destroy_seq)
      WHERE q.srq IS NOT NULL AND q.srq <> 0)
GROUP BY host, qp_num;

-- _qp_error: the first moment each QP was in error: a modify to ERR, the first completion
-- with an error status other than a flush, an overrun of its CQ, or a QP error event.
CREATE TABLE _qp_error AS
SELECT host, qp_num, min(seq) AS seq, arg_min(ts_ns, seq) AS ts_ns, arg_min(what, seq) AS what
FROM (SELECT host, qp_num, seq, ts_ns, 'ibv_modify_qp to ERR' AS what FROM qp_state_timeline WHERE ok AND to_state = 6
      UNION ALL
      SELECT host, qp_num, first_seq, first_ts_ns, 'completion ' || enum_wc_status(status)
      FROM _completion_stats WHERE status NOT IN (0, 5)
      UNION ALL
      SELECT q.host, q.qp_num, a.seq, a.ts_ns, 'IBV_EVENT_CQ_ERR on its CQ'
      FROM async_events a JOIN qps q ON q.host = a.host AND (q.send_cq = a.element OR q.recv_cq = a.element)
      WHERE a.event_type = 0
      UNION ALL
      SELECT host, qp_num, seq, ts_ns, 'IBV_EVENT_' || event_name FROM async_events
      WHERE event_type IN (1, 2, 3) AND qp_num IS NOT NULL)
GROUP BY host, qp_num;

-- _bad_sgid: QPs whose address vector sources packets from a GID a RoCE v2 peer cannot answer:
-- an index not in the table, a link-local GID or a non-RoCE-v2 entry (when the port has a
-- routable RoCE v2 GID). Only judged when the SESSION recorded the GID table.
CREATE TABLE _bad_sgid AS
WITH av AS (
    SELECT s.host, s.handle, s.qp_num, s.av_seq, s.sgid_index, s.port_num, p.link_layer
    FROM qp_settings s
    LEFT JOIN _port_info p ON p.host = s.host AND p.port_num = coalesce(s.port_num, 1)
    WHERE s.av_seq IS NOT NULL AND coalesce(s.is_global, false)),
source AS (
    SELECT av.*, g.gid, g.gid_type, g.gid_type_name, g.link_local, g.seq AS gid_seq,
           EXISTS (SELECT 1 FROM gids g2 WHERE g2.host = av.host AND g2.gid_type = 2 AND NOT g2.link_local) AS has_v2
    FROM av
    LEFT JOIN gids g ON g.host = av.host AND g.port_num = coalesce(av.port_num, 1) AND g.gid_index = av.sgid_index
    WHERE EXISTS (SELECT 1 FROM gids g3 WHERE g3.host = av.host))
SELECT host, handle, qp_num, av_seq, coalesce(gid_seq, 0) AS gid_seq, sgid_index, gid, gid_type_name, link_local,
       CASE WHEN gid IS NULL THEN 'GID index ' || sgid_index || ' is not in the port''s GID table'
            WHEN link_local THEN 'GID index ' || sgid_index || ' is the link-local GID ' || gid || ' (' || gid_type_name || ')'
            ELSE 'GID index ' || sgid_index || ' is a ' || gid_type_name || ' GID (' || gid || ')' END AS detail
FROM source
WHERE (gid IS NULL OR ((link_local OR gid_type <> 2) AND has_v2)) AND coalesce(link_layer, 2) = 2;

-- _bad_ah_sgid: address handles (ibv_create_ah, for UD sends) that source packets from such a GID,
-- judged as _bad_sgid judges QPs' address vectors, one row per host and GID index (UCX's ud_verbs
-- addresses every peer with one AH per endpoint, from UCX_IB_GID_INDEX).
CREATE TABLE _bad_ah_sgid AS
WITH ah AS (
    SELECT c.host, c.seq, c.in_sgid_index AS sgid_index, coalesce(c.in_ah_port_num, 1) AS port_num, p.link_layer
    FROM _ctl c
    LEFT JOIN _port_info p ON p.host = c.host AND p.port_num = coalesce(c.in_ah_port_num, 1)
    WHERE c.verb = 'ibv_create_ah' AND c.ok AND coalesce(c.in_is_global, false) AND c.in_sgid_index IS NOT NULL),
source AS (
    SELECT ah.*, g.gid, g.gid_type, g.gid_type_name, g.link_local, g.seq AS gid_seq,
           EXISTS (SELECT 1 FROM gids g2 WHERE g2.host = ah.host AND g2.gid_type = 2 AND NOT g2.link_local) AS has_v2
    FROM ah
    LEFT JOIN gids g ON g.host = ah.host AND g.port_num = ah.port_num AND g.gid_index = ah.sgid_index
    WHERE EXISTS (SELECT 1 FROM gids g3 WHERE g3.host = ah.host))
SELECT host, sgid_index, min(seq) AS av_seq, count(*) AS n, coalesce(min(gid_seq), 0) AS gid_seq,
       any_value(gid) AS gid, any_value(gid_type_name) AS gid_type_name, bool_or(link_local) AS link_local
FROM source
WHERE (gid IS NULL OR ((link_local OR gid_type <> 2) AND has_v2)) AND coalesce(link_layer, 2) = 2
GROUP BY host, sgid_index;

-- _modify_check: each QP-state modify checked against the transition table for its QP type.
CREATE TABLE _modify_check AS
SELECT t.*,
       m.qp_type IS NOT NULL AS legal,
       m.required_mask, m.allowed_mask,
       coalesce(m.required_mask & ~t.attr_mask, 0) AS missing_mask,
       coalesce(t.attr_mask & ~m.allowed_mask, 0) AS forbidden_mask,
       EXISTS (SELECT 1 FROM _probe_calls p WHERE p.host = t.host AND p.seq = t.seq) AS probe
FROM qp_state_timeline t
LEFT JOIN qp_transition_mask m ON m.qp_type = t.qp_type_name AND m.from_state = t.from_state_name
                              AND m.to_state = t.to_state_name
WHERE t.qp_type_name IN (SELECT DISTINCT qp_type FROM qp_transition);

-- _failed_calls: every failed verbs call verb-failed reports (control path and data path), with the
-- fields it explains them by; a plain view, so its gate (`when`) costs a short query, not a table.
-- Not failures: the TC02 illegal-transition probe's calls, ENODATA from ibv_query_gid(_ex) on an
-- empty GID table slot, and EAGAIN from reading an empty non-blocking event channel.
CREATE VIEW _failed_calls AS
SELECT host, seq, verb, handle, qp_num, errno, errno_name, ret, in_attr_mask, in_access, in_cqe,
       in_max_send_wr, in_max_recv_wr, in_max_send_sge, in_max_recv_sge, in_num_sge, in_qp_type,
       in_path_mtu, in_port_num, in_timeout
FROM _ctl c
WHERE NOT ok AND NOT EXISTS (SELECT 1 FROM _probe_calls p WHERE p.host = c.host AND p.seq = c.seq)
  -- enumerating the GID table: an empty slot answers ENODATA, which is not a failure
  AND NOT (verb IN ('ibv_query_gid', 'ibv_query_gid_ex') AND errno = 61)
  -- a non-blocking event channel with nothing to read answers EAGAIN (UCX polls its channels so)
  AND NOT (verb IN ('ibv_get_cq_event', 'ibv_get_async_event', 'rdma_get_cm_event') AND errno = 11)
UNION ALL
SELECT d.host, d.seq, v.name, d.handle, coalesce(d.qp_num, q.qp_num), d.err::INTEGER, errno_name(d.err), d.ret,
       NULL, NULL, NULL, NULL, NULL, NULL, NULL, CASE WHEN d.verb = 22 THEN NULL ELSE d.count1 END,
       NULL, NULL, NULL, NULL
-- failed data-path calls, filtered before any join (22 = ibv_poll_cq, which returns a count):
-- in two conjunctive halves, which DuckDB checks inside the scan of the compressed columns (the
-- one condition with an OR was checked after the scan had read 7 columns of every poll)
FROM (SELECT * FROM _datapath WHERE kind = 2 AND ret < 0
      UNION ALL
      SELECT * FROM _datapath WHERE kind = 2 AND ret > 0 AND verb <> 22) d
JOIN _verb v ON v.code = d.verb
LEFT JOIN _qp_handle q ON q.host = d.host AND q.handle = d.handle AND d.seq >= q.create_seq AND d.seq < q.until_seq;
