-- id: pkey-index
-- severity: error
-- role: cause
-- title: A QP uses a P_Key index outside the port's P_Key table
-- explanation: pkey_index selects the partition key sent in every packet. An index beyond the
--   table (RoCE devices usually have a single entry, index 0 = 0xFFFF) is refused with EINVAL
--   by kernels that check it (CONFIG_SECURITY_INFINIBAND); a device that accepts it sends a
--   P_Key the peer does not have, and the peer drops the packets (bad_pkey_cntr).
-- fix: Use pkey_index 0 on RoCE, or an index below pkey_tbl_len whose P_Key (ibv_query_pkey)
--   the peer's port also has.
SELECT c.host, c.qp_num::BIGINT AS qp,
       [ev(c.host, c.seq), ev(c.host, p.seq)] AS evidence,
       c.host || ' QP ' || hex24(c.qp_num) || ' uses P_Key index ' || c.in_pkey_index
           || override_note(c.host, '--pkey-index') || ' but port ' || p.port_num || ' has '
           || p.pkey_tbl_len || ' P_Key entr' || CASE WHEN p.pkey_tbl_len = 1 THEN 'y' ELSE 'ies' END
           || CASE WHEN c.ok THEN ' (accepted)' ELSE ' (refused with ' || c.errno_name || ')' END AS message
FROM _ctl c
JOIN _port_info p ON p.host = c.host
     AND p.port_num = coalesce(c.in_port_num, (SELECT s.port_num FROM qp_settings s WHERE s.host = c.host AND s.handle = c.handle), 1)
WHERE c.verb = 'ibv_modify_qp' AND (c.in_attr_mask & 16) <> 0
  AND p.pkey_tbl_len IS NOT NULL AND c.in_pkey_index >= p.pkey_tbl_len
