package io.rdmatrace.analyzer.show;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.names.ErrnoNames;

/**
 * Reads events by id from an analysis database whose loading is finished: each one's shared
 * columns from {@code events}, its fields from the relation of its kind (calls, completions,
 * oob …), decoded with the trace model's attribute dictionary ({@link Attr#render}) as JFR's
 * printers decode through field annotations, and the QP's state at that moment.
 */
public final class EventQuery {
    /** Columns every relation repeats; shown once in the event's header instead. */
    private static final Set<String> HEADER_COLUMNS = Set.of("host", "seq", "mono_ns", "wall_ns", "ts_ns", "thread_id",
            "errno_name");
    /** The relation holding each kind's fields. */
    private static final Map<String, String> RELATION = Map.of("CALL", "calls", "COMPLETION", "completions",
            "ASYNC_EVENT", "async_events", "OOB", "oob", "MARK", "marks", "SESSION", "hosts", "CM_EVENT", "cm_events", "PACKET", "softverbs_packets");
    /** Columns named differently from their dictionary attribute. */
    private static final Map<String, Attr> ALIASES = Map.of("status", Attr.WC_STATUS, "wc_flags", Attr.WC_FLAGS,
            "cq", Attr.CQ, "element", Attr.ELEMENT, "handle", Attr.HANDLE, "duration_ns", Attr.DURATION, "dest_qp", Attr.QP_NUM);
    private static final Map<String, Attr> BY_COLUMN = new HashMap<>();

    static {
        for (Attr attr : Attr.values()) {
            BY_COLUMN.put(attr.column(), attr);
        }
    }

    /** Every relation the queries here read (see {@code Analysis.connectionFor}). */
    public static final Set<String> RELATIONS = Set.of("events", "calls", "completions", "async_events", "oob", "marks",
            "hosts", "cm_events", "softverbs_packets", "counters", "qp_state_timeline");

    private final Connection connection;

    public EventQuery(Connection connection) {
        this.connection = connection;
    }

