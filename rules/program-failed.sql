-- id: program-failed
-- severity: error
-- role: consequence
-- title: A recorded program exited with a failure status, and no verbs call or completion had failed
-- explanation: The program gave up on its own: it checked something the verbs calls did not
--   refuse (perftest compares the two ends' GID types and exits 1 on "Found Incompatibility
--   issue with GID types"; a program may time out waiting for its peer, or reject an option).
--   The trace's END has its exit status (format 1.4); the message names the last verbs call
--   before it tore its objects down, and the GID it read last with its type and kind, beside
--   the GIDs the other recorded hosts read (both ends must use the same GID type and kind),
--   or, when a connected peer had a failed verbs call, that call (this program then only lost
--   its peer).
-- fix: Read the program's own error output for the check that failed; when the GIDs differ in
--   type or kind, pick the same kind on both hosts (e.g. the IPv4-mapped RoCE v2 GID: perftest
--   -x, ibv_*_pingpong -g).
-- when: SELECT 1 FROM hosts WHERE ending = 'EXITED' AND exit_status <> 0 LIMIT 1
WITH failed AS (
    -- exited non-zero by itself, with no failed verbs call (verb-failed says those)
    SELECT h.host, h.exit_status, h.last_seq AS end_seq,
           regexp_extract(split_part(trim(h.command_line), ' ', 1), '[^/]+$') AS program
    FROM hosts h
    WHERE h.ending = 'EXITED' AND h.exit_status <> 0
      AND NOT EXISTS (SELECT 1 FROM _failed_calls f WHERE f.host = h.host)
      -- nor an error completion (completion-error says those; 5 = a flush, which follows one)
      AND NOT EXISTS (SELECT 1 FROM _completion_stats c WHERE c.host = h.host AND c.status NOT IN (0, 5))),
last_call AS (
    -- the last call before the teardown (destroy, dealloc, dereg, close, free, ack); one struct,
    -- as arg_max skips a NULL argument
    SELECT host, l.seq, l.verb, l.port_num, l.gid_index, l.qp_num
    FROM (SELECT c.host, arg_max({'seq': c.seq, 'verb': c.verb, 'port_num': c.in_port_num,
                                  'gid_index': c.in_gid_index, 'qp_num': c.qp_num}, c.seq) AS l
          FROM calls c
          WHERE c.host IN (SELECT host FROM failed)
            AND NOT regexp_matches(c.verb, '^(ibv_(destroy|dealloc|dereg|close|free|ack)|rdma_(destroy|free|ack|disconnect|leave))')
          GROUP BY c.host)),
gid_read AS (
    -- the last GID each recorded host read, with its type and kind from the SESSION's GID table
    SELECT r.host, r.seq, r.gid_index, r.gid,
           coalesce(g.gid_type_name, replace(enum_gid_type(r.gid_type), 'IBV_GID_TYPE_', '')) AS type_name,
           CASE WHEN g.link_local OR lower(r.gid) LIKE 'fe8%' THEN 'link-local'
                WHEN g.ipv4_mapped OR lower(r.gid) LIKE '::ffff:%' THEN 'IPv4-mapped' ELSE 'global' END AS kind
    FROM (SELECT host, q.seq, q.port_num, q.gid_index, q.gid, q.gid_type
          FROM (SELECT host, arg_max({'seq': seq, 'port_num': in_port_num, 'gid_index': in_gid_index, 'gid': out_gid,
                                      'gid_type': out_gid_type}, seq) AS q
                FROM calls WHERE verb IN ('ibv_query_gid', 'ibv_query_gid_ex') AND ok GROUP BY host)) r
    LEFT JOIN gids g ON g.host = r.host AND g.port_num = coalesce(r.port_num, 1) AND g.gid_index = r.gid_index),
others AS (
    -- the other hosts' last GIDs, marked when their kind or type differs from this host's
    SELECT f.host, string_agg(o.host || ' read index ' || o.gid_index || ' (' || o.gid || ', ' || o.kind
                              || coalesce(' ' || o.type_name, '') || ')'
                              || CASE WHEN m.kind IS DISTINCT FROM o.kind OR m.type_name IS DISTINCT FROM o.type_name
                                      THEN ': another GID kind or type' ELSE '' END, ', ' ORDER BY o.host) AS text,
           bool_or(m.kind IS DISTINCT FROM o.kind OR m.type_name IS DISTINCT FROM o.type_name) AS differs
    FROM failed f JOIN gid_read o ON o.host <> f.host
    LEFT JOIN gid_read m ON m.host = f.host
    GROUP BY f.host),
peer_failed AS (
    -- a connected peer's first failed verbs call: this program may only have lost its peer (its
    -- connected peers only, so a job of many hosts names a few, not every failed host)
    SELECT f.host, string_agg(x.host || '''s ' || x.verb || ' (' || x.errno_name || ')', ', ' ORDER BY x.host) AS text
    FROM failed f
    JOIN (SELECT DISTINCT host, peer_host FROM qp_peers) q ON q.host = f.host
    JOIN (SELECT host, arg_min(verb, seq) AS verb, arg_min(errno_name, seq) AS errno_name
          FROM _failed_calls GROUP BY host) x ON x.host = q.peer_host AND x.host <> f.host
    GROUP BY f.host)
SELECT f.host, NULL::BIGINT AS qp,
       list_filter([ev(f.host, l.seq), ev(f.host, g.seq), ev(f.host, f.end_seq)], lambda e: e.seq IS NOT NULL) AS evidence,
       coalesce(f.program, 'the program') || ' on ' || f.host || ' exited ' || f.exit_status
           || CASE WHEN l.seq IS NULL THEN ' before any verbs call'
                   ELSE ' after its last verbs call ' || l.verb
                        || CASE WHEN l.gid_index IS NOT NULL THEN '(index ' || l.gid_index || ')'
                                WHEN l.port_num IS NOT NULL THEN '(port ' || l.port_num || ')' ELSE '' END
                        || ', with no failed verbs call' END
           || CASE WHEN g.seq IS NOT NULL
                   THEN '; the last GID it read: index ' || g.gid_index || ' (' || g.gid || ', ' || g.kind
                        || coalesce(' ' || g.type_name, '') || ')'
                        || CASE WHEN o.text IS NOT NULL THEN '; ' || o.text ELSE '' END
                   ELSE '' END
           || CASE WHEN o.differs THEN '; both ends must use a GID of the same type and kind'
                   WHEN p.text IS NOT NULL THEN '; its peer failed first: ' || p.text
                        || ', and this program gave up without its peer'
                   ELSE '; the cause is not in the trace: read the program''s own error output' END AS message
FROM failed f
LEFT JOIN last_call l ON l.host = f.host
LEFT JOIN gid_read g ON g.host = f.host
LEFT JOIN others o ON o.host = f.host
LEFT JOIN peer_failed p ON p.host = f.host
