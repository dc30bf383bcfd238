-- host_settings: per host, each value a job's hosts should share, and how many of the host's QPs (or devices,
-- ports) have it: the QP settings of connected QPs (qp_settings with a dest_qp_num), the source GID's type,
-- and the device's firmware and the port's active MTU. Values as text, so one column holds them all.
-- Algorithm: the QPs crossed with the list of fields (one pass over qp_settings).
WITH qp AS (
    SELECT s.host, s.path_mtu, s.timeout, s.retry_cnt, s.rnr_retry, s.min_rnr_timer, s.sl, s.max_rd_atomic,
           s.max_dest_rd_atomic, g.gid_type
    FROM qp_settings s
    LEFT JOIN gids g ON g.host = s.host AND g.port_num = s.port_num AND g.gid_index = s.sgid_index
    WHERE s.dest_qp_num IS NOT NULL),
fields AS (
    SELECT 'path_mtu' AS field
    UNION ALL SELECT 'timeout'
    UNION ALL SELECT 'retry_cnt'
    UNION ALL SELECT 'rnr_retry'
    UNION ALL SELECT 'min_rnr_timer'
    UNION ALL SELECT 'sl'
    UNION ALL SELECT 'max_rd_atomic'
    UNION ALL SELECT 'max_dest_rd_atomic'
    UNION ALL SELECT 'gid_type'),
field_value AS (
    SELECT q.host, f.field,
           CAST(CASE f.field
               WHEN 'path_mtu' THEN CAST(q.path_mtu AS BIGINT)
               WHEN 'timeout' THEN CAST(q.timeout AS BIGINT)
               WHEN 'retry_cnt' THEN CAST(q.retry_cnt AS BIGINT)
               WHEN 'rnr_retry' THEN CAST(q.rnr_retry AS BIGINT)
               WHEN 'min_rnr_timer' THEN CAST(q.min_rnr_timer AS BIGINT)
               WHEN 'sl' THEN CAST(q.sl AS BIGINT)
               WHEN 'max_rd_atomic' THEN CAST(q.max_rd_atomic AS BIGINT)
               WHEN 'max_dest_rd_atomic' THEN CAST(q.max_dest_rd_atomic AS BIGINT)
               ELSE CAST(q.gid_type AS BIGINT) END AS STRING) AS value
    FROM qp q CROSS JOIN fields f
    UNION ALL SELECT host, 'fw_ver', fw_ver FROM devices
    UNION ALL SELECT host, 'active_mtu', CAST(active_mtu AS STRING) FROM ports)
SELECT host, field, value, count(*) AS items
FROM field_value
WHERE value IS NOT NULL
GROUP BY host, field, value
