-- id: qp-type-mismatch
-- severity: error
-- role: cause
-- title: The two ends of a connection are QPs of different types
-- explanation: An RC QP only accepts RC packets and a UC QP only UC ones: an `ib_write_bw -c UC`
--   client against an RC server posts its writes and completes them (UC has no ACKs), while the
--   RC responder drops every packet, so both programs "succeed" and nothing arrived. Compared: the
--   qp_type each end created (qps). Reported on the end that is not RC (else the larger type).
-- fix: Create both ends with the same QP type (perftest -c, the -c of both sides must agree).
SELECT a.host, a.qp_num::BIGINT AS qp, [ev(a.host, x.create_seq), ev(b.host, y.create_seq)] AS evidence,
       a.host || ' QP ' || hex24(a.qp_num) || ' is ' || x.qp_type_name || ' but its peer ' || b.host || ' QP '
           || hex24(b.qp_num) || ' is ' || y.qp_type_name || '; the peer drops every packet of the other type' AS message
FROM qp_peers a
JOIN qp_peers b ON b.pair_id = a.pair_id AND b.host = a.peer_host AND b.qp_num = a.peer_qp_num
JOIN qps x ON x.host = a.host AND x.handle = a.handle AND x.qp_num = a.qp_num
JOIN qps y ON y.host = b.host AND y.handle = b.handle AND y.qp_num = b.qp_num
WHERE x.qp_type <> y.qp_type AND (y.qp_type = 2 OR (x.qp_type <> 2 AND x.qp_type > y.qp_type))
