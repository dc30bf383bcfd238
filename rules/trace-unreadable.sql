-- id: trace-unreadable
-- severity: error
-- role: cause
-- title: A host folder could not be read at all
-- explanation: The folder holds a trace the analyzer refused: a format major version it does
--   not read, a queue whose first event is not a SESSION, or a damaged SESSION. Nothing of
--   that host is analysed, so cross-host rules cannot see its side.
-- fix: Analyse it with the rdmatrace version that wrote it (the message names both format
--   versions), or recapture.
SELECT host, NULL::BIGINT AS qp, []::STRUCT(host VARCHAR, seq BIGINT)[] AS evidence,
       status || ': ' || detail AS message
FROM hosts
WHERE NOT readable AND status <> 'IGNORED'
