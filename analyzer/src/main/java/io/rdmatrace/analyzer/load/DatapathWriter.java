package io.rdmatrace.analyzer.load;

import java.util.List;
import java.util.Map;

import io.rdmatrace.trace.Attr;
import io.rdmatrace.trace.Attrs;
import io.rdmatrace.trace.CallEvent;
import io.rdmatrace.trace.CompletionEvent;
import io.rdmatrace.trace.EventHeader;
import io.rdmatrace.trace.EventKind;
import io.rdmatrace.trace.TraceEvent;
import io.rdmatrace.trace.Wc;

/**
 * Writes the high-volume events (completions, and data-path calls whose attributes all have a
 * {@code _datapath} column) straight into Arrow batches; everything else is declined and goes
 * to {@link ColdRows}. Column positions are resolved once, so the per-event work is array stores.
 */
final class DatapathWriter {
    static final List<Column> COLUMNS = BaseTables.DATAPATH.columns();

    private final int seq;
    private final int monoNs;
    private final int wallNs;
    private final int threadId;
    private final int kind;
    private final int verb;
    private final int handle;
    private final int ret;
    private final int errno;
    private final int durationNs;
    private final int[] inColumn = new int[maxCode() + 1];
    private final int[] outColumn = new int[maxCode() + 1];
    private final int[] wc;

    DatapathWriter() {
        Map<String, Integer> at = BaseTables.DATAPATH.positions();
        seq = at.get("seq");
        monoNs = at.get("mono_ns");
        wallNs = at.get("wall_ns");
        threadId = at.get("thread_id");
        kind = at.get("kind");
        verb = at.get("verb");
        handle = at.get("handle");
        ret = at.get("ret");
        errno = at.get("errno");
        durationNs = at.get("duration_ns");
        for (Attr attr : Attr.values()) {
            inColumn[attr.code()] = BaseTables.DATAPATH_IN.contains(attr) ? at.get("in_" + attr.column()) : -1;
            outColumn[attr.code()] = BaseTables.DATAPATH_OUT.contains(attr) ? at.get("out_" + attr.column()) : -1;
        }
        wc = new int[] {at.get("wc_wr_id"), at.get("wc_status"), at.get("wc_opcode"), at.get("wc_vendor_err"),
            at.get("wc_byte_len"), at.get("wc_imm_data"), at.get("wc_qp_num"), at.get("wc_src_qp"), at.get("wc_flags"),
            at.get("wc_pkey_index"), at.get("wc_slid"), at.get("wc_sl"), at.get("wc_dlid_path_bits")};
    }

    /** Writes the event as a new row and returns true, or returns false (and writes nothing) if it is not data-path. */
    boolean write(TraceEvent event, BatchBuilder batch) {
        if (event instanceof CompletionEvent completion) {
            int row = header(batch, completion.header(), EventKind.COMPLETION);
            batch.setLong(handle, row, completion.cq());
            Wc w = completion.wc();
            batch.setLong(wc[0], row, w.wrId());
            batch.setLong(wc[1], row, w.status());
            batch.setLong(wc[2], row, w.opcode());
            batch.setLong(wc[3], row, w.vendorErr());
            batch.setLong(wc[4], row, w.byteLen());
            batch.setLong(wc[5], row, w.immData());
            batch.setLong(wc[6], row, w.qpNum());
            batch.setLong(wc[7], row, w.srcQp());
            batch.setLong(wc[8], row, w.wcFlags());
            batch.setLong(wc[9], row, w.pkeyIndex());
            batch.setLong(wc[10], row, w.slid());
            batch.setLong(wc[11], row, w.sl());
            batch.setLong(wc[12], row, w.dlidPathBits());
            return true;
        }
        if (!(event instanceof CallEvent call) || !accepts(call)) {
            return false;
        }
        int row = header(batch, call.header(), EventKind.CALL);
        batch.setLong(verb, row, call.verb().code());
        batch.setLong(handle, row, call.handle());
        batch.setLong(ret, row, call.ret());
        batch.setLong(errno, row, call.errno());
        batch.setLong(durationNs, row, call.durationNanos());
        Attrs in = call.in();
        for (int i = 0; i < in.size(); i++) {
            batch.setLong(inColumn[in.attr(i).code()], row, in.value(i));
        }
        Attrs out = call.out();
        for (int i = 0; i < out.size(); i++) {
            batch.setLong(outColumn[out.attr(i).code()], row, out.value(i));
        }
        return true;
    }

    private boolean accepts(CallEvent call) {
        if (!BaseTables.DATAPATH_VERBS.contains(call.verb()) || call.in().textSize() > 0 || call.out().textSize() > 0) {
            return false;
        }
        Attrs in = call.in();
        for (int i = 0; i < in.size(); i++) {
            if (inColumn[in.attr(i).code()] < 0) {
                return false;
            }
        }
        Attrs out = call.out();
        for (int i = 0; i < out.size(); i++) {
            if (outColumn[out.attr(i).code()] < 0) {
                return false;
            }
        }
        return true;
    }

    private int header(BatchBuilder batch, EventHeader h, EventKind eventKind) {
        int row = batch.nextRow();
        batch.setLong(seq, row, h.seq());
        batch.setLong(monoNs, row, h.monoNanos());
        batch.setLong(wallNs, row, h.wallNanos());
        batch.setLong(threadId, row, h.threadId());
        batch.setLong(kind, row, eventKind.code());
        return row;
    }

    private static int maxCode() {
        int max = 0;
        for (Attr attr : Attr.values()) {
            max = Math.max(max, attr.code());
        }
        return max;
    }
}
