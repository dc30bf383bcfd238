package io.rdmatrace.capture.replay;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import io.rdmatrace.capture.replay.Divergence.Kind;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.AttrMeaning;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.names.ErrnoNames;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.names.VerbsNames;
import io.rdmatrace.trace.model.Wc;

/**
 * Compares a recorded call with its replay and reports what differs: the outcome (a call that
 * succeeded there and fails here, or the reverse, or another errno) and the returned values
 * that are the device's behaviour (granted caps, queried QP attributes, P_Keys, bad_wr). Values
 * that are expected to differ on another device or run are never compared: handles, keys,
 * addresses, timestamps, and QPNs/GIDs except through the replay's mapping of them.
 */
final class OutcomeCheck {
    /** Outputs compared per verb (query_qp: every output not in {@link #NOT_COMPARED}). */
    private static final List<Attr> CQ_OUT = List.of(Attr.CQE);
    private static final List<Attr> QP_OUT = List.of(Attr.MAX_SEND_WR, Attr.MAX_RECV_WR, Attr.MAX_SEND_SGE,
            Attr.MAX_RECV_SGE, Attr.MAX_INLINE_DATA);
    /** Expected to differ (QPNs, PSNs and GIDs differ too, but are compared through the mapping the exchange taught). */
    private static final Set<AttrMeaning> NOT_COMPARED = EnumSet.of(AttrMeaning.HANDLE, AttrMeaning.ADDRESS,
            AttrMeaning.KEY, AttrMeaning.TEXT, AttrMeaning.MEASUREMENT);
    private static final Set<Attr> STATE = Set.of(Attr.QP_STATE, Attr.CUR_QP_STATE);

    private final ReplayState s;
    private final DivergenceLog log;
    /** "your device" / "the recorded device" */
    private final String recordedSide;
    /** "the reference" / "this device" */
    private final String replaySide;

    OutcomeCheck(ReplayState state, DivergenceLog log, boolean onReference) {
        this.s = state;
        this.log = log;
        this.recordedSide = onReference ? "your device" : "the recorded device";
        this.replaySide = onReference ? "the reference" : "this device";
    }

    static boolean ok(Verb verb, int ret) {
        return verb == Verb.IBV_POLL_CQ ? ret >= 0 : ret == 0;
    }

    void call(CallEvent rec, Replayed.Done rep, String step) {
        boolean recOk = ok(rec.verb(), rec.ret());
        boolean repOk = ok(rec.verb(), rep.ret());
        String what = describe(rec);
        String verb = rec.verb().function();
        if (recOk && !repOk) {
            log.report(rec.handle(), rec.seq(), step, verb, Kind.NOW_FAILS, "", "ok", outcome(rep),
                    rec.verb() == Verb.IBV_MODIFY_QP
                            ? recordedSide + " accepted " + what + "; " + replaySide + " refuses it (" + outcome(rep) + ")"
                            : what + " succeeded on " + recordedSide + "; " + replaySide + " fails it with " + outcome(rep),
                    true);
        } else if (!recOk && repOk) {
            log.report(rec.handle(), rec.seq(), step, verb, Kind.NOW_SUCCEEDS, "", outcome(rec), "ok",
                    rec.verb() == Verb.IBV_MODIFY_QP
                            ? recordedSide + " refused " + what + " (" + outcome(rec) + "); " + replaySide + " accepts it"
                            : what + " failed on " + recordedSide + " (" + outcome(rec) + "); " + replaySide + " succeeds",
                    true);
        } else if (!recOk && (rec.errno() != rep.errno() || rec.ret() != rep.ret())) {
            log.report(rec.handle(), rec.seq(), step, verb, Kind.ERRNO, "errno", outcome(rec), outcome(rep),
                    what + " fails with " + outcome(rec) + " on " + recordedSide + " but " + outcome(rep) + " on "
                            + replaySide, true);
        } else if (recOk) {
            values(rec, rep.out(), step);
        }
    }

    /** Compares each completion a recorded poll returned with the replayed one matched to it. */
    void completions(List<DataCalls.Match> matches, String step) {
        for (DataCalls.Match m : matches) {
            io.rdmatrace.trace.model.CompletionEvent rec = m.recorded();
            Wc r = rec.wc();
            long qp = s.recordedQpHandle.getOrDefault((long) r.qpNum(), 0L);
            Wc w = m.replayed();
            if (w == null) {
                log.report(qp, rec.seq(), step, "completion", Kind.COMPLETION, "wc_status", r.statusName(), "none",
                        String.format("no completion within %d ms where %s had %s %s (wr_id %d) on QP 0x%06x",
                                s.completionWait.toMillis(), recordedSide, r.opcodeName(), r.statusName(), r.wrId(),
                                r.qpNum()), true);
                continue;
            }
            wcField(qp, rec.seq(), step, "wc_status", r.status(), w.status(), VerbsNames.WC_STATUS::render, true);
            wcField(qp, rec.seq(), step, "wc_opcode", r.opcode(), w.opcode(), VerbsNames.WC_OPCODE::render, false);
            wcField(qp, rec.seq(), step, "vendor_err", r.vendorErr(), w.vendorErr(), v -> String.format("0x%x", v), false);
            wcField(qp, rec.seq(), step, "byte_len", r.byteLen(), w.byteLen(), Long::toString, false);
        }
    }

