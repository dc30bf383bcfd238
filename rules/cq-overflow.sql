-- id: cq-overflow
-- severity: error
-- role: cause
-- title: A completion queue overflowed
-- explanation: When a completion arrives at a full CQ the device raises IBV_EVENT_CQ_ERR, the
--   completion is lost and the CQ is unusable; on the receive side the QP moves to ERR and
--   the peer's sends end in IBV_WC_RETRY_EXC_ERR.
-- fix: Create the CQ with at least as many entries as the outstanding work requests of every
--   QP that uses it (send and receive), and poll it often enough.
SELECT a.host, q.qp_num::BIGINT AS qp,
       list_filter([ev(a.host, a.seq), ev(a.host, c.create_seq)], lambda e: e.seq IS NOT NULL) AS evidence,
       'IBV_EVENT_CQ_ERR on ' || a.host || ' CQ 0x' || lower(hex(a.element))
           || CASE WHEN c.cqe IS NOT NULL THEN ' (' || c.cqe || ' entries)' ELSE '' END
           || CASE WHEN q.qp_num IS NOT NULL THEN ', used by QP ' || hex24(q.qp_num) ELSE '' END
           || ': completions were lost' || override_note(a.host, '--cq-depth') AS message
FROM async_events a
LEFT JOIN cqs c ON c.host = a.host AND c.handle = a.element AND c.create_seq < a.seq
LEFT JOIN qps q ON q.host = a.host AND (q.send_cq = a.element OR q.recv_cq = a.element) AND q.create_seq < a.seq
WHERE a.event_type = 0
