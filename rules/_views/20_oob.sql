-- needs:

-- _oob_params_link: host s sent a PARAMS message that host r received with the same QPN, GID
-- and PSN: the two hosts talk to each other, and these are the peer address texts each uses.
CREATE TABLE _oob_params_link AS
SELECT DISTINCT s.host AS sender, s.peer AS sender_peer, r.host AS receiver, r.peer AS receiver_peer
FROM _oob s
JOIN _oob r ON r.host <> s.host AND r.direction = 'RECEIVED' AND r.oob_kind = 'PARAMS'
           AND r.qp_num = s.qp_num AND r.gid IS NOT DISTINCT FROM s.gid AND r.psn IS NOT DISTINCT FROM s.psn
WHERE s.direction = 'SENT' AND s.oob_kind = 'PARAMS';

-- _oob_link: directed links (sender -> receiver) with the peer text each side records. When no
-- PARAMS matched but exactly two hosts exchanged messages, those two are linked.
CREATE TABLE _oob_link AS
SELECT * FROM _oob_params_link
UNION ALL
SELECT a.host, a.peer, b.host, b.peer
FROM (SELECT DISTINCT host, peer FROM _oob WHERE direction = 'SENT') a
JOIN (SELECT DISTINCT host, peer FROM _oob WHERE direction = 'RECEIVED') b ON a.host <> b.host
WHERE NOT EXISTS (SELECT 1 FROM _oob_params_link)
  AND (SELECT count(DISTINCT host) FROM _oob) = 2;

-- oob_messages: every out-of-band message matched across hosts: the n-th message of a kind
-- the sender sent to a peer is the n-th message of that kind the receiver got from it (TCP
-- keeps order). Unmatched messages (the peer's trace is missing or ends early) are absent.
CREATE TABLE oob_messages AS
WITH sent AS (
    SELECT l.sender, l.receiver, o.seq, o.wall_ns, o.oob_kind,
           row_number() OVER (PARTITION BY l.sender, l.receiver, o.oob_kind ORDER BY o.seq) AS n
    FROM _oob o JOIN _oob_link l ON l.sender = o.host AND l.sender_peer = o.peer
    WHERE o.direction = 'SENT'),
received AS (
    SELECT l.sender, l.receiver, o.seq, o.wall_ns, o.oob_kind,
           row_number() OVER (PARTITION BY l.sender, l.receiver, o.oob_kind ORDER BY o.seq) AS n
    FROM _oob o JOIN _oob_link l ON l.receiver = o.host AND l.receiver_peer = o.peer
    WHERE o.direction = 'RECEIVED')
SELECT s.sender, s.seq AS sent_seq, s.wall_ns AS sent_wall_ns,
       r.receiver, r.seq AS received_seq, r.wall_ns AS received_wall_ns, s.oob_kind
FROM sent s JOIN received r USING (sender, receiver, oob_kind, n);

-- host_peers: pairs of hosts that exchanged out-of-band messages (host < peer_host).
CREATE TABLE host_peers AS
SELECT DISTINCT least(sender, receiver) AS host, greatest(sender, receiver) AS peer_host FROM _oob_link;
