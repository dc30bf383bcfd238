-- id: traffic-class-mismatch
-- severity: warning
-- role: cause
-- title: The two ends of a connection send with different traffic classes
-- explanation: On RoCE the GRH traffic class (its upper six bits are the IP DSCP) picks the
--   switch queue and whether PFC makes it lossless. Each end sets its own for the packets it
--   sends, so when they differ the two directions get different treatment: requests lossless,
--   ACKs and read responses lossy (or the other way), which shows as retries and timeouts under
--   load only (nccl#2383, ucx#10325). Reported on the end with the larger value; an unset traffic
--   class on a GRH address vector is 0.
-- fix: Use the same traffic class on both ends (perftest --tclass, NCCL_IB_TC, UCX_IB_TRAFFIC_CLASS).
-- when: SELECT 1 FROM qp_state_timeline WHERE ok AND req_traffic_class > 0 LIMIT 1
WITH tc AS (
    SELECT host, handle, arg_max(coalesce(req_traffic_class, 0), seq) AS tc, arg_max(seq, seq) AS seq
    FROM qp_state_timeline WHERE ok AND req_is_global GROUP BY host, handle)
SELECT a.host, a.qp_num::BIGINT AS qp, [ev(a.host, x.seq), ev(b.host, y.seq)] AS evidence,
       a.host || ' QP ' || hex24(a.qp_num) || ' sends with traffic class ' || x.tc || ' (DSCP ' || (x.tc >> 2)
           || ') but its peer ' || b.host || ' QP ' || hex24(b.qp_num) || ' with ' || y.tc || ' (DSCP ' || (y.tc >> 2)
           || '); the two directions get different QoS' AS message
FROM qp_peers a
JOIN qp_peers b ON b.pair_id = a.pair_id AND b.host = a.peer_host AND b.qp_num = a.peer_qp_num
JOIN tc x ON x.host = a.host AND x.handle = a.handle
JOIN tc y ON y.host = b.host AND y.handle = b.handle
WHERE x.tc > y.tc
