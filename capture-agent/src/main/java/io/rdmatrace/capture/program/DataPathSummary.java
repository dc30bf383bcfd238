package io.rdmatrace.capture.program;

import io.rdmatrace.capture.record.CallMapper;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.tracer.RingLayout;
import io.rdmatrace.tracer.RingRecord;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code --data-path summary}: instead of every post and poll, one CALL per QP (or SRQ) and verb and
 * one per CQ at the end — calls, WRs, bytes, completions by status, and a log2 histogram of the
 * C-measured call latency — while every failed post, failed poll and error completion is still
 * written as it happened (those are what the rules need).
 */
final class DataPathSummary {
    /** Latency buckets: [0,64) ns, [64,128), ... doubling, the last open-ended. */
    private static final int BUCKETS = 20;

    private static final class Tally {
        final Verb verb;
        final long handle;
        long qpNum = -1;
        long calls;
        long items;
        long bytes;
        long firstMono = -1;
        long lastMono;
        final long[] latency = new long[BUCKETS];
        final Map<Integer, Long> statuses = new LinkedHashMap<>();

        Tally(Verb verb, long handle) {
            this.verb = verb;
            this.handle = handle;
        }
    }

    private final Map<String, Tally> tallies = new LinkedHashMap<>();

    /** Counts a post; false when it failed and must be written as it is. */
    boolean post(RingLayout.Kind kind, List<RingRecord> records) {
        RingRecord r = records.get(0);
        if (r.ret() != 0) {
            return false;
        }
        Verb verb = kind == RingLayout.Kind.IBV_POST_SEND ? Verb.IBV_POST_SEND
                : kind == RingLayout.Kind.IBV_POST_RECV ? Verb.IBV_POST_RECV : Verb.IBV_POST_SRQ_RECV;
        Tally t = tally(verb, r);
        t.qpNum = kind == RingLayout.Kind.IBV_POST_SRQ_RECV ? -1 : r.p(RingLayout.Post.QP_NUM.ordinal());
        for (DataPathMapper.Wr w : DataPathMapper.wrs(records, kind == RingLayout.Kind.IBV_POST_SEND)) {
            t.items++;
            for (long len : w.sgeLength()) {
                t.bytes += len;
            }
        }
        return true;
    }

    /**
     * Counts a poll; the error completions (and a failed poll) go to {@code out} as events. Every
     * success is tallied by status, bytes from byte_len.
     */
    void poll(List<RingRecord> records, long tid, Consumer<ProgramEvent> out) {
        RingRecord r = records.get(0);
        if (r.ret() < 0) {
            DataPathMapper.poll(records, tid, out);
            return;
        }
        Tally t = tally(Verb.IBV_POLL_CQ, r);
        t.calls += r.p(RingLayout.Poll.EMPTY_POLLS.ordinal()) > 0 ? r.p(RingLayout.Poll.EMPTY_POLLS.ordinal()) - 1 : 0;
        DataPathMapper.poll(records, tid, e -> {
            if (e instanceof ProgramEvent.Completion c) {
                t.items++;
                t.bytes += c.wc().byteLen();
                t.statuses.merge(c.wc().status(), 1L, Long::sum);
                if (c.wc().status() != 0) {
                    out.accept(e);
                }
            }
        });
    }

    private Tally tally(Verb verb, RingRecord r) {
        Tally t = tallies.computeIfAbsent(verb + "@" + r.handle(), k -> new Tally(verb, r.handle()));
        t.calls++;
        if (t.firstMono < 0) {
            t.firstMono = r.monoNanos();
        }
        t.lastMono = r.monoNanos();
        long d = Math.max(0, r.durationNanos());
        int bucket = d < 64 ? 0 : Math.min(BUCKETS - 1, 63 - Long.numberOfLeadingZeros(d) - 5);
        t.latency[bucket]++;
        return t;
    }

    /** One CALL per tallied QP/CQ and verb, stamped at its last call. */
    void flush(Consumer<ProgramEvent> out) {
        for (Tally t : tallies.values()) {
            Attrs.Builder in = Attrs.builder();
            if (t.qpNum >= 0) {
                in.put(Attr.QP_NUM, t.qpNum);
            }
            in.put(Attr.LENGTH, t.bytes);
            in.put(t.verb == Verb.IBV_POLL_CQ ? Attr.NUM_ENTRIES : Attr.WR_COUNT, t.items);
            StringBuilder text = new StringBuilder("summary: ").append(t.calls).append(" calls, ").append(t.items)
                    .append(t.verb == Verb.IBV_POLL_CQ ? " completions" : " WRs").append(", ").append(t.bytes)
                    .append(" bytes");
            if (!t.statuses.isEmpty()) {
                text.append(", by status ").append(t.statuses);
            }
            text.append(", latency ns log2 histogram [<64");
            for (int i = 0; i < BUCKETS; i++) {
                if (t.latency[i] > 0) {
                    text.append(' ').append(i == 0 ? "0" : Long.toString(64L << (i - 1))).append(':')
                            .append(t.latency[i]);
                }
            }
            text.append(']');
            Attrs o = Attrs.builder().put(Attr.DURATION, t.lastMono - t.firstMono).put(Attr.MESSAGE, text.toString())
                    .build();
            out.accept(new ProgramEvent.Call(t.lastMono, 0, new CallMapper.Mapped(t.verb, t.handle, 0, 0, 0,
                    in.build(), o)));
        }
        tallies.clear();
    }
}
