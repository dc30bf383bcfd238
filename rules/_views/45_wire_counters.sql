-- needs: 40_calls

-- wire_counters: what the device counted on the wire during the capture: every counter that
-- describes a packet-level event (NAKs, duplicates, retries, drops), as its END - START delta,
-- non-zero deltas only, with what it means and which role of a connection counts it. Counters
-- are per device, not per QP: with one connection per device they describe that connection.
CREATE TABLE wire_counters AS
WITH meaning(counter, role, text) AS (VALUES
    ('duplicate_request', 'responder', 'requests behind the expected PSN (duplicates, re-acknowledged and dropped)'),
    ('out_of_seq_request', 'responder', 'requests ahead of the expected PSN (answered with PSN sequence error NAKs)'),
    ('send_rnr_err', 'responder', 'RNR NAKs sent (no receive posted)'),
    ('rcvd_dropped', 'responder', 'valid packets the transport refused (QP state, invalid request, source)'),
    ('rcvd_unknown_qpn', 'responder', 'packets for a QP number that does not exist'),
    ('bad_pkey', 'responder', 'packets with a P_Key mismatch'),
    ('qkey_violation', 'responder', 'packets with a Q_Key mismatch'),
    ('rcvd_seq_err', 'requester', 'PSN sequence error NAKs received'),
    ('rcvd_rnr_err', 'requester', 'RNR NAKs received'),
    ('completer_retry_err', 'requester', 'retransmissions (ACK timeout or sequence NAK)'),
    ('local_ack_timeout_err', 'requester', 'ACK timer expiries with data outstanding'),
    ('retry_exceeded_err', 'requester', 'work requests failed after the transport retries ran out'),
    ('retry_rnr_exceeded_err', 'requester', 'work requests failed after the RNR retries ran out'),
    ('ack_deferred', 'requester', 'times the requester stopped (window full, initiator depth, fence)'),
    ('send_err', 'link', 'packets the device failed to send'),
    ('sent_unroutable', 'link', 'packets sent from or to a GID nobody answers'),
    ('rcvd_link_mtu_drop', 'link', 'received frames dropped above the link MTU'),
    ('sent_link_mtu_drop', 'link', 'frames not sent: larger than the link MTU'),
    ('rcvd_bad_icrc', 'link', 'received packets with a bad ICRC'),
    ('rcvd_malformed', 'link', 'received datagrams that are not valid RoCEv2'),
    ('cq_overflow', 'link', 'completions lost to a full CQ'),
    ('link_downed', 'link', 'link down events'))
SELECT c.host, c.seq, c.device, c.name AS counter, c.delta, m.role, m.text AS meaning
FROM counters c JOIN meaning m ON m.counter = c.name
WHERE c.phase = 'END' AND c.delta > 0;

-- wire_text(h, names): '<h> counted <counter> +<delta>, ...' for those of the listed counters
-- host h counted, or NULL: how a rule cites wire evidence in its message.
CREATE MACRO wire_text(h, names) AS
    (SELECT h || ' counted ' || string_agg(w.counter || ' +' || w.delta, ', ' ORDER BY w.counter)
     FROM wire_counters w WHERE w.host = h AND list_contains(names, w.counter));

-- wire_seq(h): the seq of host h's END counters event (evidence for wire_text), or NULL.
CREATE MACRO wire_seq(h) AS (SELECT max(w.seq) FROM wire_counters w WHERE w.host = h);
