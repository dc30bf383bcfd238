-- id: recv-buffer-small
-- severity: error
-- role: cause
-- title: The receiver's buffers are smaller than the messages its peer sends
-- explanation: A SEND lands in the next receive WQE of the peer; when the message is longer
--   than that receive's buffers (the sum of its SGE lengths; on UD plus the 40-byte GRH), the
--   receive completes with IBV_WC_LOC_LEN_ERR, the QP goes to error, and on RC the sender gets
--   IBV_WC_REM_INV_REQ_ERR. Compared: the largest message a QP sent (its first SGE, a lower
--   bound) against the largest receive its peer posted (receives from an SRQ are not judged).
-- fix: Post receive buffers at least as large as the largest message the peer sends (both
--   ends' -s / --size must agree), or send smaller messages.
-- when: SELECT 1 FROM _post_stats WHERE queue = 'send' AND ok AND opcode IN (2, 3, 9) LIMIT 1
WITH sent AS (
    -- receive-consuming sends with a payload: SEND, SEND_WITH_IMM, SEND_WITH_INV
    SELECT host, qp_num, max(max_length) AS len, arg_max(first_seq, max_length) AS seq
    FROM _post_stats WHERE queue = 'send' AND ok AND opcode IN (2, 3, 9) AND max_length IS NOT NULL
    GROUP BY host, qp_num),
recv AS (
    SELECT host, qp_num, max(length) AS len, arg_max(seq, length) AS seq
    FROM work_requests WHERE queue = 'recv' AND accepted AND qp_num IS NOT NULL
    GROUP BY host, qp_num)
SELECT b.host, b.qp_num::BIGINT AS qp, [ev(a.host, s.seq), ev(b.host, r.seq)] AS evidence,
       b.host || ' QP ' || hex24(b.qp_num) || ' posted receive buffers of at most ' || r.len || ' bytes, but its peer '
           || a.host || ' QP ' || hex24(a.qp_num) || ' sends messages of ' || s.len || ' bytes'
           || CASE WHEN q.qp_type = 4 THEN ' (plus the 40-byte GRH on UD)' ELSE '' END
           || '; the receive completes with IBV_WC_LOC_LEN_ERR'
           || CASE WHEN q.qp_type = 2 THEN ' and the sender gets IBV_WC_REM_INV_REQ_ERR' ELSE '' END AS message
FROM qp_peers a
JOIN sent s ON s.host = a.host AND s.qp_num = a.qp_num
JOIN qp_peers b ON b.pair_id = a.pair_id AND b.host = a.peer_host
JOIN recv r ON r.host = b.host AND r.qp_num = b.qp_num
LEFT JOIN qps q ON q.host = b.host AND q.handle = b.handle AND q.qp_num = b.qp_num
WHERE coalesce(q.srq, 0) = 0
  AND s.len + CASE WHEN q.qp_type = 4 THEN 40 ELSE 0 END > r.len
