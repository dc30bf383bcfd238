-- needs: 20_oob

-- Connection pairing from the QPs' own settings, computed from the base tables (before the
-- clock: the clock estimate of recorded programs is made from the pairs' traffic).

-- _qp_handle: the QP number behind a QP handle, from the ibv_create_qp that returned it until
-- the next creation that returned the same handle (handles can be reused after a destroy).
-- An equality join on (host, handle) plus this range is much cheaper than an ASOF join.
CREATE TABLE _qp_handle AS
SELECT host, handle, create_seq, qp_num,
       coalesce(lead(create_seq) OVER (PARTITION BY host, handle ORDER BY create_seq), 9223372036854775807) AS until_seq
FROM (SELECT host, seq AS create_seq, handle, out_qp_num AS qp_num
      FROM _call
      WHERE verb = (SELECT code FROM _verb WHERE name = 'ibv_create_qp') AND ret = 0 AND handle <> 0);

-- _host_address: what each host answers to: the GIDs of its tables (SESSION and ibv_query_gid
-- answers, lower-case text) and its ports' LIDs (non-zero: InfiniBand).
CREATE TABLE _host_address AS
SELECT DISTINCT host, lower(gid) AS gid, NULL::BIGINT AS lid FROM _gid WHERE gid IS NOT NULL AND gid <> '::'
UNION
SELECT DISTINCT host, lower(out_gid), NULL FROM _call
WHERE verb IN (SELECT code FROM _verb WHERE name IN ('ibv_query_gid', 'ibv_query_gid_ex')) AND ret = 0
  AND out_gid IS NOT NULL AND out_gid <> '::'
UNION
SELECT DISTINCT host, NULL, lid FROM _port WHERE lid > 0
UNION
SELECT DISTINCT host, NULL, out_lid FROM _call
WHERE verb = (SELECT code FROM _verb WHERE name = 'ibv_query_port') AND ret = 0 AND out_lid > 0;

-- _qp_route: per created QP, where its last successful modifies point it: dest_qp_num and the
-- address vector (GRH dgid or, without GRH, dlid).
CREATE TABLE _qp_route AS
WITH modified AS (
    SELECT c.host, c.handle, c.seq, c.in_attr_mask AS mask, c.in_dest_qp_num, c.in_is_global, lower(c.in_dgid) AS dgid,
           c.in_dlid
    FROM _call c
    WHERE c.verb = (SELECT code FROM _verb WHERE name = 'ibv_modify_qp') AND c.ret = 0)
SELECT h.host, h.handle, h.create_seq, h.qp_num, any_value(cr.in_qp_type) AS qp_type,
       arg_max(m.in_dest_qp_num, m.seq) FILTER (WHERE m.in_dest_qp_num IS NOT NULL) AS dest_qp_num,
       arg_max(coalesce(m.in_is_global, false), m.seq) FILTER (WHERE (m.mask & 128) <> 0) AS is_global,
       arg_max(m.dgid, m.seq) FILTER (WHERE (m.mask & 128) <> 0) AS dgid,
       arg_max(m.in_dlid, m.seq) FILTER (WHERE (m.mask & 128) <> 0) AS dlid
FROM _qp_handle h
JOIN _call cr ON cr.host = h.host AND cr.seq = h.create_seq
LEFT JOIN modified m ON m.host = h.host AND m.handle = h.handle AND m.seq > h.create_seq AND m.seq < h.until_seq
GROUP BY h.host, h.handle, h.create_seq, h.qp_num;

-- _qp_aims: QP (host, handle) addresses host target_host: its AV's dgid is one of that host's
-- GIDs, or (no GRH) its dlid is one of that host's LIDs. (Two equality joins: one join with the
-- OR of both was a nested loop over every QP and every host's addresses, quadratic in a job.)
CREATE TABLE _qp_aims AS
SELECT r.host, r.handle, r.create_seq, a.host AS target_host
FROM _qp_route r
JOIN _host_address a ON a.gid = r.dgid AND a.host <> r.host
WHERE coalesce(r.is_global, false)
UNION
SELECT r.host, r.handle, r.create_seq, a.host
FROM _qp_route r
JOIN _host_address a ON a.lid = r.dlid AND a.host <> r.host
WHERE NOT coalesce(r.is_global, false) AND r.dlid > 0;

-- _qp_self_loop: QPs connected within their own host: the AV names one of the host's own GIDs (or
-- LIDs) and dest_qp_num is a QP of that host (UCX connects an endpoint to its own process over
-- rc_verbs so). Such a QP is paired with its own host, never with a QP of another host that
-- happens to have the same QPN.
CREATE TABLE _qp_self_loop AS
SELECT r.host, r.handle, r.create_seq, r.qp_num, r.dest_qp_num
FROM _qp_route r
WHERE r.dest_qp_num IS NOT NULL
  AND EXISTS (SELECT 1 FROM _host_address a WHERE a.host = r.host
              AND ((coalesce(r.is_global, false) AND a.gid = r.dgid)
                   OR (NOT coalesce(r.is_global, false) AND r.dlid > 0 AND a.lid = r.dlid)))
  AND EXISTS (SELECT 1 FROM _qp_route o WHERE o.host = r.host AND o.qp_num = r.dest_qp_num);

