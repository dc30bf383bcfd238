-- id: psn-misaligned
-- severity: error
-- role: cause
-- title: A sender's first PSN is not the PSN its peer expects
-- explanation: The requester starts at sq_psn; the responder accepts only its rq_psn and
--   treats anything else as a duplicate (behind) or a sequence error (ahead). A mismatch means
--   no message on that direction is ever accepted: the sender ends in IBV_WC_RETRY_EXC_ERR.
--   The usual cause is advertising a PSN out of band that differs from the sq_psn used at RTS.
--   In a recorded program the exchange is the program's own and not in the trace: the sender,
--   whose packets the peer refuses, is named.
-- fix: Advertise exactly the sq_psn the QP will use at RTR->RTS (24 bits, masked with
--   0xFFFFFF), and use the received value unchanged as the peer's rq_psn at INIT->RTR.
WITH checked AS (
    SELECT a.host, a.qp_num, a.sq_psn, a.sq_psn_seq, a.p_host, a.p_qp_num, a.p_rq_psn, a.p_rq_psn_seq,
           adv.psn AS advertised, adv.seq AS advertised_seq,
           rcv.seq AS received_seq,
           -- a recorded program's exchange is invisible: the sender, whose packets are refused, is named
           adv.seq IS NULL AND a.host IN (SELECT host FROM _dp_quiet_host) AS unseen_exchange
    FROM _pair a
    LEFT JOIN _advertised adv ON adv.host = a.host AND adv.qp_num = a.qp_num
    LEFT JOIN _received rcv ON rcv.host = a.p_host AND rcv.qp_num = a.qp_num
    WHERE a.sq_psn IS NOT NULL AND a.p_rq_psn IS NOT NULL AND a.sq_psn <> a.p_rq_psn)
SELECT CASE WHEN unseen_exchange OR (advertised IS NOT NULL AND advertised = p_rq_psn) THEN host ELSE p_host END AS host,
       (CASE WHEN unseen_exchange OR (advertised IS NOT NULL AND advertised = p_rq_psn) THEN qp_num ELSE p_qp_num END)::BIGINT
           AS qp,
       list_filter([ev(host, sq_psn_seq), ev(p_host, p_rq_psn_seq), ev(host, advertised_seq), ev(p_host, received_seq),
                    ev(p_host, CASE WHEN responder_wire IS NOT NULL THEN wire_seq(p_host) END),
                    ev(host, CASE WHEN requester_wire IS NOT NULL THEN wire_seq(host) END)]
                   || packet_nak_evidence(host, qp_num),
                   lambda e: e.seq IS NOT NULL) AS evidence,
       host || ' QP ' || hex24(qp_num) || ' sends from PSN ' || hex24(sq_psn) || ' (sq_psn) but ' || p_host
           || ' QP ' || hex24(p_qp_num) || ' expects ' || hex24(p_rq_psn) || ' (rq_psn): '
           || CASE WHEN psn_diff(sq_psn, p_rq_psn) < 0
                   THEN abs(psn_diff(sq_psn, p_rq_psn)) || ' behind, so the responder drops its packets as duplicates'
                   ELSE psn_diff(sq_psn, p_rq_psn) || ' ahead, so the responder answers PSN sequence error NAKs' END
           || CASE WHEN unseen_exchange THEN '; the programs exchanged their PSNs themselves (not in the trace): either '
                        || host || ' told its peer another PSN than the sq_psn it moved to RTS with, or ' || p_host
                        || ' programmed another rq_psn than it was told'
                   WHEN advertised IS NULL THEN ''
                   WHEN advertised = p_rq_psn THEN '; ' || host || ' advertised ' || hex24(advertised)
                        || ' out of band, not the PSN it uses' || override_note(host, '--advertise-psn')
                        || override_note(host, '--sq-psn')
                   ELSE '; ' || host || ' advertised ' || hex24(advertised) || ' but ' || p_host
                        || ' programmed a different rq_psn' END
           || coalesce('; on the wire, ' || nullif(concat_ws('; ', responder_wire, requester_wire), ''), '')
           || coalesce('; in the packet capture, ' || packet_naks(host, qp_num), '') AS message
FROM (SELECT *,
             -- the responder sees the wrong PSNs, the requester the NAKs and retries they cause
             wire_text(p_host, ['duplicate_request', 'out_of_seq_request', 'rcvd_dropped']) AS responder_wire,
             wire_text(host, ['rcvd_seq_err', 'completer_retry_err', 'local_ack_timeout_err', 'retry_exceeded_err'])
                 AS requester_wire
      FROM checked)
