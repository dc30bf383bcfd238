-- id: resource-leak
-- severity: warning
-- role: aftermath
-- title: Verbs objects still allocated when the trace ended cleanly
-- explanation: Every PD, MR, CQ, QP, AH, completion channel and device context should be
--   destroyed (in reverse order of creation) before the program exits; leaked MRs keep
--   memory pinned and leaked QPs keep hardware resources busy. Only judged on traces that
--   ended cleanly (a killed capture never had the chance). A device context librdmacm opened
--   inside an rdma_* call is the CM's, which keeps it for the life of the process.
-- fix: Destroy QPs, then CQs, MRs, PDs, channels, and close the device, checking each return
--   code (EBUSY means something still uses the object).
SELECT o.host, CASE WHEN o.object_kind = 'qp' THEN o.qp_num END::BIGINT AS qp,
       [ev(o.host, o.create_seq)] AS evidence,
       o.host || ' ' || upper(o.object_kind) || CASE WHEN o.object_kind = 'qp' THEN ' ' || hex24(o.qp_num) ELSE '' END
           || ' (handle 0x' || lower(hex(o.handle)) || ') was never destroyed'
           || CASE WHEN o.destroy_attempts > 0 THEN ' (' || o.destroy_attempts || ' failed attempt(s))' ELSE '' END AS message
FROM objects o
JOIN _host h ON h.host = o.host AND h.status IN ('CLEAN', 'REPAIRED')
WHERE o.created AND o.destroy_seq IS NULL AND o.object_kind <> 'device_list'
  AND NOT (o.object_kind = 'context' AND EXISTS (SELECT 1 FROM _cm_nested n WHERE n.host = o.host AND n.seq = o.create_seq))
