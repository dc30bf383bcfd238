-- id: peer-not-ready
-- severity: error
-- role: cause
-- title: A QP sent before its peer's QP was ready to receive (RTR)
-- explanation: A responder drops request packets while its QP is below RTR. If the sender
--   starts before the peer has moved to RTR, the first packets are lost; the sender
--   retransmits after its ACK timeout and, if the peer is late enough (or never gets there),
--   fails with IBV_WC_RETRY_EXC_ERR. Times are compared on the aligned clock.
-- fix: Synchronise after both sides reach RTS (a barrier over the out-of-band channel) before
--   the first post_send; never send before the peer reports ready.
SELECT a.host, a.qp_num::BIGINT AS qp,
       list_filter([ev(a.host, s.seq), ev(b.host, coalesce(sb.rtr_seq, (SELECT max(t.seq) FROM qp_state_timeline t
                          WHERE t.host = b.host AND t.handle = b.handle)))], lambda e: e.seq IS NOT NULL) AS evidence,
       a.host || ' QP ' || hex24(a.qp_num) || ' posted its first send '
           || CASE WHEN sb.rtr_ts_ns IS NULL THEN 'but its peer ' || b.host || ' QP ' || hex24(b.qp_num) || ' never reached RTR'
                   ELSE round((sb.rtr_ts_ns - s.ts_ns) / 1e6, 3) || ' ms before its peer ' || b.host || ' QP '
                        || hex24(b.qp_num) || ' reached RTR' END
           || override_note(b.host, '--delay-rtr')
           || coalesce(nullif(override_note(a.host, '--no-barrier'), ''), override_note(b.host, '--no-barrier')) AS message
FROM qp_peers a
JOIN _first_send s ON s.host = a.host AND s.qp_num = a.qp_num
JOIN qp_peers b ON b.pair_id = a.pair_id AND b.host = a.peer_host
JOIN qp_settings sb ON sb.host = b.host AND sb.handle = b.handle
LEFT JOIN host_clock_offset k ON k.host = b.host
LEFT JOIN host_clock_offset ka ON ka.host = a.host
WHERE sb.rtr_ts_ns IS NULL
   OR sb.rtr_ts_ns > s.ts_ns + coalesce(k.uncertainty_ns, 0) + coalesce(ka.uncertainty_ns, 0) + clock_slack_ns()