    /** Completions the replay produced and the recording never had. */
    void extraCompletions(List<Wc> extra, long atSeq) {
        for (Wc w : extra) {
            log.report(0, atSeq, "", "completion", Kind.COMPLETION, "wc_status", "none", w.statusName(),
                    String.format("an extra completion %s %s (wr_id %d) on QP 0x%06x on %s", w.opcodeName(),
                            w.statusName(), w.wrId(), w.qpNum(), replaySide), false);
        }
    }

    private void wcField(long qp, long seq, String step, String field, long recorded, long replayed,
                         java.util.function.LongFunction<String> render, boolean marks) {
        if (recorded != replayed) {
            log.report(qp, seq, step, "completion", Kind.COMPLETION, field, render.apply(recorded), render.apply(replayed),
                    "completion " + field + " was " + render.apply(recorded) + " on " + recordedSide + ", "
                            + render.apply(replayed) + " on " + replaySide, marks);
        }
    }

    private void values(CallEvent rec, Attrs got, String step) {
        List<Attr> compared;
        switch (rec.verb()) {
            case IBV_CREATE_CQ -> compared = CQ_OUT;
            case IBV_CREATE_QP -> compared = QP_OUT;
            case IBV_QUERY_PKEY -> compared = List.of(Attr.PKEY);
            case IBV_QUERY_GID_EX -> compared = List.of(Attr.GID_TYPE);
            case IBV_POST_SEND, IBV_POST_RECV -> compared = List.of(Attr.BAD_WR_INDEX);
            case IBV_QUERY_QP -> compared = queried(rec.out());
            default -> compared = List.of();
        }
        Attrs want = rec.out();
        for (Attr a : compared) {
            if (a.isText()) {
                text(rec, a, got, step);
                continue;
            }
            if (!want.has(a) && !got.has(a)) {
                continue;
            }
            if (!want.has(a) || !got.has(a)) {
                if (a == Attr.BAD_WR_INDEX) {
                    report(rec, a, want.has(a) ? a.render(want.get(a, 0)) : "none",
                            got.has(a) ? a.render(got.get(a, 0)) : "none", step, false);
                }
                continue; // the other side did not report this field at all
            }
            long expected = want.get(a, 0);
            if (a == Attr.DEST_QP_NUM) {
                if (!s.values.knowsPeerQpn(expected)) {
                    continue;
                }
                expected = s.values.peerQpn(expected);
            } else if (a == Attr.QP_NUM) {
                if (!s.values.knowsLocalQpn(expected)) {
                    continue;
                }
                expected = s.values.localQpn(expected);
            }
            long actual = got.get(a, 0);
            if (expected != actual) {
                report(rec, a, a.render(want.get(a, 0)), a.render(actual), step, STATE.contains(a));
            }
        }
    }

    private void text(CallEvent rec, Attr a, Attrs got, String step) {
        String want = rec.out().text(a);
        String actual = got.text(a);
        if (want == null || actual == null || a != Attr.DGID || !s.values.knowsPeerGid(want)) {
            return; // GIDs are compared only through the mapping learnt from the exchange
        }
        if (!s.values.peerGid(want).equals(actual)) {
            report(rec, a, want, actual, step, false);
        }
    }

    private void report(CallEvent rec, Attr a, String recorded, String replayed, String step, boolean marks) {
        log.report(rec.handle(), rec.seq(), step, rec.verb().function(), Kind.VALUE, a.column(), recorded, replayed,
                a.column() + " is " + recorded + " on " + recordedSide + ", " + replayed + " on " + replaySide, marks);
    }

    private static List<Attr> queried(Attrs out) {
        java.util.ArrayList<Attr> list = new java.util.ArrayList<>();
        for (int i = 0; i < out.size(); i++) {
            if (!NOT_COMPARED.contains(out.attr(i).meaning())) {
                list.add(out.attr(i));
            }
        }
        for (int i = 0; i < out.textSize(); i++) {
            if (!NOT_COMPARED.contains(out.textAttr(i).meaning())) {
                list.add(out.textAttr(i));
            }
        }
        return list;
    }

    /** "ibv_modify_qp RESET→RTS", "ibv_create_qp" … for messages. */
    private String describe(CallEvent c) {
        if (c.verb() == Verb.IBV_MODIFY_QP && c.in().has(Attr.QP_STATE)) {
            Long from = s.recordedQpState.get(c.handle());
            return (from == null ? "?" : state(from)) + "→" + state(c.in().get(Attr.QP_STATE, 0));
        }
        return c.verb().function();
    }

    private static String state(long v) {
        String name = VerbsNames.QP_STATE.render(v);
        return name.startsWith("IBV_QPS_") ? name.substring(8) : name;
    }

    private static String outcome(CallEvent c) {
        return outcome(c.verb(), c.ret(), c.errno());
    }

    private static String outcome(Replayed.Done d) {
        return d.errno() != 0 ? ErrnoNames.name(d.errno()) : "ret " + d.ret();
    }

    private static String outcome(Verb verb, int ret, int errno) {
        return errno != 0 ? ErrnoNames.name(errno) : "ret " + ret;
    }
}