-- _dest_qp_pair: QP pairs proven by the QPs themselves (host_a sorts first), with how:
-- 'dest_qp_num': each one's dest_qp_num is the other's QPN (on hosts that talked out of band,
--   or on any two hosts when nobody did); when a QP has several such candidates (QPNs repeat
--   across devices) only those whose address vectors name the other's host (GID or LID) are
--   kept.
-- 'dest_qp_num (one side)' (no out-of-band channel only): one QP's dest_qp_num is the other's
--   QPN, the other's is not, both address vectors name each other's host, and neither QP is
--   otherwise paired: a connection with one end programmed wrong.
-- 'remote_qpn' (no out-of-band channel only): a UD QP posted sends to the other's QPN through an
--   address handle that names the other's host.
CREATE TABLE _dest_qp_pair AS
WITH no_oob AS (SELECT NOT EXISTS (SELECT 1 FROM host_peers) AS yes),
-- A candidate is a pair of QPs on two hosts (host_a sorts first) whose dest_qp_num each is the
-- other's QPN, on hosts that talked out of band (or on any two when nobody did); its score is how
-- many of the two address vectors name the other's host. QPNs repeat across devices, so in a job a
-- QP has candidates on many hosts: the score-2 ones are found from the addresses first (linear in the
-- QPs), and only a QP without one ("open") is matched by QPN alone, where its best score is decided.
aimed AS (
    SELECT a.host AS host_a, a.handle AS handle_a, a.create_seq AS create_a, a.qp_num AS qp_a,
           b.host AS host_b, b.handle AS handle_b, b.create_seq AS create_b, b.qp_num AS qp_b, 2 AS score
    FROM _qp_route a
    JOIN _qp_aims xa ON xa.host = a.host AND xa.handle = a.handle AND xa.create_seq = a.create_seq
                    AND xa.target_host > a.host
    JOIN _qp_route b ON b.host = xa.target_host AND b.qp_num = a.dest_qp_num AND b.dest_qp_num = a.qp_num
    JOIN _qp_aims xb ON xb.host = b.host AND xb.handle = b.handle AND xb.create_seq = b.create_seq
                    AND xb.target_host = a.host
    WHERE EXISTS (SELECT 1 FROM host_peers p WHERE (p.host, p.peer_host) IN ((a.host, b.host), (b.host, a.host)))
       OR (SELECT yes FROM no_oob)),
pairable AS (
    -- a QP connected within its own host pairs with no other host's
    SELECT r.* FROM _qp_route r
    WHERE NOT EXISTS (SELECT 1 FROM _qp_self_loop l WHERE l.host = r.host AND l.handle = r.handle AND l.create_seq = r.create_seq)),
open_route AS (
    SELECT r.* FROM pairable r
    WHERE NOT EXISTS (SELECT 1 FROM aimed m WHERE m.host_a = r.host AND m.handle_a = r.handle AND m.create_a = r.create_seq)
      AND NOT EXISTS (SELECT 1 FROM aimed m WHERE m.host_b = r.host AND m.handle_b = r.handle AND m.create_b = r.create_seq)),
open_pairs AS (
    -- candidates with an open end (a score-2 candidate would have settled both ends: these score 0 or 1)
    SELECT a.host AS host_a, a.handle AS handle_a, a.create_seq AS create_a, a.qp_num AS qp_a,
           b.host AS host_b, b.handle AS handle_b, b.create_seq AS create_b, b.qp_num AS qp_b
    FROM open_route a
    JOIN pairable b ON b.host > a.host AND a.dest_qp_num = b.qp_num AND b.dest_qp_num = a.qp_num
    UNION
    SELECT a.host, a.handle, a.create_seq, a.qp_num, b.host, b.handle, b.create_seq, b.qp_num
    FROM pairable a
    JOIN open_route b ON b.host > a.host AND a.dest_qp_num = b.qp_num AND b.dest_qp_num = a.qp_num),
mutual AS (
    SELECT * FROM aimed
    UNION ALL
    SELECT o.*,
           (EXISTS (SELECT 1 FROM _qp_aims x WHERE x.host = o.host_a AND x.handle = o.handle_a
                    AND x.create_seq = o.create_a AND x.target_host = o.host_b))::INTEGER
         + (EXISTS (SELECT 1 FROM _qp_aims x WHERE x.host = o.host_b AND x.handle = o.handle_b
                    AND x.create_seq = o.create_b AND x.target_host = o.host_a))::INTEGER AS score
    FROM open_pairs o
    WHERE EXISTS (SELECT 1 FROM host_peers p WHERE (p.host, p.peer_host) IN ((o.host_a, o.host_b), (o.host_b, o.host_a)))
       OR (SELECT yes FROM no_oob)),
