package io.rdmatrace.analyzer.diff;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.rdmatrace.trace.model.AsyncEvent;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.CompletionEvent;
import io.rdmatrace.trace.model.EventHeader;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.model.Wc;

/**
 * Reads the hosts of a loaded database back as {@link HostEvents}, through the documented views
 * (rules/README.md): {@code hosts}, {@code overrides}, {@code devices}, {@code ports},
 * {@code calls}, {@code completions}, {@code async_events}, {@code marks}. Whatever was loaded
 * (a trace folder or an export bundle) reads the same.
 */
public final class HostEventsQuery {
    /** Verbs whose calls can be many; only the columns the diff compares are fetched for them. */
    private static final String DATAPATH_VERBS = "'ibv_post_send', 'ibv_post_recv', 'ibv_post_srq_recv', 'ibv_poll_cq'";
    private static final String DATAPATH_COLUMNS = "in_wr_id, in_wr_opcode, in_send_flags, in_num_sge, in_length, "
            + "in_imm_data, in_wr_count, in_num_entries, out_bad_wr_index, out_polled";
    private static final Map<String, Attr> BY_COLUMN = new HashMap<>();

    static {
        for (Attr attr : Attr.values()) {
            BY_COLUMN.put(attr.column(), attr);
        }
    }

    private HostEventsQuery() {
    }

