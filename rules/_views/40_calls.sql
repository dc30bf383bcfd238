-- needs: 25_pairing, 30_clock

-- _call_ok: per verb, whether a call succeeded is "ret = 0" or "ret >= 0" (ibv_poll_cq
-- returns a count).
CREATE MACRO _call_ok(verb_name, r) AS (r = 0 OR (verb_name = 'ibv_poll_cq' AND r >= 0));

-- _ctl: the control-path calls (everything but the data-path calls stored in _datapath),
-- with names, aligned time and QP number; small, so computed once. It is the loaded _call table
-- itself, given the computed columns in place and renamed: copying _call's ~350 columns (most
-- of them NULL in every row) into a new table cost 65-240 ms on 1,000 QPs, adding five columns
-- and setting them from a narrow table of their values 25-45 ms. A view over a narrow table
-- instead made the rules slower (each scan paid the join). Every call's verb has a name (the
-- trace reader rejects unknown codes), so the inner join drops no row, as the copy's did not.
CREATE TABLE _ctl_computed AS
SELECT c.rowid AS call_row, c.wall_ns - coalesce(k.offset_ns, 0) AS ts_ns, v.name AS verb,
       errno_name(c.errno) AS errno_name, _call_ok(v.name, c.ret) AS ok,
       coalesce(c.in_qp_num, CASE WHEN v.name = 'ibv_create_qp' THEN c.out_qp_num END, q.qp_num) AS qp_num
FROM _call c
JOIN _verb v ON v.code = c.verb
LEFT JOIN host_clock_offset k ON k.host = c.host
LEFT JOIN _qp_handle q ON q.host = c.host AND q.handle = c.handle AND c.seq >= q.create_seq AND c.seq < q.until_seq;

