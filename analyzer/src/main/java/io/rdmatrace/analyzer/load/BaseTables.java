package io.rdmatrace.analyzer.load;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import io.rdmatrace.trace.Attr;
import io.rdmatrace.trace.Verb;

/**
 * The private tables the loader fills, one per event kind (plus the SESSION's parts). Their
 * columns are generated from the trace model: every {@link Attr} becomes a typed, nullable
 * column ({@code in_<attr>}/{@code out_<attr>} for calls). The views in rules/_views/ turn
 * them into the documented API.
 *
 * <p>Data-path calls and completions (the bulk of a long trace) go to the narrow
 * {@code _datapath} table; a 300-column row per posted WR would cost gigabytes in memory.
 */
final class BaseTables {
    private BaseTables() {
    }

    /** One row per loaded host folder: what the reader made of it. */
    static final Table HOST = new Table("_host", List.of(
            new Column("folder", SqlType.VARCHAR),
            new Column("status", SqlType.VARCHAR),
            new Column("detail", SqlType.VARCHAR),
            new Column("format_version", SqlType.VARCHAR),
            new Column("events", SqlType.BIGINT),
            new Column("last_seq", SqlType.BIGINT)));

    static final Table SESSION = new Table("_session", withHeader(List.of(
            new Column("pid", SqlType.BIGINT),
            new Column("format_major", SqlType.INTEGER),
            new Column("format_minor", SqlType.INTEGER),
            new Column("tool_version", SqlType.VARCHAR),
            new Column("command_line", SqlType.VARCHAR),
            new Column("verbs_lib", SqlType.VARCHAR),
            new Column("scenario", SqlType.VARCHAR))));

    static final Table DEVICE = new Table("_device", attrColumns("", new ArrayList<>(List.of(new Column("seq", SqlType.BIGINT)))));

    static final Table PORT = new Table("_port", attrColumns("", new ArrayList<>(List.of(new Column("seq", SqlType.BIGINT)))));

    static final Table GID = new Table("_gid", List.of(
            new Column("seq", SqlType.BIGINT),
            new Column("port_num", SqlType.INTEGER),
            new Column("gid_index", SqlType.INTEGER),
            new Column("gid", SqlType.VARCHAR),
            new Column("gid_type", SqlType.INTEGER)));

    static final Table OVERRIDE = new Table("_override", List.of(
            new Column("seq", SqlType.BIGINT),
            new Column("position", SqlType.INTEGER),
            new Column("name", SqlType.VARCHAR),
            new Column("value", SqlType.VARCHAR)));

    static final Table CALL = new Table("_call", attrColumns("out_", attrColumns("in_", withHeader(List.of(
            new Column("verb", SqlType.SMALLINT),
            new Column("handle", SqlType.BIGINT),
            new Column("ret", SqlType.INTEGER),
            new Column("errno", SqlType.INTEGER),
            new Column("duration_ns", SqlType.BIGINT))))));

    /** Verbs whose calls may go to {@code _datapath} (if all their attributes have a column there). */
    static final Set<Verb> DATAPATH_VERBS = EnumSet.of(Verb.IBV_POST_SEND, Verb.IBV_POST_RECV, Verb.IBV_POST_SRQ_RECV,
            Verb.IBV_POLL_CQ, Verb.IBV_REQ_NOTIFY_CQ, Verb.IBV_GET_CQ_EVENT, Verb.IBV_ACK_CQ_EVENTS);
    static final Set<Attr> DATAPATH_IN = EnumSet.of(Attr.WR_ID, Attr.WR_OPCODE, Attr.SEND_FLAGS, Attr.NUM_SGE,
            Attr.LENGTH, Attr.ADDR, Attr.LKEY, Attr.REMOTE_ADDR, Attr.RKEY, Attr.IMM_DATA, Attr.REMOTE_QPN,
            Attr.REMOTE_QKEY, Attr.AH, Attr.WR_COUNT, Attr.NUM_ENTRIES, Attr.SOLICITED_ONLY, Attr.NUM_EVENTS,
            Attr.CQ, Attr.QP, Attr.QP_NUM);
    static final Set<Attr> DATAPATH_OUT = EnumSet.of(Attr.BAD_WR_INDEX, Attr.POLLED, Attr.CQ, Attr.TIMEOUT_MS,
            Attr.DURATION);

