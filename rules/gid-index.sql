-- id: gid-index
-- severity: error
-- role: cause
-- title: The GID used to address a connection is the wrong one
-- explanation: On RoCE v2 the source GID (ah_attr.grh.sgid_index) picks the IP address and the
--   packet format: an index that is not in the table, a link-local (fe80::) GID or a RoCE v1
--   entry makes packets the peer's RoCE v2 stack never receives. Likewise a dest GID (dgid)
--   that is not one of the peer's GIDs sends the packets elsewhere. The sender then ends in
--   IBV_WC_RETRY_EXC_ERR. UD address handles (ibv_create_ah) are judged the same way, e.g.
--   UCX_IB_GID_INDEX at a link-local GID: UCX's wire-up over ud_verbs then times out.
-- fix: Use the index of the port's RoCE v2 GID for the interface address (IPv4-mapped
--   ::ffff:a.b.c.d for IPv4; `show_gids` / ibv_query_gid_ex lists types), and set dgid to the
--   GID the peer advertised out of band.
SELECT host, qp_num::BIGINT AS qp,
       [ev(host, av_seq), ev(host, gid_seq)] AS evidence,
       host || ' QP ' || hex24(qp_num) || ' sends from GID index ' || sgid_index || override_note(host, '--gid-index')
           || CASE WHEN gid IS NULL THEN ', which is not in the port''s GID table'
                   WHEN link_local THEN ', the link-local GID ' || gid || ' (' || gid_type_name || ')'
                   ELSE ', a ' || gid_type_name || ' GID (' || gid || ')' END
           || '; RoCE v2 needs the routable RoCE v2 GID of the interface' AS message
FROM _bad_sgid
UNION ALL
SELECT host, NULL::BIGINT, [ev(host, av_seq), ev(host, gid_seq)],
       host || ' addresses its UD peers (' || n || ' ibv_create_ah) from GID index ' || sgid_index
           || CASE WHEN gid IS NULL THEN ', which is not in the port''s GID table'
                   WHEN link_local THEN ', the link-local GID ' || gid || ' (' || gid_type_name || ')'
                   ELSE ', a ' || gid_type_name || ' GID (' || gid || ')' END
           || '; RoCE v2 needs the routable RoCE v2 GID of the interface'
FROM _bad_ah_sgid
UNION ALL
SELECT a.host, a.qp_num::BIGINT,
       [ev(a.host, a.av_seq), ev(a.p_host, (SELECT min(seq) FROM gids g WHERE g.host = a.p_host))],
       a.host || ' QP ' || hex24(a.qp_num) || ' sends to GID ' || a.dgid || ', which is not among the GIDs of its peer '
           || a.p_host || ' (' || (SELECT string_agg(DISTINCT gid, ', ' ORDER BY gid) FROM gids g WHERE g.host = a.p_host) || ')'
FROM _pair a
WHERE a.dgid IS NOT NULL AND coalesce(a.is_global, false)
  AND EXISTS (SELECT 1 FROM gids g WHERE g.host = a.p_host)
  AND NOT EXISTS (SELECT 1 FROM gids g WHERE g.host = a.p_host AND g.gid = a.dgid)
