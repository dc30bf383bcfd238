package io.rdmatrace.analyzer.load;

import java.util.ArrayList;
import java.util.List;

import io.rdmatrace.trace.model.Attr;

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

    /** The attributes a chain's request can carry (see {@code WorkRequest}). */
    static final List<Attr> WR_ATTRS = List.of(Attr.WR_ID, Attr.WR_OPCODE, Attr.SEND_FLAGS, Attr.REMOTE_ADDR, Attr.RKEY,
            Attr.IMM_DATA, Attr.COMPARE_ADD, Attr.SWAP, Attr.AH, Attr.REMOTE_QPN, Attr.REMOTE_QKEY);

    /** One row per loaded host folder: what the reader made of it. */
    static final Table HOST = new Table("_host", List.of(
            new Column("folder", SqlType.VARCHAR),
            new Column("status", SqlType.VARCHAR),
            new Column("detail", SqlType.VARCHAR),
            new Column("format_version", SqlType.VARCHAR),
            new Column("events", SqlType.BIGINT),
            new Column("last_seq", SqlType.BIGINT),
            // wall time of the last event read, and of the reading itself (a live trace's "now")
            new Column("last_wall_ns", SqlType.BIGINT),
            new Column("read_wall_ns", SqlType.BIGINT)));

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

    /**
     * The data path: work-request posts, polls and completions (the bulk of a long trace), in
     * a narrow table whose physical columns are shared by calls and completions (a wide,
     * mostly-NULL table costs DuckDB several times more per row). Which column holds what:
     * <pre>
     * column       post call          poll call     completion
     * handle       QP handle          CQ handle     CQ handle
     * ret          ret                ret (count)   wc status
     * err          errno              errno         vendor_err
     * wr_id        first WR's wr_id   -             wr_id
     * opcode       wr opcode          -             wc opcode
     * flags        send_flags         -             wc_flags
     * length       first SGE length   -             byte_len
     * count1       num_sge            num_entries   -
     * count2       wr_count           polled        -
     * remote_qpn   remote_qpn (UD)    -             src_qp
     * wc_extra     -                  -             pkey_index | slid << 16 | sl << 32 | dlid_path_bits << 40
     * </pre>
     * A data-path call carrying an attribute without a column here goes to {@code _call}.
     * The views {@code calls} and {@code completions} give every value its own name again.
     */
    static final Table DATAPATH = new Table("_datapath", withHeader(List.of(
            new Column("kind", SqlType.SMALLINT),
            new Column("verb", SqlType.SMALLINT),
            new Column("handle", SqlType.BIGINT),
            new Column("ret", SqlType.INTEGER),
            new Column("err", SqlType.BIGINT),
            new Column("duration_ns", SqlType.BIGINT),
            new Column("qp_num", SqlType.INTEGER),
            new Column("wr_id", SqlType.BIGINT),
            new Column("opcode", SqlType.INTEGER),
            new Column("flags", SqlType.BIGINT),
            new Column("length", SqlType.BIGINT),
            new Column("addr", SqlType.BIGINT),
            new Column("lkey", SqlType.BIGINT),
            new Column("count1", SqlType.BIGINT),
            new Column("count2", SqlType.BIGINT),
            new Column("remote_addr", SqlType.BIGINT),
            new Column("rkey", SqlType.BIGINT),
            new Column("imm_data", SqlType.BIGINT),
            new Column("remote_qpn", SqlType.INTEGER),
            new Column("remote_qkey", SqlType.BIGINT),
            new Column("ah", SqlType.BIGINT),
            new Column("bad_wr_index", SqlType.BIGINT),
            new Column("wc_extra", SqlType.BIGINT))));

    /**
     * The requests of a posted chain, one row per request (format 1.1; only posts whose CALL
     * carries a chain: more than one request, or one with several SGEs). The CALL's own row has
     * the first request; the view {@code work_requests} joins both kinds of post.
     */
    static final Table WR = new Table("_wr", wrColumns());

    /** The SGEs of a chain's requests, one row per SGE. */
    static final Table SGE = new Table("_sge", List.of(
            new Column("seq", SqlType.BIGINT),
            new Column("wr_index", SqlType.INTEGER),
            new Column("sge_index", SqlType.INTEGER),
            new Column("addr", SqlType.BIGINT),
            new Column("length", SqlType.BIGINT),
            new Column("lkey", SqlType.BIGINT)));

    static final Table ASYNC = new Table("_async", withHeader(List.of(
            new Column("event_type", SqlType.INTEGER),
            new Column("element", SqlType.BIGINT),
            new Column("qp_num", SqlType.INTEGER))));

    /** rdma_cm events (format 1.2): one row per event rdma_get_cm_event returned; attributes as columns. */
    static final Table CM_EVENT = new Table("_cm_event", attrColumns("", withHeader(List.of(
            new Column("event_code", SqlType.INTEGER),
            new Column("status", SqlType.INTEGER),
            new Column("id", SqlType.BIGINT)))));

    /** softverbs' packets (format 1.3, capture --wire): one row per PACKET event. */
    static final Table PACKET = new Table("_sv_packet", withHeader(List.of(
            new Column("device", SqlType.VARCHAR),
            new Column("direction", SqlType.VARCHAR),
            new Column("reason", SqlType.VARCHAR),
            new Column("opcode", SqlType.INTEGER),
            new Column("opcode_name", SqlType.VARCHAR),
            new Column("dest_qp", SqlType.INTEGER),
            new Column("psn", SqlType.INTEGER),
            new Column("ack_req", SqlType.BOOLEAN),
            new Column("syndrome", SqlType.INTEGER),
            new Column("aeth", SqlType.VARCHAR),
            new Column("ip_len", SqlType.INTEGER),
            new Column("payload_len", SqlType.INTEGER),
            new Column("peer", SqlType.VARCHAR))));

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
            new Column("event_count", SqlType.BIGINT),
            new Column("ending", SqlType.VARCHAR),
            new Column("exit_status", SqlType.INTEGER),
            new Column("signal", SqlType.INTEGER),
            new Column("recorder_signal", SqlType.INTEGER),
            new Column("ending_detail", SqlType.VARCHAR),
            new Column("ending_text", SqlType.VARCHAR))));

    static final Table THREAD = new Table("_thread", List.of(
            new Column("pid", SqlType.BIGINT),
            new Column("thread_id", SqlType.BIGINT),
            new Column("thread_name", SqlType.VARCHAR)));

    static List<Table> all() {
        return List.of(HOST, SESSION, DEVICE, PORT, GID, OVERRIDE, CALL, DATAPATH, WR, SGE, ASYNC, OOB, MARK, COUNTER, END,
                THREAD, CM_EVENT, PACKET);
    }

    private static List<Column> wrColumns() {
        List<Column> columns = new ArrayList<>(List.of(
                new Column("seq", SqlType.BIGINT),
                new Column("wr_index", SqlType.INTEGER),
                new Column("num_sge", SqlType.INTEGER),
                new Column("total_length", SqlType.BIGINT)));
        for (Attr attr : WR_ATTRS) {
            columns.add(new Column(attr.column(), SqlType.of(attr)));
        }
        return columns;
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
