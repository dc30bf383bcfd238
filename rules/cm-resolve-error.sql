-- id: cm-resolve-error
-- severity: error
-- role: cause
-- title: rdma_cm could not resolve an address or a route
-- explanation: rdma_resolve_addr maps the IP addresses to an RDMA device and port (the source
--   address's device, or the one the kernel's routing picks) and resolves the destination's
--   hardware address (ARP / neighbour); RDMA_CM_EVENT_ADDR_ERROR means that failed: no RDMA
--   device owns or routes to the address (-ENODEV, -EADDRNOTAVAIL), or the neighbour did not
--   answer in time (-ETIMEDOUT, -EHOSTUNREACH). RDMA_CM_EVENT_ROUTE_ERROR means no path
--   (SA path record, RoCE GID / VLAN) was found for the resolved addresses.
-- fix: Use addresses that belong to RDMA-capable interfaces (ibv_devinfo / rdma link / ip addr)
--   on both ends, check that the destination answers ARP on that interface and that the route
--   to it leaves through the RDMA device; for ROUTE_ERROR check the GID table (RoCE: the
--   address must appear as a GID) and the subnet manager (InfiniBand).
-- when: SELECT 1 FROM cm_events LIMIT 1
SELECT e.host, e.qp_num::BIGINT AS qp,
       [ev(e.host, coalesce(_cm_call_before(e.host, e.cm_id, e.seq,
                                             CASE e.cm_event_type WHEN 1 THEN 'rdma_resolve_addr'
                                                  ELSE 'rdma_resolve_route' END), e.seq)),
        ev(e.host, e.seq)] AS evidence,
       e.host || ' ' || CASE e.cm_event_type WHEN 1 THEN 'rdma_resolve_addr' ELSE 'rdma_resolve_route' END
           || coalesce(' to ' || (SELECT arg_max(c.in_dst_addr, c.seq) FROM _ctl c
                                  WHERE c.host = e.host AND c.in_cm_id = e.cm_id AND c.verb = 'rdma_resolve_addr'
                                    AND c.seq < e.seq), coalesce(' to ' || e.dst_addr, ''))
           || ' failed: RDMA_CM_EVENT_' || e.event_name || ', status ' || e.cm_status
           || coalesce(' (' || errno_name(-e.cm_status) || ')', '')
           || CASE WHEN e.cm_status IN (-19, -99) THEN ': no RDMA device owns or routes to this address'
                   WHEN e.cm_status IN (-110, -113, -101) THEN ': the destination did not answer (neighbour / route)'
                   ELSE '' END AS message
FROM cm_events e
WHERE e.cm_event_type IN (1, 3)
