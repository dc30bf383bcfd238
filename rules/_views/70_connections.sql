-- needs: 20_oob, 25_pairing, 50_objects

-- _params: out-of-band PARAMS messages with the connection index they describe (CONN_INDEX
-- when the agent recorded it, else their order among PARAMS in the same direction).
CREATE TABLE _params AS
SELECT host, seq, direction, peer, qp_num, gid, psn, conn_index,
       coalesce(conn_index, row_number() OVER (PARTITION BY host, direction, peer ORDER BY seq) - 1) AS conn
FROM _oob WHERE oob_kind = 'PARAMS';

-- _oob_qp_pair: QP pairs proven by the exchange: host a sent QPN qp_a for connection c to host
-- b, and b sent its own QPN qp_b for the same connection back.
CREATE TABLE _oob_qp_pair AS
SELECT m.sender AS host_a, sa.qp_num AS qp_a, m.receiver AS host_b, sb.qp_num AS qp_b, sa.conn
FROM oob_messages m
JOIN _params sa ON sa.host = m.sender AND sa.seq = m.sent_seq
JOIN _oob_link back ON back.sender = m.receiver AND back.receiver = m.sender
JOIN _params sb ON sb.host = m.receiver AND sb.direction = 'SENT' AND sb.peer = back.sender_peer AND sb.conn = sa.conn
WHERE m.oob_kind = 'PARAMS';

-- connection_pairs: one row per connection: the QP on each host (host_a sorts before host_b),
-- matched by the out-of-band exchange ('oob'), by the programmed dest_qp_num
-- ('dest_qp_num'), or both.
CREATE TABLE connection_pairs AS
WITH candidates AS (
    SELECT host_a, qp_a, host_b, qp_b, conn, 'oob' AS method FROM _oob_qp_pair
    UNION ALL
    SELECT host_a, qp_a, host_b, qp_b, NULL, method FROM _dest_qp_pair),
oriented AS (
    SELECT CASE WHEN host_a < host_b THEN host_a ELSE host_b END AS host_a,
           CASE WHEN host_a < host_b THEN qp_a ELSE qp_b END AS qp_a,
           CASE WHEN host_a < host_b THEN host_b ELSE host_a END AS host_b,
           CASE WHEN host_a < host_b THEN qp_b ELSE qp_a END AS qp_b,
           conn, method
    FROM candidates),
pairs AS (
    SELECT host_a, qp_a, host_b, qp_b, min(conn) AS conn_index,
           string_agg(DISTINCT method, '+' ORDER BY method) AS matched_by
    FROM oriented GROUP BY ALL)
SELECT row_number() OVER (ORDER BY p.host_a, p.qp_a, p.host_b, p.qp_b) AS pair_id,
       p.host_a, p.qp_a, qa.handle AS handle_a, p.host_b, p.qp_b, qb.handle AS handle_b,
       p.conn_index, p.matched_by
FROM pairs p
LEFT JOIN (SELECT host, qp_num, arg_max(handle, create_seq) AS handle FROM qps GROUP BY ALL) qa
       ON qa.host = p.host_a AND qa.qp_num = p.qp_a
LEFT JOIN (SELECT host, qp_num, arg_max(handle, create_seq) AS handle FROM qps GROUP BY ALL) qb
       ON qb.host = p.host_b AND qb.qp_num = p.qp_b;

-- qp_peers: connection_pairs seen from each end: one row per (host, QP) with its peer.
CREATE TABLE qp_peers AS
SELECT pair_id, host_a AS host, qp_a AS qp_num, handle_a AS handle,
       host_b AS peer_host, qp_b AS peer_qp_num, handle_b AS peer_handle, matched_by
FROM connection_pairs
UNION ALL
SELECT pair_id, host_b, qp_b, handle_b, host_a, qp_a, handle_a, matched_by
FROM connection_pairs;
