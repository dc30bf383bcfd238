-- id: cm-no-listener
-- severity: error
-- role: cause
-- title: An rdma_cm connect found nobody listening on the address and port
-- explanation: The passive side's CM answers a connect request (REQ) for a service ID - port
--   space and port - that no id listens on with REJ reason 8, invalid service ID: the client gets
--   RDMA_CM_EVENT_REJECTED with status 8 within one round trip (UD: the SIDR reply "unsupported",
--   RDMA_CM_EVENT_UNREACHABLE with status 1). The server was not started yet, listens on another
--   port or port space, or is bound to another address.
-- fix: Start the server (rdma_listen) before the client connects, or retry the connect after a
--   short wait; connect to the address, port and port space (RDMA_PS_TCP / RDMA_PS_UDP) the
--   server listens on.
-- when: SELECT 1 FROM cm_events LIMIT 1
WITH refused AS (
    SELECT e.host, e.seq, e.ts_ns, e.cm_id, e.qp_num, e.dst_addr, e.port_space, e.event_name, e.cm_status,
           coalesce(_cm_call_before(e.host, e.cm_id, e.seq, 'rdma_connect'), e.seq) AS connect_seq
    FROM cm_events e
    WHERE (e.cm_event_type = 8 AND e.cm_status = 8) OR (e.cm_event_type = 7 AND e.cm_status = 1)),
listeners AS (
    -- the port space is the listening id's (rdma_create_id), RDMA_PS_TCP when unknown
    SELECT c.host, c.seq, c.ts_ns, c.in_src_addr AS addr,
           coalesce((SELECT max(i.in_port_space) FROM _ctl i
                     WHERE i.host = c.host AND i.out_cm_id = c.in_cm_id AND i.verb = 'rdma_create_id'), 262) AS port_space
    FROM _ctl c WHERE c.verb = 'rdma_listen' AND c.ok AND c.in_src_addr IS NOT NULL),
explained AS (
    SELECT r.*,
           (SELECT arg_min(l.host || ' started listening on ' || l.addr || ' only '
                           || round((l.ts_ns - r.ts_ns) / 1e6, 1) || ' ms after the reject', l.seq)
            FROM listeners l WHERE l.addr = r.dst_addr AND l.ts_ns > r.ts_ns) AS late,
           (SELECT arg_min(l.seq, l.seq) FROM listeners l WHERE l.addr = r.dst_addr AND l.ts_ns > r.ts_ns) AS late_seq,
           (SELECT arg_min(l.host, l.seq) FROM listeners l WHERE l.addr = r.dst_addr AND l.ts_ns > r.ts_ns) AS late_host,
           (SELECT string_agg(DISTINCT l.host || ' listens on ' || l.addr
                              || CASE WHEN l.port_space <> coalesce(r.port_space, l.port_space)
                                      THEN ' (' || enum_port_space(l.port_space) || ')' ELSE '' END, ', ')
            FROM listeners l
            WHERE _cm_addr_host(l.addr) = _cm_addr_host(r.dst_addr)
              AND (l.addr <> r.dst_addr OR l.port_space <> coalesce(r.port_space, l.port_space))) AS elsewhere,
           (SELECT min(l.seq) FROM listeners l WHERE _cm_addr_host(l.addr) = _cm_addr_host(r.dst_addr)
              AND (l.addr <> r.dst_addr OR l.port_space <> coalesce(r.port_space, l.port_space))) AS elsewhere_seq,
           (SELECT min(l.host) FROM listeners l WHERE _cm_addr_host(l.addr) = _cm_addr_host(r.dst_addr)
              AND (l.addr <> r.dst_addr OR l.port_space <> coalesce(r.port_space, l.port_space))) AS elsewhere_host
    FROM refused r)
SELECT host, qp_num::BIGINT AS qp,
       list_concat([ev(host, connect_seq), ev(host, seq)],
                   CASE WHEN late_seq IS NOT NULL THEN [ev(late_host, late_seq)]
                        WHEN elsewhere_seq IS NOT NULL THEN [ev(elsewhere_host, elsewhere_seq)]
                        ELSE []::STRUCT(host VARCHAR, seq BIGINT)[] END) AS evidence,
       host || ' connected to ' || coalesce(dst_addr, '?')
           || coalesce(' (' || enum_port_space(port_space) || ')', '') || ': RDMA_CM_EVENT_' || event_name
           || ', ' || CASE WHEN event_name = 'REJECTED' THEN 'reason 8 (IB_CM_REJ_INVALID_SERVICE_ID)'
                           ELSE 'status 1 (SIDR: service ID not supported)' END
           || ': nobody listens there'
           || coalesce('; ' || late, '; ' || elsewhere || ' instead', '; no loaded trace listens on that address') AS message
FROM explained
