-- host_clock_offset: how far each host's wall clock is ahead of its reference host's, estimated
-- NTP-style from matched out-of-band messages in both directions: with d_ab the smallest
-- (receive - send) time from reference a to host b and d_ba the smallest from b to a,
-- offset = (d_ab - d_ba) / 2 and the error is at most (d_ab + d_ba) / 2. The reference of a
-- pair of hosts is the one whose name sorts first. Hosts without messages both ways keep
-- offset 0 (method 'none'). ts_ns = wall_ns - offset_ns puts every host on its reference clock.
CREATE TABLE host_clock_offset AS
WITH delays AS (
    SELECT least(sender, receiver) AS ref, greatest(sender, receiver) AS other,
           min(received_wall_ns - sent_wall_ns) FILTER (WHERE sender < receiver) AS d_ref_to_other,
           min(received_wall_ns - sent_wall_ns) FILTER (WHERE sender > receiver) AS d_other_to_ref,
           count(*) AS samples
    FROM oob_messages GROUP BY ALL),
estimates AS (
    SELECT other AS host, ref AS reference_host,
           (d_ref_to_other - d_other_to_ref) // 2 AS offset_ns,
           (d_ref_to_other + d_other_to_ref) // 2 AS uncertainty_ns,
           samples,
           row_number() OVER (PARTITION BY other ORDER BY ref) AS pick
    FROM delays WHERE d_ref_to_other IS NOT NULL AND d_other_to_ref IS NOT NULL)
SELECT h.host,
       coalesce(e.reference_host, h.host) AS reference_host,
       coalesce(e.offset_ns, 0)::BIGINT AS offset_ns,
       coalesce(e.uncertainty_ns, 0)::BIGINT AS uncertainty_ns,
       coalesce(e.samples, 0)::BIGINT AS samples,
       CASE WHEN e.host IS NOT NULL THEN 'oob-ntp'
            WHEN EXISTS (SELECT 1 FROM delays d WHERE d.ref = h.host) THEN 'reference'
            ELSE 'none' END AS method
FROM (SELECT DISTINCT host FROM _host WHERE status IN ('CLEAN', 'TRUNCATED', 'CORRUPT')) h
LEFT JOIN estimates e ON e.host = h.host AND e.pick = 1;



-- oob: every out-of-band message with its parameters (one column per attribute name, e.g.
-- qp_num, gid, psn, path_mtu) and the aligned time.
CREATE VIEW oob AS
SELECT o.*, o.wall_ns - coalesce(c.offset_ns, 0) AS ts_ns
FROM _oob o LEFT JOIN host_clock_offset c USING (host);
