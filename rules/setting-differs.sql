-- id: setting-differs
-- severity: warning
-- role: cause
-- title: A connection setting differs across the hosts of a job
-- explanation: In a job of three or more hosts the QPs are normally set up alike; a value that
--   only some hosts use (a path MTU, an ACK timeout, retry counts, the RNR timer, the service
--   level) is usually a host configured apart (another driver default, an environment variable
--   set on some nodes). The message groups the hosts by value, as NCCL's RAS does: the value most
--   QPs use with the number of its hosts, then each other value with the hosts that use it.
-- fix: Set the value alike on every host (the same program options and environment), or check
--   that the hosts named differ on purpose.
-- when: SELECT 1 FROM (SELECT count(DISTINCT host) AS n FROM qp_settings) WHERE n >= 3
WITH v AS (
    -- one row per (QP, setting) that was set; seq: the modify that set it
    SELECT host, qp_num, u.name, u.value, u.seq
    FROM (SELECT host, qp_num,
                 [{'name': 'path_mtu', 'value': mtu_bytes(path_mtu)::BIGINT, 'seq': path_mtu_seq},
                  {'name': 'timeout', 'value': timeout::BIGINT, 'seq': timeout_seq},
                  {'name': 'retry_cnt', 'value': retry_cnt::BIGINT, 'seq': retry_cnt_seq},
                  {'name': 'rnr_retry', 'value': rnr_retry::BIGINT, 'seq': rnr_retry_seq},
                  {'name': 'min_rnr_timer', 'value': min_rnr_timer::BIGINT, 'seq': min_rnr_timer_seq},
                  {'name': 'sl', 'value': sl::BIGINT, 'seq': av_seq}] AS l
          FROM qp_settings) s, unnest(s.l) AS t(u)
    WHERE u.value IS NOT NULL),
groups AS (
    SELECT name, value, count(*) AS qps, count(DISTINCT host) AS hosts,
           string_agg(DISTINCT host, ', ' ORDER BY host) AS host_list,
           list(ev(host, seq) ORDER BY host, seq)[1:3] AS evidence
    FROM v GROUP BY name, value),
ranked AS (
    SELECT g.*, row_number() OVER (PARTITION BY name ORDER BY qps DESC, value) AS rank,
           count(*) OVER (PARTITION BY name) AS values_seen,
           (SELECT count(DISTINCT host) FROM v WHERE v.name = g.name) AS all_hosts
    FROM groups g)
SELECT NULL::VARCHAR AS host, NULL::BIGINT AS qp,
       flatten(list(evidence ORDER BY rank) FILTER (WHERE rank > 1)) AS evidence,
       name || ' ' || string_agg(value || ' on ' || CASE WHEN rank = 1 THEN hosts || ' host(s)' ELSE host_list END,
                                 ', ' ORDER BY rank)
           || '; the hosts of this job do not agree on ' || name AS message
FROM ranked
WHERE values_seen > 1 AND all_hosts >= 3
GROUP BY name
