-- id: trace-repaired
-- severity: warning
-- role: cause
-- title: A host's trace files were damaged but every event was read
-- explanation: The queue's files did not look the way Chronicle writes them (a data file of the
--   wrong size, a damaged queue header or index, a missing or damaged metadata.cq4t), so the
--   analyzer read the events by framing the data files itself instead of through Chronicle's
--   index. Every event up to the END was read and checked, so the analysis is complete, but the
--   folder was damaged after the capture: other copies of it may be worse.
-- fix: Copy trace folders only after the capture has exited, with a sparse-aware tool (cp,
--   rsync -S, tar -S), and keep the whole folder together (metadata.cq4t included).
SELECT host, NULL::BIGINT AS qp,
       [ev(host, last_seq)] AS evidence,
       status || ': ' || detail AS message
FROM hosts
WHERE status = 'REPAIRED'
