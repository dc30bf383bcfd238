-- id: step-failed
-- severity: error
-- role: consequence
-- title: A capture step failed
-- explanation: The capture agent recorded a FAIL verdict for one of its steps (a test case that
--   did not pass, a data pattern that came back different, a peer that vanished, a capture
--   stopped by a signal or a full disk). Whatever the other rules explain, the capture did not
--   do what it set out to do, so the analysis of it is never clean. The message is the step's
--   own reason.
-- fix: Read the step's reason and the more specific findings on the same host; when none
--   explains it, look at the events just before the FAIL mark (the evidence).
SELECT host, NULL::BIGINT AS qp,
       [ev(host, seq)] AS evidence,
       step || ' failed: ' || text AS message
FROM marks
WHERE verdict = 'FAIL'
