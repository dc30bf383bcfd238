-- id: limit-exceeded
-- severity: error
-- role: cause
-- title: A create or modify asked for more than the device allows
-- explanation: ibv_create_qp, ibv_create_cq and ibv_modify_qp fail with EINVAL (or ENOMEM)
--   when a requested value is above the device's limit: queue depths above max_qp_wr, SGEs
--   above max_sge, inline data above the provider's inline limit, CQ entries above max_cqe,
--   max_rd_atomic above max_qp_init_rd_atom, max_dest_rd_atomic above max_qp_rd_atom; and
--   retry_cnt/rnr_retry above 7, timeout above 31 (the widths of their fields). The limits are
--   the device attributes the recorder read at the first open (the SESSION), compared with
--   every value of the failed call (_limit_table lists them).
-- fix: Ask for at most the device's limit (ibv_query_device / ibv_devinfo -v show them); for
--   perftest lower -I (inline), -o (outstanding reads) or the depths -t/-r.
SELECT host, qp_num::BIGINT AS qp, [ev(host, seq)] AS evidence,
       verb || ' on ' || host || CASE WHEN qp_num IS NOT NULL THEN ' QP ' || hex24(qp_num) ELSE '' END
           || ' asked for ' || field || ' ' || requested
           || CASE WHEN fixed THEN ' > ' || limit_value || ' (the largest value of its ' || limit_name || ')'
                   ELSE ' > this device''s ' || limit_value || ' ('
                        || CASE WHEN limit_name = field THEN '' ELSE limit_name || ' of ' END || device || ')' END
           || '; the device refuses the call' AS message
FROM _limit_check
WHERE exceeded
