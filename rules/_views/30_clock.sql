-- host_clock_offset: how far each host's wall clock is ahead of its reference host's,
-- estimated NTP-style from the matched out-of-band messages of the pair. A message from the
-- reference a to host b bounds the offset from above (offset <= receive - send), one from b to
-- a from below (offset >= send - receive). Recording latency can make a sample impossible (a
-- SENT recorded after the peer's RECEIVED), so the estimate keeps the largest consistent set:
-- among the samples' own bounds it picks the offset that the fewest samples contradict (ties:
-- the one nearest 0), drops those samples, and reports the middle of the remaining interval
-- with half its width as uncertainty. The reference of a pair is the host whose name sorts
-- first. Hosts without messages both ways keep offset 0 (method 'none').
-- ts_ns = wall_ns - offset_ns puts every host on its reference's clock.
CREATE TABLE host_clock_offset AS
WITH samples AS (
    SELECT least(sender, receiver) AS ref, greatest(sender, receiver) AS other,
           sender < receiver AS upper_bound,
           CASE WHEN sender < receiver THEN received_wall_ns - sent_wall_ns
                ELSE sent_wall_ns - received_wall_ns END AS bound
    FROM oob_messages),
scored AS (
    SELECT c.ref, c.other, c.bound AS candidate,
           count(*) FILTER (WHERE (s.upper_bound AND s.bound < c.bound) OR (NOT s.upper_bound AND s.bound > c.bound))
               AS contradicted
    FROM (SELECT DISTINCT ref, other, bound FROM samples) c
    JOIN samples s ON s.ref = c.ref AND s.other = c.other
    GROUP BY c.ref, c.other, c.bound),
best AS (
    SELECT ref, other, arg_min(candidate, [contradicted, abs(candidate)]) AS candidate, min(contradicted) AS dropped
    FROM scored GROUP BY ref, other),
interval AS (
    SELECT b.ref, b.other, b.dropped,
           max(s.bound) FILTER (WHERE NOT s.upper_bound AND s.bound <= b.candidate) AS lower,
           min(s.bound) FILTER (WHERE s.upper_bound AND s.bound >= b.candidate) AS upper,
           count(*) FILTER (WHERE (s.upper_bound AND s.bound >= b.candidate) OR (NOT s.upper_bound AND s.bound <= b.candidate))
               AS used
    FROM best b JOIN samples s ON s.ref = b.ref AND s.other = b.other
    GROUP BY b.ref, b.other, b.dropped),
estimates AS (
    SELECT other AS host, ref AS reference_host, (lower + upper) // 2 AS offset_ns, (upper - lower) // 2 AS uncertainty_ns,
           used AS samples, dropped, row_number() OVER (PARTITION BY other ORDER BY ref) AS pick
    FROM interval WHERE lower IS NOT NULL AND upper IS NOT NULL)
SELECT h.host,
       coalesce(e.reference_host, h.host) AS reference_host,
       coalesce(e.offset_ns, 0)::BIGINT AS offset_ns,
       coalesce(e.uncertainty_ns, 0)::BIGINT AS uncertainty_ns,
       coalesce(e.samples, 0)::BIGINT AS samples,
       coalesce(e.dropped, 0)::BIGINT AS dropped,
       CASE WHEN e.host IS NOT NULL THEN 'oob-ntp'
            WHEN EXISTS (SELECT 1 FROM interval i WHERE i.ref = h.host AND i.lower IS NOT NULL AND i.upper IS NOT NULL)
                THEN 'reference'
            ELSE 'none' END AS method
FROM (SELECT DISTINCT host FROM _host WHERE status IN ('CLEAN', 'TRUNCATED', 'CORRUPT')) h
LEFT JOIN estimates e ON e.host = h.host AND e.pick = 1;

-- The margin cross-host "before/after" rules add to a host's uncertainty_ns: SENT events are
-- recorded just after the write, so samples can lag by the recording latency.
CREATE MACRO clock_slack_ns() AS 1000000;

-- oob: every out-of-band message with its parameters (one column per attribute name, e.g.
-- qp_num, gid, psn, path_mtu) and the aligned time.
CREATE VIEW oob AS
SELECT o.*, o.wall_ns - coalesce(c.offset_ns, 0) AS ts_ns
FROM _oob o LEFT JOIN host_clock_offset c USING (host);
