-- needs: 00_macros, 10_hosts, 30_clock

-- _packet: RoCEv2 packets of the captures given with `analyze --pcap HOST=FILE` (empty without).
CREATE TABLE IF NOT EXISTS _packet (capture_host VARCHAR, file VARCHAR, frame INTEGER, ts_ns BIGINT, src_ip VARCHAR,
    dst_ip VARCHAR, opcode INTEGER, opcode_name VARCHAR, dest_qp INTEGER, psn INTEGER, ack_req BOOLEAN,
    syndrome INTEGER, aeth VARCHAR);

-- _host_ip: each host's addresses, from its GID table (IPv4-mapped GIDs as dotted IPv4).
CREATE TABLE _host_ip AS
SELECT DISTINCT host, CASE WHEN ipv4_mapped THEN replace(gid, '::ffff:', '') ELSE gid END AS ip
FROM gids WHERE NOT link_local AND gid <> '::';

-- softverbs_packets: one row per PACKET event (format 1.3; `capture --soft --wire`): a packet the
-- host's softverbs device SENT, RECEIVED, DROPPED (reason: the counter that counted it) or NOTED
-- (handled, reason: the counter that moved, e.g. duplicate_request, rcvd_seq_err). outbound: the
-- packet was leaving this host (sent, or dropped/held on the way out).
CREATE TABLE softverbs_packets AS
SELECT p.host, p.seq, p.wall_ns - coalesce(k.offset_ns, 0) AS ts_ns, p.device, p.direction, p.reason,
       p.opcode, p.opcode_name, p.dest_qp, p.psn, p.ack_req, p.syndrome, p.aeth, p.ip_len, p.payload_len, p.peer,
       p.direction = 'SENT' OR coalesce(p.reason IN ('sent_link_mtu_drop', 'send_err', 'tx_sock_busy'), false) AS outbound
FROM _sv_packet p LEFT JOIN host_clock_offset k USING (host);

-- wire_packets: the packets of the given captures (source 'pcap': file, frame) and of softverbs'
-- packet logs (source 'softverbs': seq, direction, reason, ip_len, payload_len), matched to the
-- hosts that sent and received them (by address, from the GID tables) and so to the receiving QP
-- (dest_qp on dst_host). capture_host: where the packet was seen. is_nak: a NAK or RNR NAK on the
-- wire (a softverbs packet counts when SENT or RECEIVED, not again when NOTED).
CREATE TABLE wire_packets AS
SELECT 'pcap' AS source, p.capture_host, p.file, p.frame, NULL::BIGINT AS seq, p.ts_ns - coalesce(k.offset_ns, 0) AS ts_ns,
       p.src_ip, s.host AS src_host, p.dst_ip, d.host AS dst_host,
       p.opcode, p.opcode_name, p.dest_qp, p.psn, p.ack_req, p.syndrome, p.aeth,
       NULL::VARCHAR AS direction, NULL::VARCHAR AS reason, NULL::INTEGER AS ip_len, NULL::INTEGER AS payload_len,
       coalesce((p.syndrome >> 5) IN (1, 3), false) AS is_nak
FROM _packet p
LEFT JOIN _host_ip s ON s.ip = p.src_ip
LEFT JOIN _host_ip d ON d.ip = p.dst_ip
LEFT JOIN host_clock_offset k ON k.host = p.capture_host
UNION ALL
SELECT 'softverbs', v.host, NULL, NULL, v.seq, v.ts_ns,
       CASE WHEN v.outbound THEN v.device ELSE v.peer END, CASE WHEN v.outbound THEN v.host ELSE o.host END,
       CASE WHEN v.outbound THEN v.peer ELSE v.device END, CASE WHEN v.outbound THEN o.host ELSE v.host END,
       v.opcode, v.opcode_name, v.dest_qp, v.psn, v.ack_req, v.syndrome, v.aeth, v.direction, v.reason, v.ip_len,
       v.payload_len, v.direction IN ('SENT', 'RECEIVED') AND coalesce((v.syndrome >> 5) IN (1, 3), false)
FROM softverbs_packets v
LEFT JOIN (SELECT ip, min(host) AS host FROM _host_ip GROUP BY ip) o ON o.ip = v.peer;

