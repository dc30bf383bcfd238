-- id: verb-failed
-- severity: error
-- role: consequence
-- title: A verbs call failed
-- explanation: Every failed call (ret != 0, or NULL for a create call) is reported with its
--   errno and the likely cause found in the trace: the QP state at the time, the attribute
--   mask against the transition table, device and port limits, the MR access flags. Expected
--   failures are not reported: the TC02 illegal-transition probe, an ibv_create_qp the program
--   followed with a successful one on the same PD (a limit found by trial), ENODATA from
--   ibv_query_gid(_ex) on an empty GID table slot, and EAGAIN from ibv_get_cq_event,
--   ibv_get_async_event or rdma_get_cm_event on a non-blocking channel with no event yet.
-- fix: See the likely cause in the message; the more specific findings on the same event
--   (illegal-attr-mask, grh-missing, queue-full, ...) say what to change.
-- when: SELECT 1 FROM _failed_calls LIMIT 1
WITH failed AS (SELECT * FROM _failed_calls),
with_state AS (
    -- the QP state when the call was made: the state after the last modify before it
    SELECT f.*, t.state_after AS qp_state
    FROM failed f
    ASOF LEFT JOIN (SELECT host, handle, seq, state_after FROM qp_state_timeline) t
        ON t.host = f.host AND t.handle = f.handle AND f.seq > t.seq),
