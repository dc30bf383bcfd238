-- id: rd-atomic-budget
-- severity: error
-- role: cause
-- title: The QPs of a device ask for more RDMA READ/atomic responder resources than it has
-- explanation: Each RC QP reserves max_dest_rd_atomic responder resources (set at INIT->RTR)
--   for RDMA READ and atomic requests from its peer; the device has max_res_rd_atom of them in
--   all (ibv_device_attr). A process that brings up many QPs with a deep max_dest_rd_atomic can
--   ask for more than the device has: a driver that enforces the budget refuses the RTR modify,
--   one that does not lets the responder run out under load (RNR/invalid-request NAKs). Judged
--   at each modify that sets max_dest_rd_atomic: what the host's other QPs hold at that moment
--   (from their RTR until they are destroyed) plus what it asks for, against the device's
--   max_res_rd_atom (devices reporting 0 are not judged). The first modify past the budget is
--   reported per host.
-- fix: Lower max_dest_rd_atomic (perftest -o, rdma_cm's responder_resources) or bring up fewer
--   QPs at once; only QPs that serve RDMA READ/atomics need a non-zero depth.
WITH held AS (
    -- responder resources each QP holds, from its RTR until it is destroyed
    SELECT s.host, s.handle, s.max_dest_rd_atomic::BIGINT AS depth, s.rtr_seq AS from_seq,
           coalesce(o.destroy_seq, 9223372036854775807) AS to_seq
    FROM qp_settings s
    LEFT JOIN objects o ON o.host = s.host AND o.object_kind = 'qp' AND o.handle = s.handle AND o.created
                       AND o.create_seq < s.rtr_seq AND coalesce(o.destroy_seq, 9223372036854775807) > s.rtr_seq
    WHERE s.rtr_seq IS NOT NULL AND s.max_dest_rd_atomic > 0),
asked AS (
    SELECT host, seq, handle, qp_num, ok, in_max_dest_rd_atomic::BIGINT AS depth
    FROM _ctl
    WHERE verb = 'ibv_modify_qp' AND in_max_dest_rd_atomic > 0),
total AS (
    SELECT a.host, a.seq, a.qp_num, a.ok, a.depth, coalesce(sum(h.depth), 0) AS others, count(h.handle) AS n_others
    FROM asked a
    LEFT JOIN held h ON h.host = a.host AND h.handle <> a.handle AND h.from_seq < a.seq AND a.seq < h.to_seq
    GROUP BY a.host, a.seq, a.qp_num, a.ok, a.depth),
budget AS (
    SELECT host, any_value(max_res_rd_atom)::BIGINT AS max_res, any_value(dev_name) AS dev_name FROM _device GROUP BY host)
SELECT t.host, t.qp_num::BIGINT AS qp, [ev(t.host, t.seq)] AS evidence,
       t.host || ' QP ' || hex24(t.qp_num) || ' asked for max_dest_rd_atomic ' || t.depth || ' while '
           || t.n_others || ' other QP(s) of ' || coalesce(b.dev_name, 'the device') || ' held ' || t.others
           || ': ' || (t.others + t.depth) || ' responder resources > the device''s ' || b.max_res
           || ' (max_res_rd_atom)' || CASE WHEN t.ok THEN '' ELSE '; the modify failed' END AS message
FROM total t JOIN budget b ON b.host = t.host
WHERE b.max_res > 0 AND t.others + t.depth > b.max_res
QUALIFY row_number() OVER (PARTITION BY t.host ORDER BY t.seq) = 1