best AS (
    -- each QP's best score, whichever end of a candidate it is
    SELECT host, handle, create_seq, max(score) AS best
    FROM (SELECT host_a AS host, handle_a AS handle, create_a AS create_seq, score FROM mutual
          UNION ALL
          SELECT host_b, handle_b, create_b, score FROM mutual)
    GROUP BY ALL),
kept AS (
    SELECT host_a, handle_a, create_a, qp_a, host_b, handle_b, create_b, qp_b, 'dest_qp_num' AS method
    FROM mutual m
    WHERE m.score = (SELECT best FROM best b WHERE b.host = m.host_a AND b.handle = m.handle_a AND b.create_seq = m.create_a)
      AND m.score = (SELECT best FROM best b WHERE b.host = m.host_b AND b.handle = m.handle_b AND b.create_seq = m.create_b)),
kept_end AS (
    SELECT host_a AS host, handle_a AS handle FROM kept UNION SELECT host_b, handle_b FROM kept),
one_side AS (
    -- from the address each QP aims at (never its own host), then the QP there with that QPN
    SELECT a.host AS host_a, a.handle AS handle_a, a.create_seq AS create_a, a.qp_num AS qp_a,
           b.host AS host_b, b.handle AS handle_b, b.create_seq AS create_b, b.qp_num AS qp_b
    FROM _qp_route a
    JOIN _qp_aims xa ON xa.host = a.host AND xa.handle = a.handle AND xa.create_seq = a.create_seq
    JOIN _qp_route b ON b.host = xa.target_host AND b.qp_num = a.dest_qp_num AND b.dest_qp_num IS DISTINCT FROM a.qp_num
                    AND b.qp_type = a.qp_type
    JOIN _qp_aims xb ON xb.host = b.host AND xb.handle = b.handle AND xb.create_seq = b.create_seq AND xb.target_host = a.host
    WHERE (SELECT yes FROM no_oob) AND a.qp_type IN (2, 3)
      AND NOT EXISTS (SELECT 1 FROM kept_end k WHERE k.host = a.host AND k.handle = a.handle)
      AND NOT EXISTS (SELECT 1 FROM kept_end k WHERE k.host = b.host AND k.handle = b.handle)),
one_side_unique AS (
    SELECT * FROM (SELECT *, count(*) OVER (PARTITION BY host_a, handle_a, create_a) AS na,
                             count(*) OVER (PARTITION BY host_b, handle_b, create_b) AS nb FROM one_side)
    WHERE na = 1 AND nb = 1),
ud AS (
    SELECT DISTINCT a.host AS host_a, a.handle AS handle_a, a.create_seq AS create_a, a.qp_num AS qp_a,
           b.host AS host_b, b.handle AS handle_b, b.create_seq AS create_b, b.qp_num AS qp_b
    FROM (SELECT DISTINCT host, handle, ah, remote_qpn FROM _datapath
          WHERE kind = 2 AND verb = 27 AND ret = 0 AND remote_qpn IS NOT NULL AND ah IS NOT NULL
            AND (SELECT yes FROM no_oob)) s
    JOIN _qp_route a ON a.host = s.host AND a.handle = s.handle AND a.qp_type = 4
    JOIN (SELECT host, handle, in_is_global, lower(in_dgid) AS dgid, in_dlid FROM _call
          WHERE verb = (SELECT code FROM _verb WHERE name = 'ibv_create_ah') AND ret = 0 AND handle <> 0) ah
      ON ah.host = s.host AND ah.handle = s.ah
    JOIN _host_address t ON t.host <> s.host
     AND ((coalesce(ah.in_is_global, false) AND t.gid = ah.dgid) OR (NOT coalesce(ah.in_is_global, false) AND ah.in_dlid > 0 AND t.lid = ah.in_dlid))
    JOIN _qp_route b ON b.host = t.host AND b.qp_num = s.remote_qpn AND b.qp_type = 4
    WHERE (SELECT yes FROM no_oob))
SELECT host_a, qp_a, host_b, qp_b, method FROM kept
UNION ALL
SELECT least(host_a, host_b), CASE WHEN host_a < host_b THEN qp_a ELSE qp_b END,
       greatest(host_a, host_b), CASE WHEN host_a < host_b THEN qp_b ELSE qp_a END, 'dest_qp_num (one side)'
FROM one_side_unique
UNION
SELECT least(host_a, host_b), CASE WHEN host_a < host_b THEN qp_a ELSE qp_b END,
       greatest(host_a, host_b), CASE WHEN host_a < host_b THEN qp_b ELSE qp_a END, 'remote_qpn'
FROM ud;
