-- needs: 20_oob, 25_pairing

-- Clock alignment. Every sample is a message with a send time on one host's clock and a receive
-- time on another's; a message from the reference a to host b bounds b's offset from above
-- (offset <= receive - send), one from b to a from below (offset >= send - receive), as in NTP.
-- Hosts that talked out of band use their matched out-of-band messages. Hosts without any
-- out-of-band event (recorded programs: their own exchange is invisible) use their traffic:
--   * a receive-consuming request (SEND, SEND_WITH_IMM, SEND_WITH_INV, RDMA_WRITE_WITH_IMM) can
--     only arrive after its ibv_post_send started, and the peer's poll that returned its receive
--     completion ends after it arrived: (post start on X, poll on Y) is a message X -> Y;
--   * on RC, the receive buffer it landed in was posted before it arrived, and the ACK that
--     completes the send on X leaves Y after it arrived: (post_recv start on Y, poll of the send
--     completion on X) is a message Y -> X.
-- The n-th receive-consuming request a QP sent is the n-th receive its peer QP completed (RC and
-- UC deliver in order; UD per source QP); a pair is kept only when the byte counts (and the
-- immediate data) agree. A call's start is its event time minus its duration (conservative for
-- recorders that stamp the end of a call, exact or earlier for those that stamp its start).

-- _dp_quiet_host: hosts without out-of-band events, whose clock is judged from their traffic.
CREATE TABLE _dp_quiet_host AS
SELECT host FROM _host WHERE status IN ('CLEAN', 'REPAIRED', 'RECORDING', 'TRUNCATED', 'CORRUPT')
EXCEPT SELECT DISTINCT host FROM _oob;

-- _dp_post: successful posts of quiet hosts, one row per work request, with the call's start.
CREATE TABLE _dp_post AS
WITH calls AS (
    SELECT d.host, d.seq, d.verb, d.handle, d.qp_num, d.wall_ns - coalesce(d.duration_ns, 0) AS start_ns,
           d.wr_id, d.opcode, CASE WHEN coalesce(d.count1, 0) > 0 THEN coalesce(d.length, 0) ELSE 0 END AS bytes,
           d.imm_data, d.remote_qpn
    FROM _datapath d
    WHERE d.kind = 2 AND d.verb IN (27, 28, 37) AND d.ret = 0 AND d.host IN (SELECT host FROM _dp_quiet_host)
    UNION ALL
    SELECT c.host, c.seq, c.verb, c.handle, c.in_qp_num, c.wall_ns - coalesce(c.duration_ns, 0),
           c.in_wr_id, c.in_wr_opcode, CASE WHEN coalesce(c.in_num_sge, 0) > 0 THEN coalesce(c.in_length, 0) ELSE 0 END,
           c.in_imm_data, c.in_remote_qpn
    FROM _call c
    WHERE c.verb IN (27, 28, 37) AND c.ret = 0 AND c.host IN (SELECT host FROM _dp_quiet_host)),
located AS (
    SELECT c.*, coalesce(c.qp_num, q.qp_num) AS qpn
    FROM calls c
    LEFT JOIN _qp_handle q ON q.host = c.host AND q.handle = c.handle AND c.seq >= q.create_seq AND c.seq < q.until_seq)
SELECT l.host, l.seq, l.verb, l.qpn AS qp_num, l.start_ns, 0 AS wr_index, l.wr_id, l.opcode, l.bytes, l.imm_data,
       l.remote_qpn
FROM located l
WHERE NOT EXISTS (SELECT 1 FROM _wr w WHERE w.host = l.host AND w.seq = l.seq)
UNION ALL
SELECT l.host, l.seq, l.verb, l.qpn, l.start_ns, w.wr_index, w.wr_id, w.wr_opcode, w.total_length, w.imm_data,
       w.remote_qpn
FROM located l JOIN _wr w ON w.host = l.host AND w.seq = l.seq;

-- _dp_message: requests matched with the receive completion they caused at the peer QP.
CREATE TABLE _dp_message AS
WITH pairs AS (
    SELECT o.*, coalesce(r.qp_type = 4, false) AS is_ud
    FROM (SELECT host_a AS host_s, qp_a AS qp_s, host_b AS host_r, qp_b AS qp_r FROM _dest_qp_pair
          UNION
          SELECT host_b, qp_b, host_a, qp_a FROM _dest_qp_pair) o
    LEFT JOIN (SELECT host, qp_num, any_value(qp_type) AS qp_type FROM _qp_route GROUP BY ALL) r
           ON r.host = o.host_r AND r.qp_num = o.qp_r),
sends AS (
    SELECT p.host_s, p.qp_s, p.host_r, p.qp_r, s.seq, s.start_ns, s.wr_id, s.opcode, s.bytes, s.imm_data,
           p.is_ud,
           row_number() OVER (PARTITION BY p.host_s, p.qp_s, p.host_r, p.qp_r ORDER BY s.seq, s.wr_index) AS n
    FROM pairs p
    JOIN _dp_post s ON s.host = p.host_s AND s.qp_num = p.qp_s AND s.verb = 27 AND s.opcode IN (1, 2, 3, 9)
                   AND (s.remote_qpn IS NULL OR s.remote_qpn = p.qp_r)),
