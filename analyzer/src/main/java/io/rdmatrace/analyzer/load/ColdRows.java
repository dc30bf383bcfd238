package io.rdmatrace.analyzer.load;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.rdmatrace.analyzer.wire.RocePacket;
import io.rdmatrace.trace.model.AsyncEvent;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.CmEvent;
import io.rdmatrace.trace.model.CountersEvent;
import io.rdmatrace.trace.model.EndEvent;
import io.rdmatrace.trace.model.EventHeader;
import io.rdmatrace.trace.model.GidEntry;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.model.PacketEvent;
import io.rdmatrace.trace.model.SessionEvent;
import io.rdmatrace.trace.model.TraceEnding;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.model.WorkRequest;

/**
 * Turns the low-volume events of one host (everything {@link DatapathWriter} does not take)
 * into rows of the base tables, kept in memory until the host's pass is over.
 */
final class ColdRows {
    // one field per table: a Table is a record over its column list, so using it as a map key
    // would hash hundreds of columns for every row added
    private final SparseRows sessionRows = new SparseRows(BaseTables.SESSION);
    private final SparseRows deviceRows = new SparseRows(BaseTables.DEVICE);
    private final SparseRows portRows = new SparseRows(BaseTables.PORT);
    private final SparseRows gidRows = new SparseRows(BaseTables.GID);
    private final SparseRows overrideRows = new SparseRows(BaseTables.OVERRIDE);
    private final SparseRows callRows = new SparseRows(BaseTables.CALL);
    private final SparseRows wrRows = new SparseRows(BaseTables.WR);
    private final SparseRows sgeRows = new SparseRows(BaseTables.SGE);
    private final SparseRows asyncRows = new SparseRows(BaseTables.ASYNC);
    private final SparseRows oobRows = new SparseRows(BaseTables.OOB);
    private final SparseRows markRows = new SparseRows(BaseTables.MARK);
    private final SparseRows counterRows = new SparseRows(BaseTables.COUNTER);
    private final SparseRows endRows = new SparseRows(BaseTables.END);
    private final SparseRows threadRows = new SparseRows(BaseTables.THREAD);
    private final SparseRows cmEventRows = new SparseRows(BaseTables.CM_EVENT);
    private final SparseRows packetRows = new SparseRows(BaseTables.PACKET);
    private final List<SparseRows> tables = List.of(sessionRows, deviceRows, portRows, gidRows, overrideRows, callRows,
            wrRows, sgeRows, asyncRows, oobRows, markRows, counterRows, endRows, threadRows, cmEventRows, packetRows);
    private final Set<Long> threads = new HashSet<>();
    private long lastThread = Long.MIN_VALUE;

    /** Every table's rows, empty ones too, in the same order for every host. */
    List<SparseRows> tables() {
        return tables;
    }

    /** Records the thread of a data-path event (those rows carry the thread id only). */
    void thread(EventHeader header) {
        if (header.threadId() == lastThread) {
            return;
        }
        lastThread = header.threadId();
        if (threads.add(header.threadId())) {
            threadRows.add().put("pid", header.pid()).put("thread_id", header.threadId())
                    .put("thread_name", header.threadName());
        }
    }

