-- id: post-after-error
-- severity: warning
-- role: consequence
-- title: Work requests were posted to a QP that was already in the error state
-- explanation: Once a QP is in ERR (an error completion, or a modify to ERR) every work
--   request posted to it completes with IBV_WC_WR_FLUSH_ERR without being executed. Posting
--   after the error hides the first failure under a stream of flushes.
-- fix: Stop posting on the first error completion, find its cause (the completion-error
--   finding), and recover the QP (modify to RESET, then INIT->RTR->RTS) before reuse.
SELECT p.host, p.qp_num::BIGINT AS qp,
       [ev(e.host, e.seq), ev(p.host, min(p.seq))] AS evidence,
       count(*) || ' work request(s) were posted to ' || p.host || ' QP ' || hex24(p.qp_num)
           || ' after it entered the error state (' || e.what || ')' AS message
FROM posts p
JOIN _qp_error e ON e.host = p.host AND e.qp_num = p.qp_num AND p.seq > e.seq
WHERE p.ok
GROUP BY p.host, p.qp_num, e.host, e.seq, e.what