    /** Each host's last seq, by host id. */
    public Map<String, Long> hosts() throws SQLException {
        Map<String, Long> hosts = new TreeMap<>();
        try (PreparedStatement s = connection.prepareStatement("SELECT host, max(seq) FROM events GROUP BY host");
                ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                hosts.put(rs.getString(1), rs.getLong(2));
            }
        }
        return hosts;
    }

    /** The events a reference names, in seq order (empty when none exists in that range). */
    public List<ShownEvent> find(EventRef ref) throws SQLException {
        List<ShownEvent> events = new ArrayList<>();
        try (PreparedStatement s = connection.prepareStatement("SELECT host, seq, kind, name, wall_ns, ts_ns, thread_name "
                + "FROM events WHERE host = ? AND seq BETWEEN ? AND ? ORDER BY seq")) {
            s.setString(1, ref.host());
            s.setLong(2, ref.first());
            s.setLong(3, ref.last());
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    String kind = rs.getString(3);
                    List<ShownEvent.Field> fields = fields(kind, rs.getString(1), rs.getLong(2));
                    events.add(new ShownEvent(rs.getString(1), rs.getLong(2), kind, rs.getString(4), rs.getLong(5),
                            rs.getLong(6), rs.getString(7), fields, qpState(rs.getString(1), rs.getLong(2), fields)));
                }
            }
        }
        return events;
    }

    private List<ShownEvent.Field> fields(String kind, String host, long seq) throws SQLException {
        if (kind.equals("COUNTERS")) {
            return counters(host, seq);
        }
        String relation = RELATION.get(kind);
        if (relation == null) {
            return List.of();
        }
        String where = relation.equals("hosts") ? "host = ?" : "host = ? AND seq = ?";
        List<ShownEvent.Field> fields = new ArrayList<>();
        try (PreparedStatement s = connection.prepareStatement("SELECT * FROM " + relation + " WHERE " + where)) {
            s.setString(1, host);
            if (!relation.equals("hosts")) {
                s.setLong(2, seq);
            }
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    return fields;
                }
                ResultSetMetaData meta = rs.getMetaData();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    String column = meta.getColumnName(i);
                    Object value = rs.getObject(i);
                    if (value == null || HEADER_COLUMNS.contains(column)) {
                        continue;
                    }
                    fields.add(field(kind, column, value));
                }
            }
        }
        return fields;
    }

    private List<ShownEvent.Field> counters(String host, long seq) throws SQLException {
        List<ShownEvent.Field> fields = new ArrayList<>();
        try (PreparedStatement s = connection.prepareStatement(
                "SELECT name, value, delta FROM counters WHERE host = ? AND seq = ? ORDER BY name")) {
            s.setString(1, host);
            s.setLong(2, seq);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    long delta = rs.getLong(3);
                    boolean hasDelta = !rs.wasNull();
                    String raw = Long.toString(rs.getLong(2));
                    fields.add(new ShownEvent.Field(rs.getString(1), raw, hasDelta && delta != 0 ? raw + " (+" + delta + ")" : raw));
                }
            }
        }
        return fields;
    }

    static ShownEvent.Field field(String kind, String column, Object value) {
        String raw = value.toString();
        if (!(value instanceof Number number)) {
            return new ShownEvent.Field(column, raw, raw);
        }
        long v = number.longValue();
        if (column.equals("errno")) {
            return new ShownEvent.Field(column, raw, v == 0 ? "0" : ErrnoNames.name((int) v) + " (" + v + ")");
        }
        if (kind.equals("COMPLETION") && column.equals("opcode")) {
            return new ShownEvent.Field(column, raw, Attr.WC_OPCODE.render(v));
        }
        Attr attr = attrOf(column);
        if (attr == null || attr.isText()) {
            return new ShownEvent.Field(column, raw, raw);
        }
        String text = attr.render(v);
        if (attr.kind().isUnsigned() && v < 0) {
            raw = Long.toUnsignedString(v);
        }
        return new ShownEvent.Field(column, raw, text);
    }

    private static Attr attrOf(String column) {
        Attr alias = ALIASES.get(column);
        if (alias != null) {
            return alias;
        }
        String name = column.startsWith("in_") || column.startsWith("out_") ? column.substring(column.indexOf('_') + 1) : column;
        return BY_COLUMN.get(name.toLowerCase(Locale.ROOT));
    }

    /** The state of the event's QP just before it: the last modify's, or ERR after a later error. */
    private String qpState(String host, long seq, List<ShownEvent.Field> fields) throws SQLException {
        Long qp = fields.stream().filter(f -> f.name().equals("qp_num")).findFirst().map(f -> Long.parseLong(f.raw())).orElse(null);
        if (qp == null) {
            return null;
        }
        String sql = """
                WITH m AS (SELECT max(seq) AS seq, arg_max(state_after_name, seq) AS state
                           FROM qp_state_timeline WHERE host = $1 AND qp_num = $2 AND seq < $3),
                e AS (SELECT min(x.seq) AS seq, arg_min(x.what, x.seq) AS what
                      FROM (SELECT seq, 'completion ' || enum_wc_status(status) AS what FROM completions
                            WHERE host = $1 AND qp_num = $2 AND status NOT IN (0, 5)
                            UNION ALL
                            SELECT seq, 'IBV_EVENT_' || event_name FROM async_events
                            WHERE host = $1 AND qp_num = $2 AND event_type IN (1, 2, 3)) x, m
                      WHERE x.seq < $3 AND x.seq > coalesce(m.seq, -1))
                SELECT CASE WHEN e.seq IS NOT NULL AND coalesce(m.state, 'RESET') NOT IN ('RESET', 'ERR')
                            THEN 'ERR (since ' || $1 || '#' || e.seq || ': ' || e.what || ')'
                            ELSE coalesce(m.state, 'RESET') END
                FROM m, e
                """;
        try (PreparedStatement s = connection.prepareStatement(sql)) {
            s.setString(1, host);
            s.setLong(2, qp);
            s.setLong(3, seq);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }
}
