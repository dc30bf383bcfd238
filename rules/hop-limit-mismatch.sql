-- id: hop-limit-mismatch
-- severity: warning
-- role: cause
-- title: The two ends of a connection set different GRH hop limits
-- explanation: hop_limit (ah_attr.grh.hop_limit, the IP TTL of a RoCE v2 packet) is how many
--   routers a packet may cross. Each end sets it for the packets it sends: across a routed
--   (layer-3) fabric the end with the smaller value has its packets dropped once the path is
--   longer, while the other end's arrive, so one direction works and the other times out; 0 or
--   1 never leaves the subnet. Reported on the end with the smaller value, both values.
-- fix: Set the same hop_limit on both ends, at least the path's router count (64 is common;
--   ibv_*_pingpong and perftest use 1, enough within one subnet only).
SELECT host, qp_num::BIGINT AS qp, [ev(host, av_seq), ev(p_host, p_av_seq)] AS evidence,
       host || ' QP ' || hex24(qp_num) || ' sends with hop limit ' || coalesce(hop_limit, 0) || ' but its peer '
           || p_host || ' QP ' || hex24(p_qp_num) || ' with ' || coalesce(p_hop_limit, 0)
           || '; across more than ' || coalesce(hop_limit, 0) || ' router(s) only the peer''s packets arrive' AS message
FROM _pair
WHERE is_global AND p_is_global AND av_seq IS NOT NULL AND p_av_seq IS NOT NULL
  AND coalesce(hop_limit, 0) < coalesce(p_hop_limit, 0)
