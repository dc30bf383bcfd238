-- id: trace-recording
-- severity: info
-- role: cause
-- title: A host's trace is still being written
-- explanation: The trace has no END event yet and a live process (the capture or record that
--   writes it) holds its writer lock: this is a look at a running program, not a damaged trace.
--   Every complete event written so far was read; findings that need later events (leaks,
--   completions, the peer's answer) may not be there yet, and a hang shows as a `stall`.
-- fix: Nothing to fix: analyze again (or `rdmatrace watch`) to see what happened since, or stop
--   the program (Ctrl-C / SIGTERM to record) to close the trace.
-- when: SELECT 1 FROM _host WHERE status = 'RECORDING' LIMIT 1
SELECT host, NULL::BIGINT AS qp,
       [ev(host, last_seq)] AS evidence,
       host || ' is still recording: ' || events || ' events read so far, the last ' || host || '#' || last_seq
           || '; findings can change as the program runs' AS message
FROM hosts
WHERE status = 'RECORDING'