-- (the types are those the expressions above give; the analyzer's tests compare them)
ALTER TABLE _call ADD COLUMN ts_ns BIGINT;
ALTER TABLE _call ADD COLUMN verb_name VARCHAR;
ALTER TABLE _call ADD COLUMN errno_name VARCHAR;
ALTER TABLE _call ADD COLUMN ok BOOLEAN;
ALTER TABLE _call ADD COLUMN qp_num INTEGER;

UPDATE _call SET ts_ns = n.ts_ns, verb_name = n.verb, errno_name = n.errno_name, ok = n.ok, qp_num = n.qp_num
FROM _ctl_computed n
WHERE _call.rowid = n.call_row;

DROP TABLE _ctl_computed;

-- _ctl.verb is the name, as the rules expect; the code stays as verb_code for the _call view.
ALTER TABLE _call RENAME COLUMN verb TO verb_code;
ALTER TABLE _call RENAME COLUMN verb_name TO verb;
ALTER TABLE _call RENAME TO _ctl;

-- _call: the loaded calls as the loader stored them (a base table users' rules may read),
-- with exactly its columns, in their order.
CREATE VIEW _call AS
SELECT host, seq, mono_ns, wall_ns, thread_id, verb_code AS verb, handle, ret, errno, duration_ns, COLUMNS('^(in|out)_')
FROM _ctl;

-- _dp_calls: the data-path calls (posts and polls) with the same leading columns as _ctl and
-- their attributes under their in_/out_ names again (see BaseTables.DATAPATH for the layout).
CREATE VIEW _dp_calls AS
SELECT d.host, d.seq, d.mono_ns, d.wall_ns, d.wall_ns - coalesce(k.offset_ns, 0) AS ts_ns, d.thread_id,
       v.name AS verb, d.handle, d.ret, d.err::INTEGER AS errno, errno_name(d.err) AS errno_name,
       _call_ok(v.name, d.ret) AS ok, d.duration_ns, coalesce(d.qp_num, q.qp_num) AS qp_num,
       d.qp_num AS in_qp_num, d.wr_id AS in_wr_id, d.opcode AS in_wr_opcode, d.flags AS in_send_flags,
       CASE WHEN v.name = 'ibv_poll_cq' THEN NULL ELSE d.count1 END AS in_num_sge,
       CASE WHEN v.name = 'ibv_poll_cq' THEN NULL ELSE d.count2 END AS in_wr_count,
       d.length AS in_length, d.addr AS in_addr, d.lkey AS in_lkey, d.remote_addr AS in_remote_addr,
       d.rkey AS in_rkey, d.imm_data AS in_imm_data, d.remote_qpn AS in_remote_qpn, d.remote_qkey AS in_remote_qkey,
       d.ah AS in_ah, d.bad_wr_index AS out_bad_wr_index,
       CASE WHEN v.name = 'ibv_poll_cq' THEN d.count1 END AS in_num_entries,
       CASE WHEN v.name = 'ibv_poll_cq' THEN d.count2 END AS out_polled
FROM _datapath d
JOIN _verb v ON v.code = d.verb
LEFT JOIN host_clock_offset k ON k.host = d.host
LEFT JOIN _qp_handle q ON q.host = d.host AND q.handle = d.handle AND d.seq >= q.create_seq AND d.seq < q.until_seq
WHERE d.kind = 2;

-- calls: one row per verbs call. in_<attr>/out_<attr> hold every attribute of the dictionary
-- (see the attrs view); qp_num is the QP the call is about (created or passed), if any.
-- (_ctl's columns listed: its computed ones come last in the table, and it keeps verb_code)
CREATE VIEW calls AS
SELECT host, seq, mono_ns, wall_ns, ts_ns, thread_id, verb, handle, ret, errno, errno_name, ok, duration_ns, qp_num,
       COLUMNS('^(in|out)_')
FROM _ctl
UNION ALL BY NAME
SELECT * FROM _dp_calls;

-- completions: one row per work completion returned by ibv_poll_cq.
CREATE VIEW completions AS
SELECT d.host, d.seq, d.mono_ns, d.wall_ns, d.wall_ns - coalesce(k.offset_ns, 0) AS ts_ns, d.thread_id,
       d.handle AS cq, d.wr_id, d.ret AS status, d.ret = 0 AS ok,
       d.opcode, d.opcode >= 128 AS is_recv,
       d.err AS vendor_err, d.length AS byte_len, d.imm_data,
       d.qp_num, d.remote_qpn AS src_qp, d.flags::INTEGER AS wc_flags,
       (d.wc_extra & 65535)::INTEGER AS pkey_index, ((d.wc_extra >> 16) & 65535)::INTEGER AS slid,
       ((d.wc_extra >> 32) & 255)::INTEGER AS sl, ((d.wc_extra >> 40) & 255)::INTEGER AS dlid_path_bits
FROM _datapath d
LEFT JOIN host_clock_offset k ON k.host = d.host
WHERE d.kind = 3;

-- posts: one row per ibv_post_send / ibv_post_recv / ibv_post_srq_recv call, with the first
-- work request's fields (read straight from the data-path table: rules scan it often; 27, 28, 37
-- are the trace format's stable codes of ibv_post_send, ibv_post_recv, ibv_post_srq_recv).
CREATE VIEW posts AS
SELECT d.host, d.seq, d.wall_ns - coalesce(k.offset_ns, 0) AS ts_ns, coalesce(d.qp_num, q.qp_num) AS qp_num, d.handle,
       CASE d.verb WHEN 27 THEN 'send' WHEN 28 THEN 'recv' ELSE 'srq' END AS queue,
       d.ret = 0 AS ok, d.err::INTEGER AS errno, errno_name(d.err) AS errno_name,
       d.wr_id, d.opcode, d.flags AS send_flags, d.count1 AS num_sge, d.length, d.addr, d.lkey, d.remote_addr, d.rkey,
       d.imm_data, d.remote_qpn, coalesce(d.count2, 1) AS wr_count, d.bad_wr_index,
       d.remote_qkey, d.ah, NULL::BIGINT AS compare_add, NULL::BIGINT AS swap
FROM _datapath d
LEFT JOIN host_clock_offset k ON k.host = d.host
LEFT JOIN _qp_handle q ON q.host = d.host AND q.handle = d.handle AND d.seq >= q.create_seq AND d.seq < q.until_seq
-- (verb >= 27 is checked inside the scan, the IN list only after it: polls are dropped in the scan)
WHERE d.kind = 2 AND d.verb >= 27 AND d.verb IN (27, 28, 37)
UNION ALL
SELECT host, seq, ts_ns, qp_num, handle,
       CASE verb WHEN 'ibv_post_send' THEN 'send' WHEN 'ibv_post_recv' THEN 'recv' ELSE 'srq' END,
       ok, errno, errno_name, in_wr_id, in_wr_opcode, in_send_flags, in_num_sge, in_length, in_addr, in_lkey,
       in_remote_addr, in_rkey, in_imm_data, in_remote_qpn, coalesce(in_wr_count, 1), out_bad_wr_index,
       in_remote_qkey, in_ah, in_compare_add, in_swap
FROM _ctl
WHERE verb IN ('ibv_post_send', 'ibv_post_recv', 'ibv_post_srq_recv');

-- work_requests: one row per work request of every post: each request of the chain when the
-- trace recorded one (format 1.1: a post of several requests, or of one with several SGEs),
-- else the one request the post's own row describes (a format-1.0 trace of a longer list knows
-- only its first request; posts.wr_count says how many there were).
CREATE VIEW work_requests AS
SELECT p.host, p.seq, p.ts_ns, p.qp_num, p.queue, p.ok, w.wr_index,
       p.ok OR w.wr_index < coalesce(p.bad_wr_index, 0) AS accepted,
       w.wr_id, w.wr_opcode AS opcode, w.send_flags, w.num_sge, w.total_length AS length, w.remote_addr, w.rkey,
       w.imm_data, w.compare_add, w.swap, w.ah, w.remote_qpn, w.remote_qkey
FROM posts p JOIN _wr w ON w.host = p.host AND w.seq = p.seq
UNION ALL
SELECT p.host, p.seq, p.ts_ns, p.qp_num, p.queue, p.ok, 0, p.ok,
       p.wr_id, p.opcode, p.send_flags, p.num_sge, CASE WHEN p.num_sge > 0 THEN p.length ELSE 0 END, p.remote_addr,
       p.rkey, p.imm_data, p.compare_add, p.swap, p.ah, p.remote_qpn, p.remote_qkey
FROM posts p
WHERE p.wr_count > 0 AND NOT EXISTS (SELECT 1 FROM _wr w WHERE w.host = p.host AND w.seq = p.seq);

-- sges: one row per scatter/gather element of every posted request (as work_requests).
CREATE VIEW sges AS
SELECT p.host, p.seq, p.qp_num, p.queue, s.wr_index, s.sge_index, s.addr, s.length, s.lkey
FROM posts p JOIN _sge s ON s.host = p.host AND s.seq = p.seq
UNION ALL
SELECT p.host, p.seq, p.qp_num, p.queue, 0, 0, p.addr, p.length, p.lkey
FROM posts p
WHERE p.num_sge > 0 AND p.addr IS NOT NULL AND NOT EXISTS (SELECT 1 FROM _wr w WHERE w.host = p.host AND w.seq = p.seq);

-- async_events: one row per asynchronous event.
CREATE TABLE async_events AS
SELECT a.host, a.seq, a.wall_ns - coalesce(k.offset_ns, 0) AS ts_ns, a.event_type,
       replace(enum_event_type(a.event_type), 'IBV_EVENT_', '') AS event_name,
       a.element, CASE WHEN a.qp_num >= 0 THEN a.qp_num END AS qp_num
FROM _async a LEFT JOIN host_clock_offset k USING (host);

-- marks: scenario step boundaries and verdicts.
CREATE TABLE marks AS
SELECT m.host, m.seq, m.wall_ns - coalesce(k.offset_ns, 0) AS ts_ns, m.step, m.verdict, m.text
FROM _mark m LEFT JOIN host_clock_offset k USING (host);

-- counters: device counters at START and END, one row per counter; delta = END - START on END rows.
CREATE TABLE counters AS
SELECT host, seq, device, phase, name, value,
       CASE WHEN phase = 'END' THEN value - first_value(value) OVER (PARTITION BY host, device, name ORDER BY seq) END AS delta
FROM _counter;

-- events: every event of every host with the columns all kinds share; name says what it is
-- (the verb, the completion status number, the async event, the OOB message, the step).
CREATE VIEW events AS
WITH e AS (
    SELECT host, seq, 'SESSION' AS kind, 'SESSION' AS name, mono_ns, wall_ns, thread_id FROM _session
    UNION ALL SELECT host, seq, 'CALL', verb, mono_ns, wall_ns, thread_id FROM _ctl
    UNION ALL SELECT d.host, d.seq, CASE d.kind WHEN 2 THEN 'CALL' ELSE 'COMPLETION' END,
                     CASE d.kind WHEN 2 THEN v.name ELSE 'status ' || d.ret END,
                     d.mono_ns, d.wall_ns, d.thread_id
              FROM _datapath d LEFT JOIN _verb v ON v.code = d.verb
    UNION ALL SELECT host, seq, 'ASYNC_EVENT', 'event ' || event_type, mono_ns, wall_ns, thread_id FROM _async
    UNION ALL SELECT host, seq, 'OOB', direction || ' ' || oob_kind, mono_ns, wall_ns, thread_id FROM _oob
    UNION ALL SELECT host, seq, 'MARK', step || ' ' || verdict, mono_ns, wall_ns, thread_id FROM _mark
    UNION ALL SELECT host, seq, 'COUNTERS', any_value(phase), any_value(mono_ns), any_value(wall_ns), any_value(thread_id)
              FROM _counter GROUP BY host, seq
    UNION ALL SELECT host, seq, 'END', 'END', mono_ns, wall_ns, thread_id FROM _end
    UNION ALL SELECT host, seq, 'CM_EVENT', replace(enum_cm_event_type(event_code), 'RDMA_CM_EVENT_', ''),
                     mono_ns, wall_ns, thread_id FROM _cm_event
    UNION ALL SELECT host, seq, 'PACKET', direction || ' ' || opcode_name || coalesce(' ' || reason, ''),
                     mono_ns, wall_ns, thread_id FROM _sv_packet)
SELECT e.host, e.seq, e.kind, e.name, e.mono_ns, e.wall_ns, e.wall_ns - coalesce(k.offset_ns, 0) AS ts_ns,
       e.thread_id, t.thread_name
FROM e
LEFT JOIN host_clock_offset k ON k.host = e.host
LEFT JOIN _thread t ON t.host = e.host AND t.thread_id = e.thread_id;

-- attrs: the attribute dictionary (every in_/out_ column of calls is in_<name>/out_<name>).
CREATE VIEW attrs AS SELECT name, code, kind, sql_type, description FROM _attr;
