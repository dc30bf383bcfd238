-- id: grh-missing
-- severity: error
-- role: cause
-- title: An address vector without a GRH on a RoCE port
-- explanation: RoCE has no LIDs: packets are routed by the GID in the Global Route Header, so
--   an address vector on an Ethernet port must have is_global = 1 with the peer's GID as dgid.
--   The kernel refuses such an INIT->RTR modify (or ibv_create_ah) with EINVAL
--   (rdma_check_ah_attr); a device that accepts it cannot address the peer.
-- fix: Set ah_attr.is_global = 1, grh.dgid = the peer's GID, grh.sgid_index = the local RoCE v2
--   GID index, grh.hop_limit > 0 (rc_pingpong needs -g for this).
SELECT c.host, c.qp_num::BIGINT AS qp,
       list_filter([ev(c.host, c.seq), ev(c.host, p.seq)], lambda e: e.seq IS NOT NULL) AS evidence,
       c.verb || ' on ' || c.host || CASE WHEN c.qp_num IS NOT NULL THEN ' QP ' || hex24(c.qp_num) ELSE '' END
           || ' gives an address vector without a GRH (is_global = 0) on RoCE port ' || p.port_num
           || override_note(c.host, '--no-grh')
           || CASE WHEN c.ok THEN ': accepted, but the peer cannot be addressed by LID on Ethernet'
                   ELSE ': refused with ' || c.errno_name END AS message
FROM _ctl c
JOIN _port_info p ON p.host = c.host AND p.port_num = coalesce(c.in_ah_port_num, c.in_port_num, 1)
WHERE ((c.verb = 'ibv_modify_qp' AND (c.in_attr_mask & 128) <> 0) OR c.verb = 'ibv_create_ah')
  AND NOT coalesce(c.in_is_global, false)
  AND p.link_layer = 2