    void add(TraceEvent event) {
        thread(event.header());
        if (event instanceof SessionEvent session) {
            session(session);
        } else if (event instanceof CallEvent call) {
            SparseRows.Row row = header(callRows, call.header())
                    .put("verb", call.verb().code()).put("handle", call.handle()).put("ret", call.ret())
                    .put("errno", call.errno()).put("duration_ns", call.durationNanos());
            row.attrs("in_", call.in());
            row.attrs("out_", call.out());
            chain(call);
        } else if (event instanceof AsyncEvent async) {
            header(asyncRows, async.header()).put("event_type", async.eventType())
                    .put("element", async.element()).put("qp_num", async.qpNum());
        } else if (event instanceof CmEvent cm) {
            SparseRows.Row row = header(cmEventRows, cm.header()).put("event_code", cm.eventType())
                    .put("status", cm.status()).put("id", cm.id());
            row.attrs("", cm.attrs());
        } else if (event instanceof PacketEvent p) {
            SparseRows.Row row = header(packetRows, p.header()).put("device", p.device())
                    .put("direction", p.direction().name()).put("reason", p.reason().isEmpty() ? null : p.reason())
                    .put("opcode", p.opcode()).put("opcode_name", RocePacket.opcodeName(p.opcode()))
                    .put("dest_qp", p.destQp()).put("psn", p.psn()).put("ack_req", p.ackReq()).put("ip_len", p.ipLength())
                    .put("payload_len", p.payloadLength()).put("peer", p.peer());
            if (p.syndrome() >= 0) {
                row.put("syndrome", p.syndrome()).put("aeth", RocePacket.aethText(p.syndrome()));
            }
        } else if (event instanceof OobEvent oob) {
            SparseRows.Row row = header(oobRows, oob.header()).put("direction", oob.direction().name())
                    .put("peer", oob.peer()).put("oob_kind", oob.oobKind().name());
            row.attrs("", oob.attrs());
        } else if (event instanceof MarkEvent mark) {
            header(markRows, mark.header()).put("step", mark.step()).put("verdict", mark.verdict().name())
                    .put("text", mark.text());
        } else if (event instanceof CountersEvent counters) {
            for (CountersEvent.Counter counter : counters.counters()) {
                header(counterRows, counters.header()).put("device", counters.device())
                        .put("phase", counters.phase().name()).put("name", counter.name()).put("value", counter.value());
            }
        } else if (event instanceof EndEvent end) {
            TraceEnding ending = end.ending();
            SparseRows.Row row = header(endRows, end.header()).put("event_count", end.eventCount())
                    .put("ending", ending.how().name()).put("ending_text", ending.describe())
                    .put("ending_detail", ending.detail().isEmpty() ? null : ending.detail());
            // NULL, not -1/0, where the program did not exit or no signal was involved: rules test IS NULL
            if (ending.exitStatus() >= 0) {
                row.put("exit_status", ending.exitStatus());
            }
            if (ending.signal() > 0) {
                row.put("signal", ending.signal());
            }
            if (ending.recorderSignal() > 0) {
                row.put("recorder_signal", ending.recorderSignal());
            }
        }
    }

    /** The rows of a post's work-request chain, if its CALL carries one (whichever table took the CALL). */
    void chain(CallEvent call) {
        List<WorkRequest> wrs = call.wrs();
        long seq = call.header().seq();
        for (int i = 0; i < wrs.size(); i++) {
            WorkRequest wr = wrs.get(i);
            SparseRows.Row row = wrRows.add().put("seq", seq).put("wr_index", i)
                    .put("num_sge", wr.sges().size()).put("total_length", wr.totalLength());
            row.attrs("", wr.fields());
            for (int j = 0; j < wr.sges().size(); j++) {
                WorkRequest.Sge sge = wr.sges().get(j);
                sgeRows.add().put("seq", seq).put("wr_index", i).put("sge_index", j)
                        .put("addr", sge.addr()).put("length", sge.length()).put("lkey", sge.lkey());
            }
        }
    }

    private void session(SessionEvent session) {
        EventHeader h = session.header();
        header(sessionRows, h).put("pid", h.pid())
                .put("format_major", session.formatVersion().major()).put("format_minor", session.formatVersion().minor())
                .put("tool_version", session.toolVersion()).put("command_line", session.commandLine())
                .put("verbs_lib", session.verbsLib()).put("scenario", session.scenario());
        deviceRows.add().put("seq", h.seq()).attrs("", session.device());
        for (Attrs port : session.ports()) {
            portRows.add().put("seq", h.seq()).attrs("", port);
        }
        for (GidEntry gid : session.gids()) {
            gidRows.add().put("seq", h.seq()).put("port_num", gid.portNum())
                    .put("gid_index", gid.index()).put("gid", gid.gid()).put("gid_type", gid.type());
        }
        int position = 0;
        for (Map.Entry<String, String> override : session.overrides().entrySet()) {
            overrideRows.add().put("seq", h.seq()).put("position", position++)
                    .put("name", override.getKey()).put("value", override.getValue());
        }
    }

    private static SparseRows.Row header(SparseRows table, EventHeader h) {
        return table.add().put("seq", h.seq()).put("mono_ns", h.monoNanos())
                .put("wall_ns", h.wallNanos()).put("thread_id", h.threadId());
    }
}
