-- id: mr-access-excess
-- severity: info
-- role: cause
-- title: A memory region grants remote access that no peer operation used
-- explanation: Every remote right (REMOTE_WRITE, REMOTE_READ, REMOTE_ATOMIC) on an MR lets any
--   peer holding its rkey write, read or modify that memory. Rights no operation in the
--   capture needed are attack surface and hide mistakes (a stray rkey then succeeds).
--   Only judged when the peer's trace is loaded.
-- fix: Register each MR with the rights its peers actually use (SEND/RECV needs only
--   LOCAL_WRITE on the receive side).
WITH used AS (
    SELECT x.peer_host AS host, p.rkey,
           bit_or(CASE WHEN p.opcode IN (0, 1) THEN 2 WHEN p.opcode = 4 THEN 4 WHEN p.opcode IN (5, 6) THEN 8 ELSE 0 END) AS rights
    FROM _post_stats p JOIN qp_peers x ON x.host = p.host AND x.qp_num = p.qp_num
    WHERE p.queue = 'send' AND p.rkey IS NOT NULL
    GROUP BY ALL)
SELECT m.host, NULL::BIGINT AS qp,
       [ev(m.host, m.create_seq)] AS evidence,
       m.host || ' MR rkey 0x' || lower(hex(m.rkey)) || ' is registered with ' || m.access_names || ' but no peer used '
           || flags_access((m.access & 14) & ~coalesce(u.rights, 0)) || override_note(m.host, '--mr-access') AS message
FROM mrs m
LEFT JOIN used u ON u.host = m.host AND u.rkey = m.rkey
WHERE (m.access & 14) & ~coalesce(u.rights, 0) <> 0
  AND EXISTS (SELECT 1 FROM qp_peers x WHERE x.host = m.host)