recvs AS (
    SELECT p.host_s, p.qp_s, p.host_r, p.qp_r, d.seq, d.wall_ns, d.wr_id, d.length AS byte_len, d.imm_data,
           d.flags AS wc_flags,
           row_number() OVER (PARTITION BY p.host_s, p.qp_s, p.host_r, p.qp_r ORDER BY d.seq) AS n
    FROM pairs p
    JOIN _datapath d ON d.host = p.host_r AND d.qp_num = p.qp_r AND d.kind = 3 AND d.ret = 0 AND d.opcode IN (128, 129)
    WHERE d.host IN (SELECT host FROM _dp_quiet_host)
      AND (NOT p.is_ud OR d.remote_qpn = p.qp_s))
SELECT s.host_s AS sender, s.qp_s AS sender_qp, s.seq AS send_seq, s.start_ns AS send_start_ns, s.wr_id AS send_wr_id,
       s.is_ud, r.host_r AS receiver, r.qp_r AS receiver_qp, r.seq AS recv_seq, r.wall_ns AS recv_wall_ns,
       r.wr_id AS recv_wr_id
FROM sends s
JOIN recvs r USING (host_s, qp_s, host_r, qp_r, n)
WHERE (r.byte_len = s.bytes OR (s.is_ud AND r.byte_len = s.bytes + 40))
  AND (s.opcode NOT IN (1, 3) OR (r.wc_flags & 2) = 0 OR r.imm_data = s.imm_data);

-- _clock_sample: every message usable for the clock: sender and receiver host, send time on the
-- sender's clock, receive time on the receiver's, and where it comes from.
CREATE TABLE _clock_sample AS
SELECT sender, receiver, sent_wall_ns AS sent_ns, received_wall_ns AS received_ns, 'oob' AS source
FROM oob_messages
UNION ALL
SELECT sender, receiver, send_start_ns, recv_wall_ns, 'send->recv' FROM _dp_message
UNION ALL
-- the receive buffer was posted (receiver) before the ACK completed the send (sender)
SELECT m.receiver, m.sender, rp.start_ns, sc.wall_ns, 'recv-posted->ack'
FROM _dp_message m
ASOF JOIN (SELECT host, qp_num, seq, start_ns, wr_id FROM _dp_post WHERE verb IN (28, 37)) rp
  ON rp.host = m.receiver AND rp.qp_num = m.receiver_qp AND rp.wr_id = m.recv_wr_id AND m.recv_seq > rp.seq
ASOF JOIN (SELECT host, qp_num, seq, wall_ns, wr_id FROM _datapath WHERE kind = 3 AND ret = 0 AND opcode < 128) sc
  ON sc.host = m.sender AND sc.qp_num = m.sender_qp AND sc.wr_id = m.send_wr_id AND sc.seq > m.send_seq
WHERE NOT m.is_ud;

