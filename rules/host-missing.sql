-- id: host-missing
-- severity: error
-- role: cause
-- title: A host talked to a peer whose trace was not loaded
-- explanation: The out-of-band messages show a peer, but no loaded trace is that peer, so every
--   rule that compares the two ends (PSNs, MTUs, QPNs, timing) cannot run for its
--   connections. Only one side of the story is visible. In a recorded program (no out-of-band
--   channel of ours) a QP connected to a QPN that no QP of the loaded traces has, at an address
--   (GID/LID) no loaded trace has or on a host whose QPs none match, says the same: the peer
--   process was not recorded, or its trace folder (OUT/<host-id>.<pid>/ for a second process)
--   was not loaded. A QP connected within its own host (its AV names one of the host's own GIDs
--   and its dest_qp_num is a QP of that host, as UCX connects a process to itself) has its peer
--   there. Connections the listener refused (a stray or hostile client: garbage, a wrong
--   token, silence) are recorded as refused (an INVALID event) and are no peer: never reported here.
-- fix: Copy the peer's trace folder (OUT/<peer-host-id>/) next to this one and analyse the
--   parent folder, or pass both folders.
SELECT o.host, NULL::BIGINT AS qp,
       [ev(o.host, min(o.seq))] AS evidence,
       o.host || ' exchanged ' || count(*) || ' out-of-band message(s) with ' || o.peer
           || ' but no loaded trace is that peer' AS message
FROM _oob o
WHERE o.oob_kind <> 'INVALID'
  -- a refused connection: the INVALID event says so; traces of older agents also recorded its HELLO
  AND NOT (EXISTS (SELECT 1 FROM _oob r WHERE r.host = o.host AND r.peer = o.peer AND r.oob_kind = 'INVALID')
           AND NOT EXISTS (SELECT 1 FROM _oob p WHERE p.host = o.host AND p.peer = o.peer AND p.oob_kind = 'PARAMS'))
  AND NOT EXISTS (SELECT 1 FROM _oob_link l
                  WHERE (l.sender = o.host AND l.sender_peer = o.peer) OR (l.receiver = o.host AND l.receiver_peer = o.peer))
GROUP BY o.host, o.peer
UNION ALL
SELECT r.host, r.qp_num::BIGINT,
       list_filter([ev(r.host, s.dest_qp_num_seq)], lambda e: e.seq IS NOT NULL),
       r.host || ' QP ' || hex24(r.qp_num) || ' is connected to QPN ' || hex24(r.dest_qp_num)
           || CASE WHEN coalesce(r.is_global, false) THEN ' at GID ' || r.dgid ELSE ' at LID ' || r.dlid END
           || CASE WHEN NOT EXISTS (SELECT 1 FROM _qp_aims x WHERE x.host = r.host AND x.handle = r.handle
                                    AND x.create_seq = r.create_seq)
                   THEN ', an address no loaded trace has' ELSE ', but no QP of the host(s) with that address matches' END
           || ': the peer''s trace was not loaded (or the peer was not recorded)'
FROM _qp_route r
JOIN qp_settings s ON s.host = r.host AND s.handle = r.handle
WHERE r.host IN (SELECT host FROM _dp_quiet_host) AND r.dest_qp_num IS NOT NULL AND r.qp_type IN (2, 3)
  AND NOT EXISTS (SELECT 1 FROM qp_peers p WHERE p.host = r.host AND p.qp_num = r.qp_num)
  -- connected within its own host (its peer is there): no host is missing
  AND NOT EXISTS (SELECT 1 FROM _qp_self_loop l WHERE l.host = r.host AND l.handle = r.handle AND l.create_seq = r.create_seq)