-- _packet_cite(source, capture_host, file, lo, hi): where packets were seen, for a message:
-- 'frames 5-40 of a.pcap' or 'softverbs packet events hostA#61-70'.
CREATE MACRO _packet_cite(src, cap, f, lo, hi) AS
    CASE WHEN src = 'pcap' THEN 'frames ' || lo || '-' || hi || ' of ' || regexp_replace(f, '^.*/', '')
         ELSE 'softverbs packet events ' || cap || '#' || lo || CASE WHEN hi > lo THEN '-' || hi ELSE '' END END;

-- packet_naks(h, qp): 'hostA sent 12 NAK PSN sequence error for PSN 0xbed0c3 (frames 5-40 of hostA.pcap)'
-- for the NAKs and RNR NAKs the captures or softverbs' packet logs show going to QP qp of host h,
-- or NULL. When several captures saw the same NAKs, the one that saw most counts.
CREATE MACRO packet_naks(h, qp) AS (
    SELECT string_agg(src || ' sent ' || n || ' ' || aeth || ' for PSN ' || psns || ' (' || cite || ')',
                      '; ' ORDER BY src, aeth)
    FROM (SELECT src, aeth, arg_max(n, n) AS n, arg_max(psns, n) AS psns, arg_max(cite, n) AS cite
          FROM (SELECT coalesce(w.src_host, w.src_ip) AS src, w.aeth, w.capture_host, w.source, count(*) AS n,
                       CASE WHEN min(w.psn) = max(w.psn) THEN hex24(min(w.psn)) ELSE hex24(min(w.psn)) || '..' || hex24(max(w.psn)) END AS psns,
                       _packet_cite(w.source, w.capture_host, any_value(w.file), min(coalesce(w.frame, w.seq)),
                                    max(coalesce(w.frame, w.seq))) AS cite
                FROM wire_packets w WHERE w.dst_host = h AND w.dest_qp = qp AND w.is_nak
                GROUP BY w.src_host, w.src_ip, w.aeth, w.capture_host, w.source)
          GROUP BY src, aeth));

-- packet_nak_evidence(h, qp): the first softverbs packet event of each host that shows a NAK going
-- to QP qp of host h (evidence rows for packet_naks), as a list of ev().
CREATE MACRO packet_nak_evidence(h, qp) AS (
    SELECT coalesce(list(ev(capture_host, seq) ORDER BY capture_host), [])
    FROM (SELECT w.capture_host, min(w.seq) AS seq FROM wire_packets w
          WHERE w.source = 'softverbs' AND w.dst_host = h AND w.dest_qp = qp AND w.is_nak GROUP BY w.capture_host));

-- packets_above_mtu(h, qp, mtu): 'hostB received 3 packets with up to 2048 payload bytes (2124-byte
-- IPv4 datagrams) above its 1024-byte path MTU, answered with NAK invalid request (softverbs packet
-- events hostB#61-63)' for the request packets softverbs' packet log shows reaching QP qp of host h
-- with more payload than mtu bytes, or NULL. A pcap carries no payload length here: softverbs only.
CREATE MACRO packets_above_mtu(h, qp, mtu) AS (
    SELECT h || ' received ' || n || ' packet' || CASE WHEN n = 1 THEN '' ELSE 's' END || ' with up to ' || max_payload
           || ' payload bytes (' || max_ip || '-byte IPv4 datagrams) above its ' || mtu || '-byte path MTU'
           || coalesce(', answered with ' || naks, '') || ' (' || _packet_cite('softverbs', h, NULL, lo, hi) || ')'
    FROM (SELECT count(DISTINCT r.seq) AS n, max(r.payload_len) AS max_payload, max(r.ip_len) AS max_ip,
                 min(r.seq) AS lo, max(r.seq) AS hi, string_agg(DISTINCT k.aeth, ', ') AS naks
          FROM wire_packets r
          LEFT JOIN wire_packets k ON k.source = 'softverbs' AND k.capture_host = r.capture_host
               AND k.direction = 'SENT' AND k.is_nak AND k.psn = r.psn
          WHERE r.source = 'softverbs' AND r.capture_host = h AND r.dst_host = h AND r.dest_qp = qp
            AND r.direction = 'RECEIVED' AND r.payload_len > mtu)
    WHERE n > 0);

-- packets_above_mtu_seq(h, qp, mtu): the first of those packet events (evidence), or NULL.
CREATE MACRO packets_above_mtu_seq(h, qp, mtu) AS (
    SELECT min(w.seq) FROM wire_packets w
    WHERE w.source = 'softverbs' AND w.capture_host = h AND w.dst_host = h AND w.dest_qp = qp
      AND w.direction = 'RECEIVED' AND w.payload_len > mtu);
