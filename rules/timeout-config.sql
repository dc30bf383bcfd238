-- id: timeout-config
-- severity: warning
-- role: cause
-- title: ACK timeout or retry count that hangs or gives up too early
-- explanation: The local ACK timeout is 4.096 us * 2^timeout. timeout 0 disables the
--   retransmit timer: a lost packet or a dead peer hangs the QP forever. Below 8 (~1 ms) the
--   sender retransmits before a normal ACK can arrive; 24 and above (> 68 s) makes every
--   loss a minute-long stall. retry_cnt 0 fails on the first lost ACK.
-- fix: Use timeout 14..20 (67 ms .. 4.3 s) and retry_cnt 7 (rc_pingpong uses 14 and 7).
SELECT host, qp_num::BIGINT AS qp, [ev(host, timeout_seq)] AS evidence,
       host || ' QP ' || hex24(qp_num) || ' has ACK timeout ' || timeout
           || CASE WHEN timeout = 0 THEN ' (no retransmit timer: a lost packet hangs the QP)'
                   WHEN timeout < 8 THEN ' (' || round(ack_timeout_ms(timeout), 3) || ' ms: retransmits before ACKs can arrive)'
                   ELSE ' (' || round(ack_timeout_ms(timeout) / 1000, 1) || ' s per retry: every loss stalls)' END
           || override_note(host, '--timeout') AS message
FROM qp_settings
WHERE timeout IS NOT NULL AND coalesce(qp_type, 2) IN (2, 9, 10) AND (timeout = 0 OR timeout < 8 OR timeout >= 24)
UNION ALL
SELECT s.host, s.qp_num::BIGINT, [ev(s.host, s.retry_cnt_seq), ev(s.host, min(c.first_seq))],
       s.host || ' QP ' || hex24(s.qp_num) || ' has retry_cnt 0 and failed with IBV_WC_RETRY_EXC_ERR on the first lost ACK'
           || override_note(s.host, '--retry-cnt')
FROM qp_settings s
JOIN _completion_stats c ON c.host = s.host AND c.qp_num = s.qp_num AND c.status = 12
WHERE s.retry_cnt = 0
GROUP BY s.host, s.qp_num, s.retry_cnt_seq