    /** kind codes of {@code _datapath.kind}: the {@code EventKind} code. */
    static final Table DATAPATH = new Table("_datapath", datapathColumns());

    static final Table ASYNC = new Table("_async", withHeader(List.of(
            new Column("event_type", SqlType.INTEGER),
            new Column("element", SqlType.BIGINT),
            new Column("qp_num", SqlType.INTEGER))));

    static final Table OOB = new Table("_oob", attrColumns("", withHeader(List.of(
            new Column("direction", SqlType.VARCHAR),
            new Column("peer", SqlType.VARCHAR),
            new Column("oob_kind", SqlType.VARCHAR)))));

    static final Table MARK = new Table("_mark", withHeader(List.of(
            new Column("step", SqlType.VARCHAR),
            new Column("verdict", SqlType.VARCHAR),
            new Column("text", SqlType.VARCHAR))));

    static final Table COUNTER = new Table("_counter", withHeader(List.of(
            new Column("device", SqlType.VARCHAR),
            new Column("phase", SqlType.VARCHAR),
            new Column("name", SqlType.VARCHAR),
            new Column("value", SqlType.BIGINT))));

    static final Table END = new Table("_end", withHeader(List.of(
            new Column("event_count", SqlType.BIGINT))));

    static final Table THREAD = new Table("_thread", List.of(
            new Column("pid", SqlType.BIGINT),
            new Column("thread_id", SqlType.BIGINT),
            new Column("thread_name", SqlType.VARCHAR)));

    static List<Table> all() {
        return List.of(HOST, SESSION, DEVICE, PORT, GID, OVERRIDE, CALL, DATAPATH, ASYNC, OOB, MARK, COUNTER, END, THREAD);
    }

    private static List<Column> datapathColumns() {
        List<Column> columns = withHeader(List.of(
                new Column("kind", SqlType.SMALLINT),
                new Column("verb", SqlType.SMALLINT),
                new Column("handle", SqlType.BIGINT),
                new Column("ret", SqlType.INTEGER),
                new Column("errno", SqlType.INTEGER),
                new Column("duration_ns", SqlType.BIGINT)));
        for (Attr attr : DATAPATH_IN) {
            columns.add(new Column("in_" + attr.column(), SqlType.of(attr)));
        }
        for (Attr attr : DATAPATH_OUT) {
            columns.add(new Column("out_" + attr.column(), SqlType.of(attr)));
        }
        // completion fields (struct ibv_wc); the CQ handle goes to "handle"
        columns.add(new Column("wc_wr_id", SqlType.BIGINT));
        columns.add(new Column("wc_status", SqlType.INTEGER));
        columns.add(new Column("wc_opcode", SqlType.INTEGER));
        columns.add(new Column("wc_vendor_err", SqlType.BIGINT));
        columns.add(new Column("wc_byte_len", SqlType.BIGINT));
        columns.add(new Column("wc_imm_data", SqlType.BIGINT));
        columns.add(new Column("wc_qp_num", SqlType.INTEGER));
        columns.add(new Column("wc_src_qp", SqlType.INTEGER));
        columns.add(new Column("wc_flags", SqlType.INTEGER));
        columns.add(new Column("wc_pkey_index", SqlType.INTEGER));
        columns.add(new Column("wc_slid", SqlType.INTEGER));
        columns.add(new Column("wc_sl", SqlType.INTEGER));
        columns.add(new Column("wc_dlid_path_bits", SqlType.INTEGER));
        return List.copyOf(columns);
    }

    private static List<Column> withHeader(List<Column> rest) {
        List<Column> columns = new ArrayList<>();
        columns.add(new Column("seq", SqlType.BIGINT));
        columns.add(new Column("mono_ns", SqlType.BIGINT));
        columns.add(new Column("wall_ns", SqlType.BIGINT));
        columns.add(new Column("thread_id", SqlType.BIGINT));
        columns.addAll(rest);
        return columns;
    }

    private static List<Column> attrColumns(String prefix, List<Column> before) {
        List<Column> columns = new ArrayList<>(before);
        for (Attr attr : Attr.values()) {
            columns.add(new Column(prefix + attr.column(), SqlType.of(attr)));
        }
        return columns;
    }
}
