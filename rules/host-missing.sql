-- id: host-missing
-- severity: error
-- title: A host talked to a peer whose trace was not loaded
-- explanation: The out-of-band messages show a peer, but no loaded trace is that peer, so every
--   rule that compares the two ends (PSNs, MTUs, QPNs, timing) cannot run for its
--   connections. Only one side of the story is visible.
-- fix: Copy the peer's trace folder (OUT/<peer-host-id>/) next to this one and analyse the
--   parent folder, or pass both folders.
SELECT o.host, NULL::BIGINT AS qp,
       [ev(o.host, min(o.seq))] AS evidence,
       o.host || ' exchanged ' || count(*) || ' out-of-band message(s) with ' || o.peer
           || ' but no loaded trace is that peer' AS message
FROM _oob o
WHERE o.oob_kind <> 'INVALID'
  AND NOT EXISTS (SELECT 1 FROM _oob_link l
                  WHERE (l.sender = o.host AND l.sender_peer = o.peer) OR (l.receiver = o.host AND l.receiver_peer = o.peer))
GROUP BY o.host, o.peer
