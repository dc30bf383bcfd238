-- qp_pairs: the QPs connected across hosts, from each QP's own settings (qp_settings): QP a's dest_qp_num is
-- b's QPN, b's is a's, and each one's address vector names the other's host (its dgid is one of that host's
-- GIDs or, without GRH, its dlid is that host's LID). One row per connection, host_a sorting first.
-- Algorithm: equality joins only (address -> host, then (host, QPN)): the cost grows with the number of QPs,
-- not with its square, on one machine or on a cluster.
-- Portable SQL (DuckDB and Spark SQL): no dialect functions, no ORDER BY (a runner sorts).
WITH gid_owner AS (
    SELECT DISTINCT host, lower(gid) AS gid FROM gids WHERE gid IS NOT NULL AND gid <> '::'
    UNION
    SELECT DISTINCT host, lower(out_gid) FROM calls
    WHERE verb IN ('ibv_query_gid', 'ibv_query_gid_ex') AND ok AND out_gid IS NOT NULL AND out_gid <> '::'),
lid_owner AS (
    SELECT DISTINCT host, CAST(lid AS BIGINT) AS lid FROM ports WHERE lid > 0
    UNION
    SELECT DISTINCT host, CAST(out_lid AS BIGINT) FROM calls WHERE verb = 'ibv_query_port' AND ok AND out_lid > 0),
route AS (
    SELECT DISTINCT host, qp_num, qp_type, dest_qp_num, coalesce(is_global, false) AS is_global, lower(dgid) AS dgid,
           CAST(dlid AS BIGINT) AS dlid
    FROM qp_settings WHERE dest_qp_num IS NOT NULL),
aims AS (
    SELECT r.host, r.qp_num, r.qp_type, r.dest_qp_num, o.host AS target_host
    FROM route r JOIN gid_owner o ON o.gid = r.dgid AND o.host <> r.host
    WHERE r.is_global
    UNION
    SELECT r.host, r.qp_num, r.qp_type, r.dest_qp_num, o.host
    FROM route r JOIN lid_owner o ON o.lid = r.dlid AND o.host <> r.host
    WHERE NOT r.is_global)
SELECT a.host AS host_a, a.qp_num AS qp_a, b.host AS host_b, b.qp_num AS qp_b,
       a.qp_type AS qp_type_a, b.qp_type AS qp_type_b
FROM aims a
JOIN aims b ON b.host = a.target_host AND b.qp_num = a.dest_qp_num AND b.target_host = a.host AND b.dest_qp_num = a.qp_num
WHERE a.host < b.host
