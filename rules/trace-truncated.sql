-- id: trace-truncated
-- severity: warning
-- role: cause
-- title: A host's trace ends early
-- explanation: A trace without its END event was cut short (the capture was killed, crashed
--   or is still running); a corrupt document ends reading at the damage. Everything before
--   is analysed, but findings that need later events (leaks, completions, the peer's view)
--   may be missing.
-- fix: Let the capture finish (or stop it with Ctrl-C, which closes the trace), and copy
--   trace folders with a sparse-aware tool after it has exited.
SELECT host, NULL::BIGINT AS qp,
       [ev(host, last_seq)] AS evidence,
       status || ': ' || detail AS message
FROM hosts
WHERE status IN ('TRUNCATED', 'CORRUPT')
