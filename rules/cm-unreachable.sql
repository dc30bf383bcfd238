-- id: cm-unreachable
-- severity: error
-- role: cause
-- title: The peer's connection manager never answered
-- explanation: RDMA_CM_EVENT_UNREACHABLE with status -ETIMEDOUT (-110) means the CM sent a
--   connect request (REQ, or SIDR_REQ for UD) and no reply came after the CM response timeout
--   and every retry (the kernel: about 15 tries over a minute): nothing runs a CM at the
--   destination address, the peer host is down, or CM MADs are lost on the way.
--   RDMA_CM_EVENT_CONNECT_ERROR means the connection failed while being established (for
--   example the ready-to-use message could not be sent). (UD's status 1, nobody listening, is
--   cm-no-listener.)
-- fix: Check that the server process runs on the destination address and has called
--   rdma_listen, that the address belongs to its RDMA device, and that QP1 / CM traffic (RoCE:
--   UDP 4791) passes between the hosts (firewall, VLAN, PFC); a peer that comes up later needs
--   the client to retry.
-- when: SELECT 1 FROM cm_events LIMIT 1
SELECT e.host, e.qp_num::BIGINT AS qp,
       [ev(e.host, coalesce(_cm_call_before(e.host, e.cm_id, e.seq, 'rdma_connect'), e.seq)), ev(e.host, e.seq)] AS evidence,
       e.host || ' connected to ' || coalesce(e.dst_addr, '?') || ': RDMA_CM_EVENT_' || e.event_name
           || ', status ' || e.cm_status || coalesce(' (' || errno_name(-e.cm_status) || ')', '')
           || CASE WHEN e.cm_event_type = 7 AND e.cm_status = -110 AND r.host IS NOT NULL
                   THEN ': ' || r.host || '''s CM received the request (' || r.host || '#' || r.seq
                        || ') but its application never accepted it in time (cm-accept-missing)'
                   WHEN e.cm_event_type = 7 AND e.cm_status = -110
                   THEN ': no CM answered within the response timeout and retries' ELSE '' END
           || CASE WHEN NOT EXISTS (SELECT 1 FROM _ctl c WHERE c.host <> e.host AND c.verb = 'rdma_listen'
                                     AND _cm_addr_host(c.in_src_addr) = _cm_addr_host(e.dst_addr))
                   THEN '; no loaded trace listens on ' || coalesce(_cm_addr_host(e.dst_addr), 'that address') ELSE '' END
           AS message
FROM cm_events e
-- the peer's CONNECT_REQUEST for this connect, when its trace is loaded
LEFT JOIN (SELECT host, min(seq) AS seq, src_addr, dst_addr FROM cm_events WHERE cm_event_type = 4 GROUP BY ALL) r
       ON r.host <> e.host AND r.src_addr = e.dst_addr AND r.dst_addr = e.src_addr
WHERE (e.cm_event_type = 7 AND e.cm_status <> 1) OR e.cm_event_type = 6
