-- connection_checks: values the two ends of a connection (qp_pairs) must agree on, one row per end and value
-- that does not: the end's value and its peer's.
--   path_mtu                         the ends' path MTUs differ (enum ibv_mtu; reported on both ends)
--   sq_psn/rq_psn                    this end sends from a PSN its peer does not expect
--   max_rd_atomic/max_dest_rd_atomic this end may have more RDMA READs/atomics in flight than its peer accepts
--   gid_type                         the ends' source GIDs are of different types (RoCE v1 against v2)
--   qp_type                          the ends are of different QP types (UC against RC)
-- Single-machine rules (rules/*.sql) say which of these broke a connection; this is the job-wide census.
-- Algorithm: each end joined once with both settings, then crossed with the list of checks (one pass).
WITH ends AS (
    SELECT host_a AS host, qp_a AS qp_num, host_b AS peer_host, qp_b AS peer_qp_num FROM qp_pairs
    UNION ALL
    SELECT host_b, qp_b, host_a, qp_a FROM qp_pairs),
setting AS (
    SELECT s.host, s.qp_num, s.qp_type, s.path_mtu, s.sq_psn, s.rq_psn, s.max_rd_atomic, s.max_dest_rd_atomic,
           g.gid_type
    FROM qp_settings s
    LEFT JOIN gids g ON g.host = s.host AND g.port_num = s.port_num AND g.gid_index = s.sgid_index
    WHERE s.dest_qp_num IS NOT NULL),
checks AS (
    SELECT 'path_mtu' AS check_name
    UNION ALL SELECT 'sq_psn/rq_psn'
    UNION ALL SELECT 'max_rd_atomic/max_dest_rd_atomic'
    UNION ALL SELECT 'gid_type'
    UNION ALL SELECT 'qp_type'),
compared AS (
    SELECT e.host, e.qp_num, e.peer_host, e.peer_qp_num, c.check_name,
           CASE c.check_name
               WHEN 'path_mtu' THEN CAST(m.path_mtu AS BIGINT)
               WHEN 'sq_psn/rq_psn' THEN CAST(m.sq_psn AS BIGINT)
               WHEN 'max_rd_atomic/max_dest_rd_atomic' THEN CAST(m.max_rd_atomic AS BIGINT)
               WHEN 'gid_type' THEN CAST(m.gid_type AS BIGINT)
               ELSE CAST(m.qp_type AS BIGINT) END AS value,
           CASE c.check_name
               WHEN 'path_mtu' THEN CAST(p.path_mtu AS BIGINT)
               WHEN 'sq_psn/rq_psn' THEN CAST(p.rq_psn AS BIGINT)
               WHEN 'max_rd_atomic/max_dest_rd_atomic' THEN CAST(p.max_dest_rd_atomic AS BIGINT)
               WHEN 'gid_type' THEN CAST(p.gid_type AS BIGINT)
               ELSE CAST(p.qp_type AS BIGINT) END AS peer_value
    FROM ends e
    JOIN setting m ON m.host = e.host AND m.qp_num = e.qp_num
    JOIN setting p ON p.host = e.peer_host AND p.qp_num = e.peer_qp_num
    CROSS JOIN checks c)
SELECT host, qp_num, peer_host, peer_qp_num, check_name, value, peer_value
FROM compared
WHERE CASE WHEN check_name = 'max_rd_atomic/max_dest_rd_atomic' THEN value > peer_value ELSE value <> peer_value END
