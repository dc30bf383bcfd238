-- id: queue-full
-- severity: error
-- role: cause
-- title: A work request was posted to a full send or receive queue
-- explanation: A QP holds at most max_send_wr / max_recv_wr outstanding work requests (the
--   values granted at ibv_create_qp). Posting more fails with ENOMEM and bad_wr points at the
--   first request not queued; anything after it in the list was not posted either.
-- fix: Size the queues for the number of outstanding requests (create_qp cap), and reap
--   completions (ibv_poll_cq) before posting more; signal sends often enough to free slots.
SELECT p.host, p.qp_num::BIGINT AS qp,
       list_filter([ev(p.host, min(p.first_seq)), ev(p.host, any_value(q.create_seq))], lambda e: e.seq IS NOT NULL) AS evidence,
       sum(p.n) || ' ibv_post_' || p.queue || ' call(s) on ' || p.host || ' QP ' || hex24(p.qp_num)
           || ' failed with ENOMEM: the ' || p.queue || ' queue holds '
           || coalesce(CASE p.queue WHEN 'send' THEN any_value(q.max_send_wr) ELSE any_value(q.max_recv_wr) END::VARCHAR, '?')
           || ' work requests' || override_note(p.host, CASE p.queue WHEN 'send' THEN '--sq-depth' ELSE '--rq-depth' END) AS message
FROM _post_stats p
LEFT JOIN qps q ON q.host = p.host AND q.qp_num = p.qp_num AND q.create_seq < p.first_seq
WHERE NOT p.ok AND p.errno = 12
GROUP BY p.host, p.qp_num, p.queue
