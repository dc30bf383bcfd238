-- needs:

-- hosts: one row per host folder the loader met, readable or not, with its SESSION and how its
-- recording ended (its END; NULL without one).
-- now_wall_ns is the trace's present on the host's wall clock: the time a trace still being
-- written (RECORDING) was read (at least its last event's time), else its last event's (END's).
CREATE VIEW hosts AS
SELECT h.host, h.folder, h.status,
       h.status IN ('CLEAN', 'REPAIRED', 'RECORDING', 'TRUNCATED', 'CORRUPT') AS readable,
       h.detail, h.format_version, h.events, h.last_seq,
       s.pid, s.tool_version, s.command_line, s.verbs_lib, s.scenario,
       CASE WHEN s.scenario = 'program' THEN 'RECORD' WHEN s.scenario IS NOT NULL THEN 'AGENT' END AS origin,
       s.wall_ns AS start_wall_ns,
       CASE WHEN s.command_line LIKE '%--listen%' THEN 'listen'
            WHEN s.command_line LIKE '%--connect%' THEN 'connect' END AS role,
       e.ending, e.exit_status, e.signal, e.recorder_signal, e.ending_detail, e.ending_text,
       CASE WHEN h.status = 'RECORDING' THEN greatest(h.read_wall_ns, h.last_wall_ns) ELSE h.last_wall_ns END AS now_wall_ns
FROM _host h
LEFT JOIN _session s ON s.host = h.host
LEFT JOIN _end e ON e.host = h.host;

-- overrides: the capture options each host ran with, as recorded in its SESSION (seq 0).
CREATE VIEW overrides AS
SELECT host, seq, position, name, value FROM _override;

-- devices: device identity and limits from each SESSION.
CREATE VIEW devices AS SELECT * FROM _device;

-- ports: port attributes from each SESSION.
CREATE VIEW ports AS SELECT * FROM _port;

-- gids: the GID table(s) from each SESSION, with the GID type's name and whether the GID is
-- link-local (fe80::/10) or an IPv4-mapped address (::ffff:a.b.c.d).
CREATE VIEW gids AS
SELECT host, seq, port_num, gid_index, gid, gid_type,
       replace(enum_gid_type(gid_type), 'IBV_GID_TYPE_', '') AS gid_type_name,
       lower(gid) LIKE 'fe8%' OR lower(gid) LIKE 'fe9%' OR lower(gid) LIKE 'fea%' OR lower(gid) LIKE 'feb%' AS link_local,
       lower(gid) LIKE '::ffff:%' AS ipv4_mapped
FROM _gid;
