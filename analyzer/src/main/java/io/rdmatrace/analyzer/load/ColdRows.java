package io.rdmatrace.analyzer.load;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.rdmatrace.analyzer.wire.RocePacket;
import io.rdmatrace.trace.AsyncEvent;
import io.rdmatrace.trace.Attrs;
import io.rdmatrace.trace.CallEvent;
import io.rdmatrace.trace.CmEvent;
import io.rdmatrace.trace.CountersEvent;
import io.rdmatrace.trace.EndEvent;
import io.rdmatrace.trace.EventHeader;
import io.rdmatrace.trace.GidEntry;
import io.rdmatrace.trace.MarkEvent;
import io.rdmatrace.trace.OobEvent;
import io.rdmatrace.trace.PacketEvent;
import io.rdmatrace.trace.SessionEvent;
import io.rdmatrace.trace.TraceEvent;
import io.rdmatrace.trace.WorkRequest;

/**
 * Turns the low-volume events of one host (everything {@link DatapathWriter} does not take)
 * into rows of the base tables, kept in memory until the host's pass is over.
 */
final class ColdRows {
    private final Map<Table, SparseRows> tables = new LinkedHashMap<>();
    private final Set<Long> threads = new HashSet<>();
    private long lastThread = Long.MIN_VALUE;

    ColdRows() {
        for (Table table : List.of(BaseTables.SESSION, BaseTables.DEVICE, BaseTables.PORT, BaseTables.GID,
                BaseTables.OVERRIDE, BaseTables.CALL, BaseTables.WR, BaseTables.SGE, BaseTables.ASYNC, BaseTables.OOB, BaseTables.MARK,
                BaseTables.COUNTER, BaseTables.END, BaseTables.THREAD, BaseTables.CM_EVENT, BaseTables.PACKET)) {
            tables.put(table, new SparseRows(table));
        }
    }

    /** The tables that received rows. */
    List<SparseRows> filled() {
        return tables.values().stream().filter(t -> t.size() > 0).toList();
    }

    /** Records the thread of a data-path event (those rows carry the thread id only). */
    void thread(EventHeader header) {
        if (header.threadId() == lastThread) {
            return;
        }
        lastThread = header.threadId();
        if (threads.add(header.threadId())) {
            tables.get(BaseTables.THREAD).add().put("pid", header.pid()).put("thread_id", header.threadId())
                    .put("thread_name", header.threadName());
        }
    }

    void add(TraceEvent event) {
        thread(event.header());
        if (event instanceof SessionEvent session) {
            session(session);
        } else if (event instanceof CallEvent call) {
            SparseRows.Row row = header(BaseTables.CALL, call.header())
                    .put("verb", call.verb().code()).put("handle", call.handle()).put("ret", call.ret())
                    .put("errno", call.errno()).put("duration_ns", call.durationNanos());
            attrs(row, "in_", call.in());
            attrs(row, "out_", call.out());
            chain(call);
        } else if (event instanceof AsyncEvent async) {
            header(BaseTables.ASYNC, async.header()).put("event_type", async.eventType())
                    .put("element", async.element()).put("qp_num", async.qpNum());
        } else if (event instanceof CmEvent cm) {
            SparseRows.Row row = header(BaseTables.CM_EVENT, cm.header()).put("event_code", cm.eventType())
                    .put("status", cm.status()).put("id", cm.id());
            attrs(row, "", cm.attrs());
        } else if (event instanceof PacketEvent p) {
            SparseRows.Row row = header(BaseTables.PACKET, p.header()).put("device", p.device())
                    .put("direction", p.direction().name()).put("reason", p.reason().isEmpty() ? null : p.reason())
                    .put("opcode", p.opcode()).put("opcode_name", RocePacket.opcodeName(p.opcode()))
                    .put("dest_qp", p.destQp()).put("psn", p.psn()).put("ack_req", p.ackReq()).put("ip_len", p.ipLength())
                    .put("payload_len", p.payloadLength()).put("peer", p.peer());
            if (p.syndrome() >= 0) {
                row.put("syndrome", p.syndrome()).put("aeth", RocePacket.aethText(p.syndrome()));
            }
        } else if (event instanceof OobEvent oob) {
            SparseRows.Row row = header(BaseTables.OOB, oob.header()).put("direction", oob.direction().name())
                    .put("peer", oob.peer()).put("oob_kind", oob.oobKind().name());
            attrs(row, "", oob.attrs());
        } else if (event instanceof MarkEvent mark) {
            header(BaseTables.MARK, mark.header()).put("step", mark.step()).put("verdict", mark.verdict().name())
                    .put("text", mark.text());
        } else if (event instanceof CountersEvent counters) {
            for (CountersEvent.Counter counter : counters.counters()) {
                header(BaseTables.COUNTER, counters.header()).put("device", counters.device())
                        .put("phase", counters.phase().name()).put("name", counter.name()).put("value", counter.value());
            }
        } else if (event instanceof EndEvent end) {
            header(BaseTables.END, end.header()).put("event_count", end.eventCount());
        }
    }

