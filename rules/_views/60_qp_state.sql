-- needs: 00_macros, 40_calls, 50_objects

-- The ibv_qp_attr (and cap) fields whose requested and queried values the state timeline carries
-- are every recorded field of the verbs ABI model (verbs-abi QpField), as a regex alternation from
-- the generated macro _qp_attr_fields().

-- _modify: every ibv_modify_qp with its requested fields as req_<field>.
CREATE TABLE _modify AS
SELECT host, seq, ts_ns, handle, qp_num, ok, ret, errno, errno_name, in_attr_mask AS attr_mask,
       COLUMNS('^in_(' || _qp_attr_fields() || ')$') AS 'req_\1'
FROM _ctl WHERE verb = 'ibv_modify_qp';

-- _query: every successful ibv_query_qp with its returned fields as got_<field>.
CREATE TABLE _query AS
SELECT host, seq AS query_seq, handle,
       COLUMNS('^out_(' || _qp_attr_fields() || ')$') AS 'got_\1'
FROM _ctl WHERE verb = 'ibv_query_qp' AND ok;

-- qp_state_timeline: one row per ibv_modify_qp, with the ibv_query_qp that followed it on the
-- same QP (the recorder queries after every modify): the state before, the state asked for,
-- the state the query saw after, the mask, and each field as requested (req_<field>) and as
-- queried (got_<field>).
CREATE TABLE qp_state_timeline AS
WITH paired AS (
    -- the windows below run on the keys and states only: the modify's and query's fields join back after
    SELECT m.host, m.handle, m.seq, m.ok, m.attr_mask, m.req_qp_state AS _req_state,
           q.query_seq AS _matched_seq, q.query_seq, q.got_qp_state AS _got_state
    FROM _modify m
    ASOF LEFT JOIN _query q ON q.host = m.host AND q.handle = m.handle AND q.query_seq > m.seq),
next_modify AS (
    SELECT *, lead(seq) OVER (PARTITION BY host, handle ORDER BY seq) AS next_modify_seq FROM paired),
bounded AS (
    -- a query after the next modify belongs to that modify, not to this one
    SELECT * REPLACE (CASE WHEN next_modify_seq IS NULL OR query_seq < next_modify_seq THEN query_seq END AS query_seq)
    FROM next_modify),
known AS (
    SELECT b.*,
           CASE WHEN b.query_seq IS NOT NULL THEN b._got_state
                WHEN b.ok AND (b.attr_mask & 1) <> 0 THEN b._req_state END AS _state_after_known
    FROM bounded b),