    /** Every host the loader met (readable or not), sorted by host id. */
    public static List<HostEvents> read(Connection connection) throws SQLException {
        Map<String, List<TraceEvent>> events = new HashMap<>();
        try (Statement statement = connection.createStatement()) {
            readCalls(statement, "SELECT * FROM calls WHERE verb NOT IN (" + DATAPATH_VERBS + ")", events);
            readCalls(statement, "SELECT host, seq, mono_ns, wall_ns, thread_id, verb, handle, ret, errno, duration_ns, "
                    + DATAPATH_COLUMNS + " FROM calls WHERE verb IN (" + DATAPATH_VERBS + ")", events);
            readCompletions(statement, events);
            readAsync(statement, events);
            readMarks(statement, events);
        }
        Map<String, Map<String, String>> overrides = readOverrides(connection);
        Map<String, Attrs> devices = firstPerHost(readAttrRows(connection, "SELECT * FROM devices ORDER BY host, seq"));
        Map<String, List<Attrs>> ports = readAttrRows(connection, "SELECT * FROM ports ORDER BY host, seq");
        List<HostEvents> hosts = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(
                        "SELECT host, role, status, detail, scenario FROM hosts ORDER BY host")) {
            while (rs.next()) {
                String host = rs.getString("host");
                List<TraceEvent> list = events.getOrDefault(host, new ArrayList<>());
                list.sort(Comparator.comparingLong(TraceEvent::seq));
                hosts.add(new HostEvents(host, rs.getString("role"), rs.getString("status"), rs.getString("detail"),
                        rs.getString("scenario"), overrides.getOrDefault(host, Map.of()), devices.get(host),
                        ports.getOrDefault(host, List.of()), list));
            }
        }
        return hosts;
    }

    private static void readCalls(Statement statement, String sql, Map<String, List<TraceEvent>> events)
            throws SQLException {
        try (ResultSet rs = statement.executeQuery(sql)) {
            ResultSetMetaData meta = rs.getMetaData();
            int columns = meta.getColumnCount();
            Attr[] inAttr = new Attr[columns + 1];
            Attr[] outAttr = new Attr[columns + 1];
            for (int i = 1; i <= columns; i++) {
                String name = meta.getColumnName(i);
                if (name.startsWith("in_")) {
                    inAttr[i] = BY_COLUMN.get(name.substring(3));
                } else if (name.startsWith("out_")) {
                    outAttr[i] = BY_COLUMN.get(name.substring(4));
                }
            }
            // by index: a control-path row has ~470 columns and a lookup by name scans them
            int host = rs.findColumn("host");
            int verbColumn = rs.findColumn("verb");
            int handle = rs.findColumn("handle");
            int ret = rs.findColumn("ret");
            int errno = rs.findColumn("errno");
            int duration = rs.findColumn("duration_ns");
            int[] header = headerColumns(rs);
            Attrs.Builder in = Attrs.builder();
            Attrs.Builder out = Attrs.builder();
            while (rs.next()) {
                Verb verb = Verb.byFunction(rs.getString(verbColumn));
                if (verb == null) {
                    continue; // a verb this build does not know: nothing to align it with
                }
                in.clear();
                out.clear();
                for (int i = 1; i <= columns; i++) {
                    Attr attr = inAttr[i] != null ? inAttr[i] : outAttr[i];
                    if (attr == null) {
                        continue;
                    }
                    Object value = rs.getObject(i);
                    if (value != null) {
                        put(inAttr[i] != null ? in : out, attr, value);
                    }
                }
                add(events, rs.getString(host), new CallEvent(header(rs, header), verb, longOf(rs, handle),
                        (int) longOf(rs, ret), (int) longOf(rs, errno), longOf(rs, duration), in.build(), out.build()));
            }
        }
    }

    private static void readCompletions(Statement statement, Map<String, List<TraceEvent>> events) throws SQLException {
        try (ResultSet rs = statement.executeQuery("SELECT host, seq, mono_ns, wall_ns, thread_id, cq, wr_id, status, "
                + "opcode, vendor_err, byte_len, imm_data, qp_num, src_qp, wc_flags, pkey_index, slid, sl, "
                + "dlid_path_bits FROM completions")) {
            int[] header = headerColumns(rs);
            while (rs.next()) {
                // columns 7.. in the order of the SELECT
                Wc wc = new Wc(longOf(rs, 7), (int) longOf(rs, 8), (int) longOf(rs, 9), longOf(rs, 10), longOf(rs, 11),
                        longOf(rs, 12), (int) longOf(rs, 13), (int) longOf(rs, 14), (int) longOf(rs, 15),
                        (int) longOf(rs, 16), (int) longOf(rs, 17), (int) longOf(rs, 18), (int) longOf(rs, 19));
                add(events, rs.getString(1), new CompletionEvent(header(rs, header), longOf(rs, 6), wc));
            }
        }
    }

    private static void readAsync(Statement statement, Map<String, List<TraceEvent>> events) throws SQLException {
        try (ResultSet rs = statement.executeQuery("SELECT host, seq, event_type, element, qp_num FROM async_events")) {
            while (rs.next()) {
                Object qpNum = rs.getObject("qp_num");
                add(events, rs.getString("host"), new AsyncEvent(bare(rs.getLong("seq")), (int) longOf(rs, "event_type"),
                        longOf(rs, "element"), qpNum == null ? -1 : ((Number) qpNum).intValue()));
            }
        }
    }

    private static void readMarks(Statement statement, Map<String, List<TraceEvent>> events) throws SQLException {
        try (ResultSet rs = statement.executeQuery("SELECT host, seq, step, verdict, text FROM marks")) {
            while (rs.next()) {
                MarkEvent.Verdict verdict;
                try {
                    verdict = MarkEvent.Verdict.valueOf(rs.getString("verdict"));
                } catch (IllegalArgumentException | NullPointerException e) {
                    continue;
                }
                add(events, rs.getString("host"), new MarkEvent(bare(rs.getLong("seq")), nz(rs.getString("step")),
                        verdict, nz(rs.getString("text"))));
            }
        }
    }

    private static Map<String, Map<String, String>> readOverrides(Connection connection) throws SQLException {
        Map<String, Map<String, String>> overrides = new HashMap<>();
        try (Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT host, name, value FROM overrides ORDER BY host, position")) {
            while (rs.next()) {
                overrides.computeIfAbsent(rs.getString(1), h -> new LinkedHashMap<>()).put(rs.getString(2), nz(rs.getString(3)));
            }
        }
        return overrides;
    }

    /** Rows of a view whose columns (besides host and seq) are attribute columns, per host. */
    private static Map<String, List<Attrs>> readAttrRows(Connection connection, String sql) throws SQLException {
        Map<String, List<Attrs>> rows = new HashMap<>();
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            ResultSetMetaData meta = rs.getMetaData();
            int columns = meta.getColumnCount();
            Attr[] attrs = new Attr[columns + 1];
            for (int i = 1; i <= columns; i++) {
                attrs[i] = BY_COLUMN.get(meta.getColumnName(i));
            }
            while (rs.next()) {
                Attrs.Builder b = Attrs.builder();
                for (int i = 1; i <= columns; i++) {
                    Object value = attrs[i] == null ? null : rs.getObject(i);
                    if (value != null) {
                        put(b, attrs[i], value);
                    }
                }
                rows.computeIfAbsent(rs.getString("host"), h -> new ArrayList<>()).add(b.build());
            }
        }
        return rows;
    }

    private static Map<String, Attrs> firstPerHost(Map<String, List<Attrs>> rows) {
        Map<String, Attrs> first = new HashMap<>();
        rows.forEach((host, list) -> first.put(host, list.get(0)));
        return first;
    }

    private static void put(Attrs.Builder b, Attr attr, Object value) {
        if (attr.isText()) {
            b.put(attr, value.toString());
        } else if (value instanceof Boolean flag) {
            b.put(attr, flag ? 1L : 0L);
        } else if (value instanceof Number number) {
            b.put(attr, number.longValue());
        }
    }

    /** The positions of seq, mono_ns, wall_ns, thread_id. */
    private static int[] headerColumns(ResultSet rs) throws SQLException {
        return new int[] {rs.findColumn("seq"), rs.findColumn("mono_ns"), rs.findColumn("wall_ns"), rs.findColumn("thread_id")};
    }

    private static EventHeader header(ResultSet rs, int[] columns) throws SQLException {
        return new EventHeader(longOf(rs, columns[0]), longOf(rs, columns[1]), longOf(rs, columns[2]), 0,
                longOf(rs, columns[3]), "");
    }

    private static EventHeader bare(long seq) {
        return new EventHeader(seq, 0, 0, 0, 0, "");
    }

    private static long longOf(ResultSet rs, String column) throws SQLException {
        return longOf(rs, rs.findColumn(column));
    }

    private static long longOf(ResultSet rs, int column) throws SQLException {
        Object value = rs.getObject(column);
        if (value instanceof Boolean flag) {
            return flag ? 1 : 0;
        }
        return value == null ? 0 : ((Number) value).longValue();
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    private static void add(Map<String, List<TraceEvent>> events, String host, TraceEvent event) {
        events.computeIfAbsent(host, h -> new ArrayList<>()).add(event);
    }
}
