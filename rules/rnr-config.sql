-- id: rnr-config
-- severity: warning
-- role: cause
-- title: Receiver-not-ready settings that stall or hide failures
-- explanation: min_rnr_timer is how long a sender waits after an RNR NAK: code 0 means
--   655.36 ms, the longest, not the shortest. rnr_retry 7 retries forever, so a receiver that
--   never posts stalls the sender silently instead of failing; rnr_retry 0 gives up on the
--   first RNR NAK. Flagged for 0/7 only when the trace shows RNR actually happened. A
--   min_rnr_timer 0 that librdmacm set while connecting (the kernel CM's value) is not flagged.
-- fix: Use a small min_rnr_timer (e.g. 12 = 0.64 ms) and a bounded rnr_retry (e.g. 6), and
--   post receives before the peer can send.
WITH rnr_seen AS (
    -- a counter of RNR NAKs a host sent stalls its peers' senders; one it received stalls its own
    -- (retry_rnr_exceeded counts senders that gave up: the sender's side)
    SELECT host, min(seq) AS seq, sum(delta) AS naks, string_agg(name, ', ' ORDER BY name) AS counter,
           CASE WHEN regexp_matches(lower(name), 'exceed|rcv|recv|rx') THEN 'received'
                WHEN regexp_matches(lower(name), 'sent|send|tx|xmit') THEN 'sent' ELSE 'either' END AS direction
    FROM counters
    WHERE phase = 'END' AND lower(name) LIKE '%rnr%' AND delta > 0 GROUP BY host, direction),
rnr_failed AS (
    SELECT host, qp_num, min(first_seq) AS seq FROM _completion_stats WHERE status = 13 GROUP BY host, qp_num)
SELECT s.host, s.qp_num::BIGINT AS qp, [ev(s.host, s.min_rnr_timer_seq)] AS evidence,
       s.host || ' QP ' || hex24(s.qp_num) || ' has min_rnr_timer 0: senders wait 655.36 ms after every RNR NAK'
           || override_note(s.host, '--min-rnr-timer') AS message
FROM qp_settings s
WHERE s.min_rnr_timer = 0 AND coalesce(s.qp_type, 2) = 2
  -- the kernel's CM sets 0 for every rdma_cm connection: not the program's choice
  AND NOT EXISTS (SELECT 1 FROM _cm_nested n WHERE n.host = s.host AND n.seq = s.min_rnr_timer_seq)
UNION ALL
SELECT s.host, s.qp_num::BIGINT, [ev(s.host, s.rnr_retry_seq), ev(n.host, n.seq)],
       s.host || ' QP ' || hex24(s.qp_num) || ' has rnr_retry 7 (retry forever) and ' || n.host || ' counted '
           || n.naks || ' RNR event(s) (' || n.counter || '): a receiver that falls behind stalls this sender instead of failing'
FROM _pair s
JOIN rnr_seen n ON (n.host = s.p_host AND n.direction IN ('sent', 'either'))
                OR (n.host = s.host AND n.direction IN ('received', 'either'))
WHERE s.rnr_retry = 7
UNION ALL
SELECT s.host, s.qp_num::BIGINT, [ev(s.host, s.rnr_retry_seq), ev(f.host, f.seq)],
       s.host || ' QP ' || hex24(s.qp_num) || ' has rnr_retry ' || s.rnr_retry
           || ' and its send failed with IBV_WC_RNR_RETRY_EXC_ERR: it gave up after '
           || s.rnr_retry || ' RNR retr' || CASE WHEN s.rnr_retry = 1 THEN 'y' ELSE 'ies' END
           || override_note(s.host, '--rnr-retry')
FROM qp_settings s
JOIN rnr_failed f ON f.host = s.host AND f.qp_num = s.qp_num
WHERE s.rnr_retry < 7
