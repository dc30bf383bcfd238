-- id: cq-undersized
-- severity: warning
-- role: cause
-- title: A completion queue is smaller than the work its QPs can have outstanding
-- explanation: Every outstanding send and receive work request of every QP attached to a CQ
--   may produce a completion. If the CQ has fewer entries than the sum of those queue depths,
--   a burst can overflow it (IBV_EVENT_CQ_ERR, lost completions, QP in ERR). A queue the
--   program never posted to adds nothing (ib_read_lat's receive queue: RDMA READ posts no
--   receives), so a QP counts the depth of each of its queues that had work posted.
-- fix: Create the CQ with cqe >= sum(max_send_wr of QPs using it as send CQ) + sum(max_recv_wr
--   of QPs using it as receive CQ). Compared: the depths the QPs asked for (devices round
--   queues up, and a program posts what it asked for) with the entries the CQ was granted.
WITH posted AS (
    SELECT DISTINCT host, qp_num, queue FROM _post_stats WHERE qp_num IS NOT NULL),
load AS (
    SELECT c.host, c.handle, c.create_seq, c.cqe,
           -- a QP with an SRQ takes its receives from the SRQ, not its own receive queue
           sum(CASE WHEN q.send_cq = c.handle AND EXISTS (SELECT 1 FROM posted p WHERE p.host = q.host
                         AND p.qp_num = q.qp_num AND p.queue = 'send')
                    THEN coalesce(q.req_max_send_wr, q.max_send_wr) ELSE 0 END
               + CASE WHEN q.recv_cq = c.handle AND coalesce(q.srq, 0) = 0 AND EXISTS (SELECT 1 FROM posted p
                         WHERE p.host = q.host AND p.qp_num = q.qp_num AND p.queue = 'recv')
                      THEN coalesce(q.req_max_recv_wr, q.max_recv_wr) ELSE 0 END) AS demand,
           list(q.create_seq ORDER BY q.create_seq) AS qp_seqs,
           min(q.qp_num) AS first_qp, count(*) AS qps
    FROM cqs c JOIN qps q ON q.host = c.host AND (q.send_cq = c.handle OR q.recv_cq = c.handle)
    GROUP BY c.host, c.handle, c.create_seq, c.cqe)
SELECT host, CASE WHEN qps = 1 THEN first_qp END::BIGINT AS qp,
       list_prepend(ev(host, create_seq), list_transform(qp_seqs, lambda s: ev(host, s))) AS evidence,
       host || ' CQ 0x' || lower(hex(handle)) || ' has ' || cqe || ' entries but its ' || qps || ' QP(s) can have '
           || demand || ' work requests outstanding' || override_note(host, '--cq-depth') AS message
FROM load
WHERE cqe < demand
