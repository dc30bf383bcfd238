package io.rdmatrace.analyzer.wire;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;

/**
 * Loads the RoCEv2 packets of a capture file taken on one host into {@code _packet}, from which
 * the {@code wire_packets} relation matches them to hosts (by address) and QPs (by QPN).
 */
public final class PacketLoader {
    /** The base table; rules/_views creates it too (empty) so that rules bind without captures. */
    public static final String CREATE = "CREATE TABLE IF NOT EXISTS _packet (capture_host VARCHAR, file VARCHAR, frame INTEGER, "
            + "ts_ns BIGINT, src_ip VARCHAR, dst_ip VARCHAR, opcode INTEGER, opcode_name VARCHAR, dest_qp INTEGER, "
            + "psn INTEGER, ack_req BOOLEAN, syndrome INTEGER, aeth VARCHAR)";

    private PacketLoader() {
    }

    /**
     * Reads {@code file} (pcap or pcapng) and inserts its RoCEv2 packets as captured on {@code host}.
     *
     * @return how many frames the file held and how many of them were RoCEv2
     */
    public static Counts load(Connection connection, String host, Path file) throws IOException, SQLException {
        List<PcapReader.Frame> frames = PcapReader.read(file);
        try (Statement s = connection.createStatement()) {
            s.execute(CREATE);
        }
        int roce = 0;
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO _packet VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (PcapReader.Frame frame : frames) {
                Optional<RocePacket> decoded = RoceDecoder.decode(frame);
                if (decoded.isEmpty()) {
                    continue;
                }
                RocePacket p = decoded.get();
                insert.setString(1, host);
                insert.setString(2, file.toString());
                insert.setInt(3, p.frame());
                insert.setLong(4, p.tsNs());
                insert.setString(5, p.srcIp());
                insert.setString(6, p.dstIp());
                insert.setInt(7, p.opcode());
                insert.setString(8, RocePacket.opcodeName(p.opcode()));
                insert.setInt(9, p.destQp());
                insert.setInt(10, p.psn());
                insert.setBoolean(11, p.ackReq());
                if (p.syndrome() < 0) {
                    insert.setNull(12, java.sql.Types.INTEGER);
                } else {
                    insert.setInt(12, p.syndrome());
                }
                insert.setString(13, p.aeth());
                insert.addBatch();
                roce++;
            }
            insert.executeBatch();
        }
        return new Counts(frames.size(), roce);
    }

    /** Frames read and RoCEv2 packets found among them. */
    public record Counts(int frames, int roce) {
    }
}
