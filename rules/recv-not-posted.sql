-- id: recv-not-posted
-- severity: error
-- role: cause
-- title: A message arrived before the receiver had posted a receive
-- explanation: A SEND (or RDMA WRITE with immediate) consumes one receive WQE at the peer (from
--   its shared receive queue when the peer QP was created with an SRQ). On
--   RC, if none is posted the responder answers RNR NAK and the sender retries after
--   min_rnr_timer, up to rnr_retry times, then fails with IBV_WC_RNR_RETRY_EXC_ERR; on UC/UD
--   the message is silently dropped. Times are compared on the aligned clock
--   (host_clock_offset), allowing for its uncertainty.
-- fix: Post receives before the QP leaves INIT->RTR (or at least before telling the peer you
--   are ready: the barrier), and keep the receive queue replenished.
SELECT b.host, b.qp_num::BIGINT AS qp,
       list_filter([ev(a.host, s.recv_consuming_seq), ev(b.host, r.seq)], lambda e: e.seq IS NOT NULL) AS evidence,
       CASE WHEN r.seq IS NULL
            THEN b.host || ' QP ' || hex24(b.qp_num)
                 || CASE WHEN coalesce(q.srq, 0) <> 0 THEN ' receives from an SRQ that never had a receive posted'
                         ELSE ' never posted a receive' END
                 || ', but its peer ' || a.host || ' QP ' || hex24(a.qp_num) || ' sent a message that needs one'
            ELSE b.host || ' QP ' || hex24(b.qp_num)
                 || CASE WHEN r.via_srq THEN ' got its first receive (posted to its SRQ) ' ELSE ' posted its first receive ' END
                 || round((r.ts_ns - s.recv_consuming_ts_ns) / 1e6, 3) || ' ms after ' || a.host || ' QP '
                 || hex24(a.qp_num) || ' sent a message that needs one'
       END || override_note(b.host, '--post-recv') AS message
FROM qp_peers a
JOIN _first_send s ON s.host = a.host AND s.qp_num = a.qp_num
JOIN qp_peers b ON b.pair_id = a.pair_id AND b.host = a.peer_host
LEFT JOIN _first_recv r ON r.host = b.host AND r.qp_num = b.qp_num
LEFT JOIN qps q ON q.host = b.host AND q.handle = b.handle AND q.qp_num = b.qp_num
LEFT JOIN host_clock_offset k ON k.host = b.host
LEFT JOIN host_clock_offset ka ON ka.host = a.host
WHERE s.recv_consuming_seq IS NOT NULL
  AND (r.seq IS NULL
       OR r.ts_ns > s.recv_consuming_ts_ns + coalesce(k.uncertainty_ns, 0) + coalesce(ka.uncertainty_ns, 0) + clock_slack_ns())
