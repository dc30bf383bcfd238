-- _packet: RoCEv2 packets of the captures given with `analyze --pcap HOST=FILE` (empty without).
CREATE TABLE IF NOT EXISTS _packet (capture_host VARCHAR, file VARCHAR, frame INTEGER, ts_ns BIGINT, src_ip VARCHAR,
    dst_ip VARCHAR, opcode INTEGER, opcode_name VARCHAR, dest_qp INTEGER, psn INTEGER, ack_req BOOLEAN,
    syndrome INTEGER, aeth VARCHAR);

-- _host_ip: each host's addresses, from its GID table (IPv4-mapped GIDs as dotted IPv4).
CREATE TABLE _host_ip AS
SELECT DISTINCT host, CASE WHEN ipv4_mapped THEN replace(gid, '::ffff:', '') ELSE gid END AS ip
FROM gids WHERE NOT link_local AND gid <> '::';

-- wire_packets: the packets of the given captures, matched to the hosts that sent and received
-- them (by address, from the GID tables) and so to the receiving QP (dest_qp on dst_host).
CREATE TABLE wire_packets AS
SELECT p.capture_host, p.file, p.frame, p.ts_ns - coalesce(k.offset_ns, 0) AS ts_ns,
       p.src_ip, s.host AS src_host, p.dst_ip, d.host AS dst_host,
       p.opcode, p.opcode_name, p.dest_qp, p.psn, p.ack_req, p.syndrome, p.aeth,
       coalesce((p.syndrome >> 5) IN (1, 3), false) AS is_nak
FROM _packet p
LEFT JOIN _host_ip s ON s.ip = p.src_ip
LEFT JOIN _host_ip d ON d.ip = p.dst_ip
LEFT JOIN host_clock_offset k ON k.host = p.capture_host;

-- packet_naks(h, qp): 'hostA sent 12 NAK PSN sequence error for PSN 0xbed0c3 (frames 5-40 of hostA.pcap)'
-- for the NAKs and RNR NAKs the captures show going to QP qp of host h, or NULL. When several
-- captures saw the same NAKs, the one that saw most counts.
CREATE MACRO packet_naks(h, qp) AS (
    SELECT string_agg(src || ' sent ' || n || ' ' || aeth || ' for PSN ' || psns || ' (frames ' || frames || ' of ' || file || ')',
                      '; ' ORDER BY src, aeth)
    FROM (SELECT src, aeth, arg_max(n, n) AS n, arg_max(psns, n) AS psns, arg_max(frames, n) AS frames,
                 arg_max(file, n) AS file
          FROM (SELECT coalesce(w.src_host, w.src_ip) AS src, w.aeth, w.capture_host, count(*) AS n,
                       CASE WHEN min(w.psn) = max(w.psn) THEN hex24(min(w.psn)) ELSE hex24(min(w.psn)) || '..' || hex24(max(w.psn)) END AS psns,
                       min(w.frame) || '-' || max(w.frame) AS frames, regexp_replace(any_value(w.file), '^.*/', '') AS file
                FROM wire_packets w WHERE w.dst_host = h AND w.dest_qp = qp AND w.is_nak
                GROUP BY ALL)
          GROUP BY src, aeth));
