-- id: sl-mismatch
-- severity: warning
-- role: cause
-- title: The two ends of a connection send with different service levels
-- explanation: The address vector's SL (ah_attr.sl, set at INIT->RTR) picks the virtual lane
--   on InfiniBand and, on RoCE, the 802.1p priority of a VLAN-tagged frame, so with PFC whether
--   the packets are lossless. Each end sets the SL of the packets it sends: when they differ,
--   the two directions are carried differently (requests lossless and ACKs or read responses
--   lossy, or the other way), which shows only under load as retries and timeouts. Reported on
--   the end with the larger value, both values; an unset SL is 0.
-- fix: Use the same SL on both ends (perftest --sl, NCCL_IB_SL, UCX_IB_SL; with rdma_cm the
--   path record's).
-- when: SELECT 1 FROM qp_settings WHERE sl > 0 LIMIT 1
SELECT host, qp_num::BIGINT AS qp, [ev(host, av_seq), ev(p_host, p_av_seq)] AS evidence,
       host || ' QP ' || hex24(qp_num) || ' sends with service level ' || coalesce(sl, 0) || ' but its peer '
           || p_host || ' QP ' || hex24(p_qp_num) || ' with ' || coalesce(p_sl, 0)
           || '; the two directions get different priorities (a VL on InfiniBand, a PCP on RoCE)' AS message
FROM _pair
WHERE av_seq IS NOT NULL AND p_av_seq IS NOT NULL AND coalesce(sl, 0) > coalesce(p_sl, 0)