    /** The rows of a post's work-request chain, if its CALL carries one (whichever table took the CALL). */
    void chain(CallEvent call) {
        List<WorkRequest> wrs = call.wrs();
        long seq = call.header().seq();
        for (int i = 0; i < wrs.size(); i++) {
            WorkRequest wr = wrs.get(i);
            SparseRows.Row row = tables.get(BaseTables.WR).add().put("seq", seq).put("wr_index", i)
                    .put("num_sge", wr.sges().size()).put("total_length", wr.totalLength());
            attrs(row, "", wr.fields());
            for (int j = 0; j < wr.sges().size(); j++) {
                WorkRequest.Sge sge = wr.sges().get(j);
                tables.get(BaseTables.SGE).add().put("seq", seq).put("wr_index", i).put("sge_index", j)
                        .put("addr", sge.addr()).put("length", sge.length()).put("lkey", sge.lkey());
            }
        }
    }

    private void session(SessionEvent session) {
        EventHeader h = session.header();
        header(BaseTables.SESSION, h).put("pid", h.pid())
                .put("format_major", session.formatVersion().major()).put("format_minor", session.formatVersion().minor())
                .put("tool_version", session.toolVersion()).put("command_line", session.commandLine())
                .put("verbs_lib", session.verbsLib()).put("scenario", session.scenario());
        attrs(tables.get(BaseTables.DEVICE).add().put("seq", h.seq()), "", session.device());
        for (Attrs port : session.ports()) {
            attrs(tables.get(BaseTables.PORT).add().put("seq", h.seq()), "", port);
        }
        for (GidEntry gid : session.gids()) {
            tables.get(BaseTables.GID).add().put("seq", h.seq()).put("port_num", gid.portNum())
                    .put("gid_index", gid.index()).put("gid", gid.gid()).put("gid_type", gid.type());
        }
        int position = 0;
        for (Map.Entry<String, String> override : session.overrides().entrySet()) {
            tables.get(BaseTables.OVERRIDE).add().put("seq", h.seq()).put("position", position++)
                    .put("name", override.getKey()).put("value", override.getValue());
        }
    }

    private SparseRows.Row header(Table table, EventHeader h) {
        return tables.get(table).add().put("seq", h.seq()).put("mono_ns", h.monoNanos())
                .put("wall_ns", h.wallNanos()).put("thread_id", h.threadId());
    }

    private static void attrs(SparseRows.Row row, String prefix, Attrs attrs) {
        for (int i = 0; i < attrs.size(); i++) {
            row.put(prefix + attrs.attr(i).column(), attrs.value(i));
        }
        for (int i = 0; i < attrs.textSize(); i++) {
            row.put(prefix + attrs.textAttr(i).column(), attrs.text(i));
        }
    }
}