stated AS (
    SELECT k.*,
           coalesce(last_value(_state_after_known IGNORE NULLS) OVER (PARTITION BY host, handle ORDER BY seq
                        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS from_state
    FROM known k)
SELECT s.host, m.qp_num, s.handle, s.seq, m.ts_ns, s.query_seq, m.ok, m.ret, m.errno, m.errno_name,
       p.qp_type, p.qp_type_name,
       s.attr_mask, flags_attr_mask(s.attr_mask) AS mask_names,
       s.from_state, qp_state_name(s.from_state) AS from_state_name,
       CASE WHEN (s.attr_mask & 1) <> 0 THEN s._req_state ELSE s.from_state END AS to_state,
       qp_state_name(CASE WHEN (s.attr_mask & 1) <> 0 THEN s._req_state ELSE s.from_state END) AS to_state_name,
       coalesce(s._state_after_known, s.from_state) AS state_after,
       qp_state_name(coalesce(s._state_after_known, s.from_state)) AS state_after_name,
       s.query_seq IS NOT NULL AS queried,
       COLUMNS('^(req|got)_')
FROM stated s
JOIN _modify m ON m.host = s.host AND m.seq = s.seq
LEFT JOIN _query q ON q.host = s.host AND q.query_seq = s._matched_seq
LEFT JOIN qps p ON p.host = s.host AND p.handle = s.handle AND p.create_seq < s.seq
               AND (p.destroy_seq IS NULL OR p.destroy_seq > s.seq);

-- qp_settings: per QP, the last value each connection attribute was successfully set to
-- (<field>) and the ibv_modify_qp that set it (<field>_seq). Requested values, not queried:
-- a query after traffic returns the live PSNs. states_reached lists the states the QP was in
-- after its modifies, in the order it first reached them.
CREATE TABLE qp_settings AS
SELECT host, handle, any_value(qp_num) AS qp_num, any_value(qp_type) AS qp_type,
       arg_max(state_after, seq) AS state,
       list(state_after_name ORDER BY seq) FILTER (WHERE first_reach) AS states_reached,
       arg_max(req_path_mtu, seq) FILTER (WHERE ok AND req_path_mtu IS NOT NULL) AS path_mtu,
       max(seq) FILTER (WHERE ok AND req_path_mtu IS NOT NULL) AS path_mtu_seq,
       arg_max(req_rq_psn, seq) FILTER (WHERE ok AND req_rq_psn IS NOT NULL) AS rq_psn,
       max(seq) FILTER (WHERE ok AND req_rq_psn IS NOT NULL) AS rq_psn_seq,
       arg_max(req_sq_psn, seq) FILTER (WHERE ok AND req_sq_psn IS NOT NULL) AS sq_psn,
       max(seq) FILTER (WHERE ok AND req_sq_psn IS NOT NULL) AS sq_psn_seq,
       arg_max(req_dest_qp_num, seq) FILTER (WHERE ok AND req_dest_qp_num IS NOT NULL) AS dest_qp_num,
       max(seq) FILTER (WHERE ok AND req_dest_qp_num IS NOT NULL) AS dest_qp_num_seq,
       arg_max(req_pkey_index, seq) FILTER (WHERE ok AND req_pkey_index IS NOT NULL) AS pkey_index,
       max(seq) FILTER (WHERE ok AND req_pkey_index IS NOT NULL) AS pkey_index_seq,
       arg_max(req_qkey, seq) FILTER (WHERE ok AND req_qkey IS NOT NULL) AS qkey,
       max(seq) FILTER (WHERE ok AND req_qkey IS NOT NULL) AS qkey_seq,
       arg_max(req_qp_access_flags, seq) FILTER (WHERE ok AND req_qp_access_flags IS NOT NULL) AS qp_access_flags,
       max(seq) FILTER (WHERE ok AND req_qp_access_flags IS NOT NULL) AS qp_access_flags_seq,
       arg_max(req_port_num, seq) FILTER (WHERE ok AND req_port_num IS NOT NULL) AS port_num,
       max(seq) FILTER (WHERE ok AND req_port_num IS NOT NULL) AS port_num_seq,
       arg_max(req_min_rnr_timer, seq) FILTER (WHERE ok AND req_min_rnr_timer IS NOT NULL) AS min_rnr_timer,
       max(seq) FILTER (WHERE ok AND req_min_rnr_timer IS NOT NULL) AS min_rnr_timer_seq,
       arg_max(req_timeout, seq) FILTER (WHERE ok AND req_timeout IS NOT NULL) AS timeout,
       max(seq) FILTER (WHERE ok AND req_timeout IS NOT NULL) AS timeout_seq,
       arg_max(req_retry_cnt, seq) FILTER (WHERE ok AND req_retry_cnt IS NOT NULL) AS retry_cnt,
       max(seq) FILTER (WHERE ok AND req_retry_cnt IS NOT NULL) AS retry_cnt_seq,
       arg_max(req_rnr_retry, seq) FILTER (WHERE ok AND req_rnr_retry IS NOT NULL) AS rnr_retry,
       max(seq) FILTER (WHERE ok AND req_rnr_retry IS NOT NULL) AS rnr_retry_seq,
       arg_max(req_max_rd_atomic, seq) FILTER (WHERE ok AND req_max_rd_atomic IS NOT NULL) AS max_rd_atomic,
       arg_max(req_max_dest_rd_atomic, seq) FILTER (WHERE ok AND req_max_dest_rd_atomic IS NOT NULL) AS max_dest_rd_atomic,
       -- the address vector is set as a whole (IBV_QP_AV): its fields come from the same modify
       max(seq) FILTER (WHERE ok AND (attr_mask & 128) <> 0) AS av_seq,
       arg_max(req_is_global, seq) FILTER (WHERE ok AND (attr_mask & 128) <> 0) AS is_global,
       arg_max(req_dgid, seq) FILTER (WHERE ok AND (attr_mask & 128) <> 0) AS dgid,
       arg_max(req_sgid_index, seq) FILTER (WHERE ok AND (attr_mask & 128) <> 0) AS sgid_index,
       arg_max(req_dlid, seq) FILTER (WHERE ok AND (attr_mask & 128) <> 0) AS dlid,
       arg_max(req_hop_limit, seq) FILTER (WHERE ok AND (attr_mask & 128) <> 0) AS hop_limit,
       arg_max(req_sl, seq) FILTER (WHERE ok AND (attr_mask & 128) <> 0) AS sl,
       min(seq) FILTER (WHERE state_after = 2) AS rtr_seq,
       min(ts_ns) FILTER (WHERE state_after = 2) AS rtr_ts_ns,
       min(seq) FILTER (WHERE state_after = 3) AS rts_seq,
       min(ts_ns) FILTER (WHERE state_after = 3) AS rts_ts_ns,
       min(seq) FILTER (WHERE state_after = 6) AS err_seq
FROM (SELECT *, row_number() OVER (PARTITION BY host, handle, state_after ORDER BY seq) = 1 AS first_reach
      FROM qp_state_timeline) t
GROUP BY host, handle;