-- host_clock_offset: how far each host's wall clock is ahead of its reference host's. For each
-- pair of hosts with samples both ways, the estimate keeps the largest consistent set of
-- samples (recording latency can make an out-of-band sample impossible: a SENT recorded after
-- the peer's RECEIVED): among the samples' own bounds it picks the offset that the fewest samples
-- contradict (ties: the one nearest 0), drops those samples, and reports the middle of the
-- remaining interval with half its width as uncertainty. Only the 64 tightest bounds of each
-- direction are candidates (a long trace has millions of traffic samples; only the tight ones
-- decide). The reference of a pair is the host whose name sorts first; a host in several pairs
-- takes the first, and offsets chain through references (c's offset from b plus b's from a),
-- uncertainties adding up. Hosts without samples both ways keep offset 0 (method 'none').
-- ts_ns = wall_ns - offset_ns puts every host on its reference's clock.
CREATE TABLE host_clock_offset AS
WITH RECURSIVE all_samples AS (
    SELECT least(sender, receiver) AS ref, greatest(sender, receiver) AS other,
           sender < receiver AS upper_bound,
           CASE WHEN sender < receiver THEN received_ns - sent_ns ELSE sent_ns - received_ns END AS bound,
           source
    FROM _clock_sample WHERE sender <> receiver),
samples AS (
    SELECT * FROM (SELECT *, row_number() OVER (PARTITION BY ref, other, upper_bound
                                                ORDER BY CASE WHEN upper_bound THEN bound ELSE -bound END) AS tightness
                   FROM all_samples)
    WHERE tightness <= 64),
bounds AS (
    SELECT ref, other, bound, count(*) FILTER (WHERE upper_bound) AS upper_n, count(*) FILTER (WHERE NOT upper_bound) AS lower_n
    FROM samples GROUP BY ref, other, bound),
-- a candidate is contradicted by the upper bounds below it and the lower bounds above it: running
-- sums over the sorted bounds (a join of every candidate with every sample was quadratic per pair)
scored AS (
    SELECT ref, other, bound AS candidate,
           (coalesce(sum(upper_n) OVER (PARTITION BY ref, other ORDER BY bound
                                        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)
          + coalesce(sum(lower_n) OVER (PARTITION BY ref, other ORDER BY bound
                                        ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING), 0))::BIGINT AS contradicted
    FROM bounds),
best AS (
    SELECT ref, other, arg_min(candidate, [contradicted, abs(candidate)]) AS candidate
    FROM scored GROUP BY ref, other),
interval AS (
    SELECT b.ref, b.other,
           max(s.bound) FILTER (WHERE NOT s.upper_bound AND s.bound <= b.candidate) AS lower,
           min(s.bound) FILTER (WHERE s.upper_bound AND s.bound >= b.candidate) AS upper
    FROM best b JOIN samples s ON s.ref = b.ref AND s.other = b.other
    GROUP BY b.ref, b.other),
counted AS (
    SELECT b.ref, b.other,
           count(*) FILTER (WHERE (s.upper_bound AND s.bound >= b.candidate) OR (NOT s.upper_bound AND s.bound <= b.candidate))
               AS used,
           count(*) FILTER (WHERE (s.upper_bound AND s.bound < b.candidate) OR (NOT s.upper_bound AND s.bound > b.candidate))
               AS dropped,
           bool_or(s.source = 'oob') AS from_oob
    FROM best b JOIN all_samples s ON s.ref = b.ref AND s.other = b.other
    GROUP BY b.ref, b.other),
estimated AS (
    SELECT i.other AS host, i.ref AS reference_host, (i.lower + i.upper) // 2 AS offset_ns,
           (i.upper - i.lower) // 2 AS uncertainty_ns, c.used AS samples, c.dropped,
           CASE WHEN c.from_oob THEN 'oob-ntp' ELSE 'causality' END AS method
    FROM interval i JOIN counted c ON c.ref = i.ref AND c.other = i.other
    WHERE i.lower IS NOT NULL AND i.upper IS NOT NULL
    UNION ALL
    -- a further process of a recorded host (folder <host>.<pid>) reads the same clock
    SELECT q.host, b.host, 0, 0, 0, 0, 'same-host'
    FROM _dp_quiet_host q JOIN _dp_quiet_host b ON b.host = regexp_extract(q.host, '^(.*)\.[0-9]+$', 1)
    WHERE regexp_matches(q.host, '\.[0-9]+$')),
direct AS (
    SELECT *, row_number() OVER (PARTITION BY host ORDER BY method <> 'same-host', reference_host) AS pick
    FROM estimated),
chain(host, root, offset_ns, uncertainty_ns, depth) AS (
    SELECT d.reference_host, d.reference_host, 0::BIGINT, 0::BIGINT, 0
    FROM direct d
    WHERE d.pick = 1 AND NOT EXISTS (SELECT 1 FROM direct x WHERE x.pick = 1 AND x.host = d.reference_host)
    UNION
    SELECT d.host, c.root, c.offset_ns + d.offset_ns, c.uncertainty_ns + d.uncertainty_ns, c.depth + 1
    FROM direct d JOIN chain c ON c.host = d.reference_host
    WHERE d.pick = 1 AND c.depth < 64)
SELECT h.host,
       coalesce(c.root, h.host) AS reference_host,
       coalesce(c.offset_ns, 0)::BIGINT AS offset_ns,
       -- a recorded host with no estimate cannot be ordered against the others: an hour of doubt
       (CASE WHEN c.host IS NULL AND h.host IN (SELECT host FROM _dp_quiet_host)
                  AND (SELECT count(*) FROM _dp_quiet_host) > 1 THEN 3600000000000
             ELSE coalesce(c.uncertainty_ns, 0) END)::BIGINT AS uncertainty_ns,
       coalesce(d.samples, 0)::BIGINT AS samples,
       coalesce(d.dropped, 0)::BIGINT AS dropped,
       CASE WHEN d.host IS NOT NULL THEN d.method
            WHEN c.host IS NOT NULL THEN 'reference'
            ELSE 'none' END AS method
FROM (SELECT DISTINCT host FROM _host WHERE status IN ('CLEAN', 'REPAIRED', 'RECORDING', 'TRUNCATED', 'CORRUPT')) h
LEFT JOIN direct d ON d.host = h.host AND d.pick = 1
LEFT JOIN (SELECT DISTINCT host, root, offset_ns, uncertainty_ns FROM chain) c ON c.host = h.host;

-- The margin cross-host "before/after" rules add to a host's uncertainty_ns: SENT events are
-- recorded just after the write, so samples can lag by the recording latency.
CREATE MACRO clock_slack_ns() AS 1000000;

-- oob: every out-of-band message with its parameters (one column per attribute name, e.g.
-- qp_num, gid, psn, path_mtu) and the aligned time.
CREATE VIEW oob AS
SELECT o.*, o.wall_ns - coalesce(c.offset_ns, 0) AS ts_ns
FROM _oob o LEFT JOIN host_clock_offset c USING (host);
