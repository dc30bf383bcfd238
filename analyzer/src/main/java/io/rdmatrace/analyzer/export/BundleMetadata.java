package io.rdmatrace.analyzer.export;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.rdmatrace.analyzer.report.JsonWriter;
import io.rdmatrace.analyzer.load.bundle.BundleLayout;
import io.rdmatrace.trace.model.Attr;

/**
 * The JSON documents of a bundle: one SESSION summary per host (read from the loaded database,
 * so it shows exactly what the Parquet files hold) and the manifest.
 */
final class BundleMetadata {
    private static final Map<String, Attr> ATTRS = new HashMap<>();

    static {
        for (Attr a : Attr.values()) {
            ATTRS.put(a.column(), a);
        }
    }

    private BundleMetadata() {
    }

    /** One entry of the manifest's host list. */
    record HostEntry(String host, String folder, String status, long events, List<String> tables) {
    }

    static String session(Connection c, String host) throws SQLException {
        JsonWriter j = new JsonWriter().beginObject();
        try (PreparedStatement q = c.prepareStatement("SELECT host, role, status, format_version, tool_version, "
                + "command_line, verbs_lib, scenario, pid, start_wall_ns, events FROM hosts WHERE host = ?")) {
            q.setString(1, host);
            try (ResultSet rs = q.executeQuery()) {
                if (rs.next()) {
                    columns(j, rs);
                }
            }
        }
        j.name("overrides").beginObject();
        try (PreparedStatement q = c.prepareStatement("SELECT name, value FROM overrides WHERE host = ? ORDER BY position")) {
            q.setString(1, host);
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    j.member(rs.getString(1), rs.getString(2));
                }
            }
        }
        j.endObject();
        j.name("device");
        rows(j, c, "SELECT * EXCLUDE (host, seq) FROM devices WHERE host = ?", host, true);
        j.name("ports");
        rows(j, c, "SELECT * EXCLUDE (host, seq) FROM ports WHERE host = ? ORDER BY port_num", host, false);
        j.name("gids");
        rows(j, c, "SELECT port_num, gid_index, gid, gid_type_name FROM gids WHERE host = ? ORDER BY port_num, gid_index",
                host, false);
        return j.endObject().toJson();
    }

    static String manifest(String toolVersion, boolean redacted, String source, List<HostEntry> hosts, int findings,
                           RedactionSummary redaction) {
        JsonWriter j = new JsonWriter().beginObject();
        j.member("format", BundleLayout.FORMAT)
                .member("format_version", BundleLayout.FORMAT_MAJOR + "." + BundleLayout.FORMAT_MINOR)
                .member("tool_version", toolVersion).member("redacted", redacted).member("source", source)
                .member("findings", findings);
        j.name("hosts").beginArray();
        for (HostEntry h : hosts) {
            j.beginObject().member("host", h.host()).member("folder", h.folder()).member("status", h.status())
                    .member("events", h.events());
            j.name("tables").beginArray();
            h.tables().forEach(j::value);
            j.endArray().endObject();
        }
        j.endArray();
        j.name("redaction");
        if (redaction == null) {
            j.value((String) null);
        } else {
            j.beginObject().member("host_names", redaction.hostNames()).member("ipv4_addresses", redaction.ipv4())
                    .member("gids", redaction.gids()).member("guids_and_interface_ids", redaction.interfaceIds())
                    .member("keys", redaction.keys()).member("virtual_addresses", redaction.addresses())
                    .member("address_spans", redaction.addressSpans()).member("text_fields", redaction.textFields())
                    .member("paths_shortened", redaction.pathsShortened()).endObject();
        }
        return j.endObject().toJson();
    }

    private static void rows(JsonWriter j, Connection c, String sql, String host, boolean single) throws SQLException {
        try (PreparedStatement q = c.prepareStatement(sql)) {
            q.setString(1, host);
            try (ResultSet rs = q.executeQuery()) {
                if (single) {
                    if (rs.next()) {
                        j.beginObject();
                        columns(j, rs);
                        j.endObject();
                    } else {
                        j.value((String) null);
                    }
                    return;
                }
                j.beginArray();
                while (rs.next()) {
                    j.beginObject();
                    columns(j, rs);
                    j.endObject();
                }
                j.endArray();
            }
        }
    }

    /** Every non-null column of the current row as a member; unsigned attributes print unsigned. */
    private static void columns(JsonWriter j, ResultSet rs) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            Object value = rs.getObject(i);
            if (value == null) {
                continue;
            }
            String name = meta.getColumnName(i);
            j.name(name);
            if (value instanceof Boolean b) {
                j.value(b);
            } else if (value instanceof Number n) {
                Attr attr = ATTRS.get(name);
                if (attr != null && attr.kind().isUnsigned()) {
                    j.unsignedValue(n.longValue());
                } else {
                    j.value(n.longValue());
                }
            } else {
                j.value(value.toString());
            }
        }
    }
}
