package io.rdmatrace.analyzer.timeline;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.rdmatrace.analyzer.Finding;
import io.rdmatrace.analyzer.load.HostLoad;
import io.rdmatrace.analyzer.load.PackedTraces;
import io.rdmatrace.analyzer.timeline.TimelineInput.ClockOffset;
import io.rdmatrace.analyzer.timeline.TimelineInput.FinalState;
import io.rdmatrace.analyzer.timeline.TimelineInput.HostTrace;
import io.rdmatrace.analyzer.timeline.TimelineInput.OobPair;
import io.rdmatrace.analyzer.timeline.TimelineInput.Packet;
import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.trace.store.TraceReader;

/**
 * Gathers a {@link TimelineInput} from an analysis database (traces loaded, views created): the
 * readable hosts from the {@code hosts} view, their events re-read through the trace model, the
 * clock alignment from {@code host_clock_offset}, the message pairs from {@code oob_messages}, the
 * inferred final states from {@code qp_final_state} and captured packets from {@code wire_packets}.
 */
public final class TimelineSource {

    private TimelineSource() {
    }

    public static TimelineInput read(Connection db, String title, List<Finding> findings)
            throws SQLException, TraceException {
        List<HostTrace> hosts = new ArrayList<>();
        Map<String, ClockOffset> offsets = new HashMap<>();
        List<OobPair> pairs = new ArrayList<>();
        try (Statement s = db.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT host, folder, role, status FROM hosts WHERE readable ORDER BY host")) {
                while (rs.next()) {
                    TraceReader.Result trace = readHost(Path.of(rs.getString("folder")));
                    String status = rs.getString("status");
                    hosts.add(new HostTrace(rs.getString("host"), rs.getString("role"), trace.session(), trace.events(),
                            status.equals("CLEAN") ? null : HostLoad.integrity(status)));
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT host, reference_host, offset_ns, uncertainty_ns, samples, method"
                    + " FROM host_clock_offset")) {
                while (rs.next()) {
                    offsets.put(rs.getString(1), new ClockOffset(rs.getString(1), rs.getString(2), rs.getLong(3),
                            rs.getLong(4), rs.getLong(5), rs.getString(6)));
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT sender, sent_seq, receiver, received_seq, oob_kind"
                    + " FROM oob_messages ORDER BY sender, sent_seq")) {
                while (rs.next()) {
                    pairs.add(new OobPair(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getLong(4), rs.getString(5)));
                }
            }
        }
        List<FinalState> finals = new ArrayList<>();
        try (Statement s = db.createStatement();
             ResultSet rs = s.executeQuery("SELECT host, handle, state_name, seq, source, what FROM qp_final_state"
                     + " WHERE source = 'inferred' AND handle IS NOT NULL ORDER BY host, seq")) {
            while (rs.next()) {
                finals.add(new FinalState(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getLong(4),
                        rs.getString(5), rs.getString(6)));
            }
        }
        List<Packet> packets = new ArrayList<>();
        try (Statement s = db.createStatement();
             // a softverbs packet is logged by both ends: draw it as its receiver saw it (received or
             // dropped), as sent only when the receiver kept no log
             ResultSet rs = s.executeQuery("SELECT ts_ns, src_host, dst_host, dest_qp, opcode_name, psn, is_nak, aeth,"
                     + " regexp_replace(file, '^.*/', ''), frame, capture_host, seq,"
                     + " CASE WHEN direction = 'DROPPED' THEN reason END FROM wire_packets"
                     + " WHERE dst_host IS NOT NULL AND dest_qp IS NOT NULL AND (source = 'pcap'"
                     + " OR (direction IN ('RECEIVED', 'DROPPED') AND capture_host = dst_host)"
                     + " OR (direction = 'SENT' AND dst_host NOT IN (SELECT host FROM softverbs_packets)))"
                     + " ORDER BY ts_ns, coalesce(frame, seq)")) {
            while (rs.next()) {
                boolean pcap = rs.getString(11) == null || rs.getObject(12) == null;
                packets.add(new Packet(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getString(5),
                        rs.getInt(6), rs.getBoolean(7), rs.getString(8), rs.getString(9), rs.getInt(10),
                        pcap ? null : rs.getString(11), pcap ? -1 : rs.getLong(12), rs.getString(13)));
            }
        }
        return new TimelineInput(title, hosts, offsets, pairs, findings, finals, packets);
    }

    /** Reads one host folder; a gzip-packed one (as sample-traces/ ships them) through a temporary copy. */
    private static TraceReader.Result readHost(Path folder) throws TraceException {
        if (!PackedTraces.isPacked(folder)) {
            return TraceReader.readAll(folder);
        }
        Path copy = null;
        try {
            copy = Files.createTempDirectory("rdmatrace-timeline-");
            PackedTraces.unpack(folder, copy);
            return TraceReader.readAll(copy);
        } catch (IOException e) {
            throw new TraceException(TraceException.Problem.NOT_A_QUEUE, folder,
                    "cannot unpack its gzip-packed queue files: " + e.getMessage(), e);
        } finally {
            if (copy != null) {
                try {
                    PackedTraces.delete(copy);
                } catch (IOException e) {
                    // a temporary copy left behind is harmless
                }
            }
        }
    }
}
