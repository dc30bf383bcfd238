package io.rdmatrace.analyzer.load;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.CompletionEvent;
import io.rdmatrace.trace.model.EventHeader;
import io.rdmatrace.trace.model.EventKind;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.model.Wc;

/**
 * Writes the high-volume events (completions, and posts and polls whose attributes all have a
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
    private final int err;
    private final int durationNs;
    private final int wrId;
    private final int opcode;
    private final int flags;
    private final int length;
    private final int qpNum;
    private final int remoteQpn;
    private final int immData;
    private final int wcExtra;
    /** Per verb code: attribute code → column, for inputs and outputs; null = not a data-path verb. */
    private final int[][] inColumn = new int[maxVerbCode() + 1][];
    private final int[][] outColumn = new int[maxVerbCode() + 1][];

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
        err = at.get("err");
        durationNs = at.get("duration_ns");
        wrId = at.get("wr_id");
        opcode = at.get("opcode");
        flags = at.get("flags");
        length = at.get("length");
        qpNum = at.get("qp_num");
        remoteQpn = at.get("remote_qpn");
        immData = at.get("imm_data");
        wcExtra = at.get("wc_extra");
        Map<Attr, String> post = new EnumMap<>(Attr.class);
        post.put(Attr.QP_NUM, "qp_num");
        post.put(Attr.WR_ID, "wr_id");
        post.put(Attr.WR_OPCODE, "opcode");
        post.put(Attr.SEND_FLAGS, "flags");
        post.put(Attr.NUM_SGE, "count1");
        post.put(Attr.WR_COUNT, "count2");
        post.put(Attr.LENGTH, "length");
        post.put(Attr.ADDR, "addr");
        post.put(Attr.LKEY, "lkey");
        post.put(Attr.REMOTE_ADDR, "remote_addr");
        post.put(Attr.RKEY, "rkey");
        post.put(Attr.IMM_DATA, "imm_data");
        post.put(Attr.REMOTE_QPN, "remote_qpn");
        post.put(Attr.REMOTE_QKEY, "remote_qkey");
        post.put(Attr.AH, "ah");
        Map<Attr, String> postOut = Map.of(Attr.BAD_WR_INDEX, "bad_wr_index");
        for (Verb v : List.of(Verb.IBV_POST_SEND, Verb.IBV_POST_RECV, Verb.IBV_POST_SRQ_RECV)) {
            inColumn[v.code()] = columns(post, at);
            outColumn[v.code()] = columns(postOut, at);
        }
        inColumn[Verb.IBV_POLL_CQ.code()] = columns(Map.of(Attr.NUM_ENTRIES, "count1"), at);
        outColumn[Verb.IBV_POLL_CQ.code()] = columns(Map.of(Attr.POLLED, "count2"), at);
    }

    private static int[] columns(Map<Attr, String> mapping, Map<String, Integer> at) {
        int max = 0;
        for (Attr a : Attr.values()) {
            max = Math.max(max, a.code());
        }
        int[] byCode = new int[max + 1];
        java.util.Arrays.fill(byCode, -1);
        mapping.forEach((attr, column) -> byCode[attr.code()] = at.get(column));
        return byCode;
    }

    /** Writes the event as a new row and returns true, or returns false (and writes nothing) if it is not data-path. */
    boolean write(TraceEvent event, BatchBuilder batch) {
        if (event instanceof CompletionEvent completion) {
            Wc w = completion.wc();
            int row = header(batch, completion.header(), EventKind.COMPLETION);
            batch.setLong(handle, row, completion.cq());
            batch.setLong(ret, row, w.status());
            batch.setLong(err, row, w.vendorErr());
            batch.setLong(wrId, row, w.wrId());
            batch.setLong(opcode, row, w.opcode());
            batch.setLong(flags, row, w.wcFlags());
            batch.setLong(length, row, w.byteLen());
            batch.setLong(qpNum, row, w.qpNum());
            batch.setLong(remoteQpn, row, w.srcQp());
            batch.setLong(immData, row, w.immData());
            batch.setLong(wcExtra, row, (w.pkeyIndex() & 0xFFFFL) | (w.slid() & 0xFFFFL) << 16 | (w.sl() & 0xFFL) << 32
                    | (w.dlidPathBits() & 0xFFL) << 40);
            return true;
        }
        if (!(event instanceof CallEvent call)) {
            return false;
        }
        int[] in = inColumn[call.verb().code()];
        int[] out = outColumn[call.verb().code()];
        if (in == null || !fits(call.in(), in) || !fits(call.out(), out)) {
            return false;
        }
        int row = header(batch, call.header(), EventKind.CALL);
        batch.setLong(verb, row, call.verb().code());
        batch.setLong(handle, row, call.handle());
        batch.setLong(ret, row, call.ret());
        batch.setLong(err, row, call.errno());
        batch.setLong(durationNs, row, call.durationNanos());
        Attrs attrs = call.in();
        for (int i = 0; i < attrs.size(); i++) {
            batch.setLong(in[attrs.attr(i).code()], row, attrs.value(i));
        }
        attrs = call.out();
        for (int i = 0; i < attrs.size(); i++) {
            batch.setLong(out[attrs.attr(i).code()], row, attrs.value(i));
        }
        return true;
    }

    private static boolean fits(Attrs attrs, int[] columns) {
        if (attrs.textSize() > 0) {
            return false;
        }
        for (int i = 0; i < attrs.size(); i++) {
            if (columns[attrs.attr(i).code()] < 0) {
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

    private static int maxVerbCode() {
        int max = 0;
        for (Verb v : Verb.values()) {
            max = Math.max(max, v.code());
        }
        return max;
    }
}