explained AS (
    SELECT w.*,
        CASE
        WHEN w.verb = 'ibv_modify_qp' AND m.seq IS NOT NULL AND NOT m.legal THEN
            m.from_state_name || '->' || m.to_state_name || ' is not a legal transition (illegal-transition-rejected)'
        WHEN w.verb = 'ibv_modify_qp' AND m.missing_mask <> 0 THEN
            'the mask lacks ' || flags_attr_mask(m.missing_mask) || ', required for ' || m.from_state_name
            || '->' || m.to_state_name || ' (illegal-attr-mask)'
        WHEN w.verb = 'ibv_modify_qp' AND m.forbidden_mask <> 0 THEN
            'the mask sets ' || flags_attr_mask(m.forbidden_mask) || ', not allowed for ' || m.from_state_name
            || '->' || m.to_state_name || ' (illegal-attr-mask)'
        WHEN w.verb = 'ibv_modify_qp' AND (w.in_attr_mask & 128) <> 0 AND NOT coalesce(m.req_is_global, false)
             AND pi.link_layer = 2 THEN
            'the address vector has no GRH on a RoCE port (grh-missing)'
        WHEN w.verb = 'ibv_modify_qp' AND w.in_path_mtu > pi.max_mtu THEN
            'path_mtu ' || mtu_bytes(w.in_path_mtu) || ' is above the port max_mtu ' || mtu_bytes(pi.max_mtu)
        WHEN w.verb = 'ibv_modify_qp' AND m.req_pkey_index >= pi.pkey_tbl_len THEN
            'pkey_index ' || m.req_pkey_index || ' is outside the ' || pi.pkey_tbl_len || '-entry P_Key table (pkey-index)'
        WHEN w.verb = 'ibv_modify_qp' AND (w.in_attr_mask & 32) <> 0 AND (w.in_port_num < 1 OR w.in_port_num > d.phys_port_cnt) THEN
            'port ' || w.in_port_num || ' does not exist (the device has ' || d.phys_port_cnt || ')'
        WHEN w.verb = 'ibv_modify_qp' AND w.in_timeout > 31 THEN 'timeout ' || w.in_timeout || ' is above 31'
        WHEN w.verb = 'ibv_modify_qp' AND m.req_sgid_index IS NOT NULL
             AND NOT EXISTS (SELECT 1 FROM gids g WHERE g.host = w.host AND g.gid_index = m.req_sgid_index)
             AND EXISTS (SELECT 1 FROM gids g WHERE g.host = w.host) THEN
            'sgid_index ' || m.req_sgid_index || ' is not in the GID table (gid-index)'
        WHEN lim.exceeded IS NOT NULL THEN lim.exceeded || ' (limit-exceeded)'
        WHEN w.verb = 'ibv_modify_qp' THEN
            'the device refused one of the requested values (compare the req_ columns of qp_state_timeline)'
            || coalesce('; within the limits: ' || lim.checked, '')
        WHEN w.verb = 'ibv_post_send' AND w.errno = 12 THEN 'the send queue is full (queue-full)'
        WHEN w.verb = 'ibv_post_recv' AND w.errno = 12 THEN 'the receive queue is full (queue-full)'
        WHEN w.verb = 'ibv_post_send' AND w.qp_state IS NOT NULL AND w.qp_state <> 3 THEN
            'the QP was in ' || qp_state_name(w.qp_state) || '; sends need RTS'
        WHEN w.verb = 'ibv_post_recv' AND w.qp_state = 0 THEN 'the QP was in RESET; receives need INIT or later'
        WHEN w.verb = 'ibv_post_send' AND w.in_num_sge > q.max_send_sge THEN
            w.in_num_sge || ' SGEs exceed max_send_sge ' || q.max_send_sge
        WHEN w.verb = 'ibv_post_recv' AND w.in_num_sge > q.max_recv_sge THEN
            w.in_num_sge || ' SGEs exceed max_recv_sge ' || q.max_recv_sge
        WHEN w.verb = 'ibv_reg_mr' AND w.errno = 22 AND (w.in_access & 10) <> 0 AND (w.in_access & 1) = 0 THEN
            'remote write/atomic access needs IBV_ACCESS_LOCAL_WRITE too (' || flags_access(w.in_access) || ')'
        WHEN w.verb = 'ibv_reg_mr' AND w.errno = 95 THEN
            'the device does not support an access flag in ' || flags_access(w.in_access)
        WHEN w.verb = 'ibv_reg_mr' AND w.errno IN (12, 14) THEN
            'the buffer could not be pinned (RLIMIT_MEMLOCK, or an invalid address range)'
        WHEN w.verb = 'ibv_create_cq' AND (w.in_cqe < 1 OR w.in_cqe > d.max_cqe) THEN
            'cqe ' || w.in_cqe || ' is outside 1..' || d.max_cqe || ' (device max_cqe)'
        WHEN w.verb = 'ibv_create_qp' AND (w.in_max_send_wr > d.max_qp_wr OR w.in_max_recv_wr > d.max_qp_wr) THEN
            'a queue depth (' || w.in_max_send_wr || '/' || w.in_max_recv_wr || ') exceeds max_qp_wr ' || d.max_qp_wr
        WHEN w.verb = 'ibv_create_qp' AND (w.in_max_send_sge > d.max_sge OR w.in_max_recv_sge > d.max_sge) THEN
            'an SGE count exceeds max_sge ' || d.max_sge
        WHEN w.verb = 'ibv_create_qp' AND w.errno IN (95, 38) THEN
            'the device does not support QP type ' || qp_type_name(w.in_qp_type)
        WHEN w.errno = 16 THEN 'the object is still in use (destroy what uses it first)'
        WHEN w.verb = 'ibv_poll_cq' THEN 'the CQ is in error (overrun) or the device failed'
        ELSE 'no specific cause found in the trace' || coalesce('; within the limits: ' || lim.checked, '')
        END AS cause,
        coalesce(m.query_seq, NULL) AS query_seq
    FROM with_state w
    LEFT JOIN _modify_check m ON m.host = w.host AND m.seq = w.seq
    LEFT JOIN _port_info pi ON pi.host = w.host
         AND pi.port_num = coalesce(w.in_port_num, (SELECT s.port_num FROM qp_settings s WHERE s.host = w.host AND s.handle = w.handle), 1)
    LEFT JOIN _device_info d ON d.host = w.host
    -- the requested values against the device limits: the first exceeded, else all that were checked
    LEFT JOIN (SELECT host, seq,
                      min(field || ' ' || requested || ' > ' || limit_value) FILTER (WHERE exceeded) AS exceeded,
                      string_agg(field || ' ' || requested || ' <= ' || limit_value, ', ' ORDER BY field)
                          FILTER (WHERE NOT exceeded) AS checked
               FROM _limit_check GROUP BY host, seq) lim ON lim.host = w.host AND lim.seq = w.seq
    LEFT JOIN qps q ON q.host = w.host AND q.handle = w.handle AND q.create_seq < w.seq)
SELECT host, qp_num::BIGINT AS qp,
       list_filter([ev(host, seq), ev(host, query_seq)], lambda e: e.seq IS NOT NULL) AS evidence,
       verb || ' on ' || host || CASE WHEN qp_num IS NOT NULL THEN ' QP ' || hex24(qp_num) ELSE '' END || ' failed: '
           || CASE WHEN errno <> 0 THEN errno_name || ' (' || errno || ')' ELSE 'ret ' || ret END
           || '; likely cause: ' || cause AS message
FROM explained
