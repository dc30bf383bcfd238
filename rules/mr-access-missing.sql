-- id: mr-access-missing
-- severity: error
-- role: cause
-- title: An operation needs an access right that the memory region or QP does not grant
-- explanation: A remote RDMA WRITE, READ or atomic is checked at the target against the
--   target QP's qp_access_flags (refused with NAK Invalid Request ->
--   IBV_WC_REM_INV_REQ_ERR) and the target MR's access flags (refused with NAK Remote Access
--   Error -> IBV_WC_REM_ACCESS_ERR); both QPs then go to ERR. Locally, a receive buffer (or
--   the destination of an RDMA READ) needs IBV_ACCESS_LOCAL_WRITE (else
--   IBV_WC_LOC_PROT_ERR). Reported on the host whose MR or QP lacks the right.
-- fix: Register the target MR with the right the peer uses (REMOTE_WRITE, REMOTE_READ,
--   REMOTE_ATOMIC, which also need LOCAL_WRITE) and enable the same right in the target QP's
--   qp_access_flags at RESET->INIT; register receive buffers with LOCAL_WRITE.
WITH first_op AS (
    SELECT p.host, p.qp_num, x.peer_host, x.peer_qp_num, x.peer_handle, p.rkey,
           CASE WHEN p.opcode IN (0, 1) THEN 2 WHEN p.opcode = 4 THEN 4 ELSE 8 END AS needed,
           CASE WHEN p.opcode IN (0, 1) THEN 'RDMA WRITE' WHEN p.opcode = 4 THEN 'RDMA READ' ELSE 'atomic' END AS op,
           min(p.first_seq) AS seq, sum(p.n) AS n
    FROM _post_stats p JOIN qp_peers x ON x.host = p.host AND x.qp_num = p.qp_num
    WHERE p.queue = 'send' AND p.ok AND p.opcode IN (0, 1, 4, 5, 6)
    GROUP BY ALL)
-- the target MR lacks the right
SELECT o.peer_host AS host, o.peer_qp_num::BIGINT AS qp,
       [ev(o.host, o.seq), ev(m.host, m.create_seq)] AS evidence,
       o.host || ' QP ' || hex24(o.qp_num) || ' issued ' || o.n || ' ' || o.op || '(s) to rkey 0x' || lower(hex(o.rkey))
           || ', an MR of ' || m.host || ' registered with ' || m.access_names || ': it lacks '
           || flags_access(o.needed) || override_note(m.host, '--mr-access') AS message
FROM first_op o
JOIN mrs m ON m.host = o.peer_host AND m.rkey = o.rkey
WHERE (m.access & o.needed) = 0
UNION ALL
-- the target QP does not allow the operation
SELECT o.peer_host, o.peer_qp_num::BIGINT,
       list_filter([ev(o.host, o.seq), ev(s.host, s.qp_access_flags_seq)], lambda e: e.seq IS NOT NULL),
       o.host || ' QP ' || hex24(o.qp_num) || ' issued ' || o.n || ' ' || o.op || '(s) to ' || s.host || ' QP '
           || hex24(s.qp_num) || ' whose qp_access_flags are ' || flags_access(s.qp_access_flags)
           || ': it lacks ' || flags_access(o.needed) || override_note(s.host, '--qp-access')
FROM first_op o
JOIN qp_settings s ON s.host = o.peer_host AND s.handle = o.peer_handle
WHERE s.qp_access_flags IS NOT NULL AND (s.qp_access_flags & o.needed) = 0
UNION ALL
-- a receive buffer (or an RDMA READ destination) in an MR without LOCAL_WRITE
SELECT p.host, p.qp_num::BIGINT,
       [ev(p.host, min(p.first_seq)), ev(m.host, m.create_seq)],
       sum(p.n) || ' ' || CASE WHEN p.queue = 'recv' THEN 'receive' ELSE 'RDMA READ' END || '(s) on ' || p.host || ' QP '
           || hex24(p.qp_num) || ' use lkey 0x' || lower(hex(p.lkey)) || ', an MR registered with ' || m.access_names
           || ': the device must write into it, which needs IBV_ACCESS_LOCAL_WRITE' || override_note(m.host, '--mr-access')
FROM _post_stats p
JOIN mrs m ON m.host = p.host AND m.lkey = p.lkey AND m.create_seq < p.first_seq
WHERE p.ok AND (p.queue = 'recv' OR (p.queue = 'send' AND p.opcode = 4)) AND (m.access & 1) = 0
GROUP BY p.host, p.qp_num, p.queue, p.lkey, m.host, m.create_seq, m.access_names
