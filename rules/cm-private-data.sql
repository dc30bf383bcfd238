-- id: cm-private-data
-- severity: error
-- role: cause
-- title: More private data than the CM message that carries it can hold
-- explanation: rdma_cm private data travels inside one CM message of fixed size, and with
--   RDMA_PS_TCP / RDMA_PS_UDP the CM's own address header takes 36 bytes of the request's
--   field. What is left for the application: rdma_connect 56 bytes (REQ; UD: SIDR_REQ, 180),
--   rdma_accept 196 (REP; UD: SIDR_REP, 136), rdma_reject 148 (REJ). A longer private_data_len
--   makes the call fail with EINVAL, so the connection never starts - on hardware as here;
--   a protocol that grew its connect message past the limit fails on every CM. (The receiving
--   side always sees the full field, zero-padded: RDMA_CM_EVENT_CONNECT_REQUEST reports 56
--   bytes whatever the client sent.)
-- fix: Keep the connect message within the limit (send a version and the essentials, exchange
--   the rest over the connection once it is established), and do not check the received
--   private_data_len against the size sent.
-- when: SELECT 1 FROM _ctl WHERE verb LIKE 'rdma_%' LIMIT 1
WITH pdata AS (
    SELECT c.host, c.seq, c.verb, c.qp_num, c.ok, c.errno_name, c.in_private_data_len AS len, c.in_dst_addr,
           coalesce((SELECT max(i.in_port_space) FROM _ctl i
                     WHERE i.host = c.host AND i.out_cm_id = c.in_cm_id AND i.verb = 'rdma_create_id'),
                    (SELECT max(e.port_space) FROM cm_events e WHERE e.host = c.host AND e.cm_id = c.in_cm_id)) AS ps
    FROM _ctl c
    WHERE c.verb IN ('rdma_connect', 'rdma_accept', 'rdma_reject', 'rdma_reject_ece') AND c.in_private_data_len > 0),
limited AS (
    SELECT p.*,
           CASE WHEN p.verb = 'rdma_connect' THEN CASE WHEN p.ps IN (2, 273) THEN 180 ELSE 56 END
                WHEN p.verb = 'rdma_accept' THEN CASE WHEN p.ps IN (2, 273) THEN 136 ELSE 196 END
                ELSE 148 END AS max_len,
           CASE WHEN p.verb = 'rdma_connect' THEN CASE WHEN p.ps IN (2, 273) THEN 'SIDR_REQ' ELSE 'REQ' END
                WHEN p.verb = 'rdma_accept' THEN CASE WHEN p.ps IN (2, 273) THEN 'SIDR_REP' ELSE 'REP' END
                ELSE 'REJ' END AS message_name
    FROM pdata p)
SELECT host, qp_num::BIGINT AS qp, [ev(host, seq)] AS evidence,
       host || ' ' || verb || coalesce(' to ' || in_dst_addr, '') || ' passed ' || len || ' bytes of private data; a '
           || message_name || ' carries at most ' || max_len
           || CASE WHEN ok THEN ' (the call succeeded: the peer gets only the first ' || max_len || ')'
                   ELSE ': the call failed with ' || coalesce(errno_name, 'an error') END AS message
FROM limited
WHERE len > max_len
