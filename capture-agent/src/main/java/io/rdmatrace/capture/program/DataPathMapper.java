package io.rdmatrace.capture.program;

import io.rdmatrace.capture.record.CallMapper;
import io.rdmatrace.capture.record.WrChains;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.model.Wc;
import io.rdmatrace.trace.model.WorkRequest;
import io.rdmatrace.tracer.RingLayout;
import io.rdmatrace.tracer.RingRecord;
import io.rdmatrace.verbs.Slots;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The data path's ring records as CALL and COMPLETION events: post_send / post_recv /
 * post_srq_recv with their whole WR chain, poll_cq with its completions.
 *
 * <p>As the agent's recorder writes them (FORMAT.md, "Work-request chains"): {@code in} has the
 * first request and its first SGE, QP_NUM and WR_COUNT; the CALL carries the whole chain when
 * {@code in} cannot describe it alone. Request fields are spelled by {@link WrChains}, shared with
 * the agent's recorder.
 */
final class DataPathMapper {
    private static final int SWR = Slots.SendWr.values().length;
    private static final int RWR = Slots.RecvWr.values().length;
    private static final int SGE = Slots.Sge.values().length;
    private static final int WC = Slots.Wc.values().length;
    private static final int POST = RingLayout.Post.values().length;
    private static final int POLL = RingLayout.Poll.values().length;

    /** One WR as decoded from the ring. */
    record Wr(long wrId, int opcode, int sendFlags, long imm, long remoteAddr, long rkey, long compareAdd, long swap,
              long ah, long remoteQpn, long remoteQkey, int numSge, long[] sgeAddr, long[] sgeLength, long[] sgeLkey) {
    }

    static List<Wr> wrs(List<RingRecord> records, boolean send) {
        ArrayList<Wr> out = new ArrayList<>();
        for (RingRecord r : records) {
            int here = r.pInt(RingLayout.Post.HERE.ordinal());
            int at = POST;
            for (int i = 0; i < here; i++) {
                Wr w;
                if (send) {
                    int numSge = r.pInt(at + Slots.SendWr.NUM_SGE.ordinal());
                    int sges = Math.max(0, Math.min(numSge, 1024));
                    w = new Wr(r.p(at + Slots.SendWr.WR_ID.ordinal()), r.pInt(at + Slots.SendWr.OPCODE.ordinal()),
                            r.pInt(at + Slots.SendWr.SEND_FLAGS.ordinal()), r.p(at + Slots.SendWr.IMM_DATA.ordinal()),
                            r.p(at + Slots.SendWr.REMOTE_ADDR.ordinal()), r.p(at + Slots.SendWr.RKEY.ordinal()),
                            r.p(at + Slots.SendWr.COMPARE_ADD.ordinal()), r.p(at + Slots.SendWr.SWAP.ordinal()),
                            r.p(at + Slots.SendWr.AH.ordinal()), r.p(at + Slots.SendWr.REMOTE_QPN.ordinal()),
                            r.p(at + Slots.SendWr.REMOTE_QKEY.ordinal()), numSge, new long[sges], new long[sges],
                            new long[sges]);
                    at += SWR;
                } else {
                    int numSge = r.pInt(at + Slots.RecvWr.NUM_SGE.ordinal());
                    int sges = Math.max(0, Math.min(numSge, 1024));
                    w = new Wr(r.p(at + Slots.RecvWr.WR_ID.ordinal()), -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, numSge,
                            new long[sges], new long[sges], new long[sges]);
                    at += RWR;
                }
                for (int j = 0; j < w.sgeAddr().length; j++, at += SGE) {
                    w.sgeAddr()[j] = r.p(at + Slots.Sge.ADDR.ordinal());
                    w.sgeLength()[j] = r.p(at + Slots.Sge.LENGTH.ordinal());
                    w.sgeLkey()[j] = r.p(at + Slots.Sge.LKEY.ordinal());
                }
                out.add(w);
            }
        }
        return out;
    }

    static CallMapper.Mapped post(RingLayout.Kind kind, List<RingRecord> records) {
        RingRecord r = records.get(0);
        boolean send = kind == RingLayout.Kind.IBV_POST_SEND;
        List<Wr> chain = wrs(records, send);
        Attrs.Builder in = Attrs.builder();
        Wr w = chain.isEmpty() ? null : chain.get(0);
        int sges = w == null ? 0 : w.sgeAddr().length;
        if (sges > 0) {
            in.put(Attr.ADDR, w.sgeAddr()[0]);
            in.put(Attr.LENGTH, w.sgeLength()[0]);
            in.put(Attr.LKEY, w.sgeLkey()[0]);
        }
        if (kind != RingLayout.Kind.IBV_POST_SRQ_RECV) {
            in.put(Attr.QP_NUM, r.p(RingLayout.Post.QP_NUM.ordinal()));
        }
        if (w != null) {
            fields(in, w, send);
            in.put(Attr.NUM_SGE, w.numSge());
        }
        long count = r.p(RingLayout.Post.WR_COUNT.ordinal());
        in.put(Attr.WR_COUNT, count);
        List<WorkRequest> wrs = List.of();
        if (WrChains.needsChain((int) Math.min(Integer.MAX_VALUE, count), sges)) {
            List<WorkRequest> all = new ArrayList<>(chain.size());
            Attrs.Builder f = Attrs.builder();
            for (Wr x : chain) {
                fields(f.clear(), x, send);
                List<WorkRequest.Sge> list = new ArrayList<>(x.sgeAddr().length);
                for (int j = 0; j < x.sgeAddr().length; j++) {
                    list.add(new WorkRequest.Sge(x.sgeAddr()[j], x.sgeLength()[j], x.sgeLkey()[j]));
                }
                all.add(new WorkRequest(f.build(), list));
            }
            wrs = all;
        }
        int bad = r.pInt(RingLayout.Post.BAD_INDEX.ordinal());
        Attrs out = bad >= 0 ? Attrs.builder().put(Attr.BAD_WR_INDEX, bad).build() : Attrs.EMPTY;
        Verb verb = switch (kind) {
            case IBV_POST_SEND -> Verb.IBV_POST_SEND;
            case IBV_POST_RECV -> Verb.IBV_POST_RECV;
            default -> Verb.IBV_POST_SRQ_RECV;
        };
        return new CallMapper.Mapped(verb, r.handle(), (int) r.ret(), r.errno(), r.durationNanos(), in.build(), out,
                wrs);
    }

    /** A request's fields, spelled as the agent's recorder spells them ({@link WrChains}). */
    private static void fields(Attrs.Builder b, Wr w, boolean send) {
        if (send) {
            WrChains.sendFields(b, w.wrId(), w.opcode(), w.sendFlags(), w.remoteAddr(), (int) w.rkey(), (int) w.imm(),
                    w.compareAdd(), w.swap(), w.ah(), (int) w.remoteQpn(), (int) w.remoteQkey());
        } else {
            b.put(Attr.WR_ID, w.wrId());
        }
    }

    /** The poll's CALL, then one COMPLETION per work completion (stamped at the poll's end). */
    static void poll(List<RingRecord> records, long tid, Consumer<ProgramEvent> out) {
        RingRecord r = records.get(0);
        long empties = r.p(RingLayout.Poll.EMPTY_POLLS.ordinal());
        Attrs in = Attrs.builder().put(Attr.NUM_ENTRIES, r.p(RingLayout.Poll.NUM_ENTRIES.ordinal())).build();
        Attrs.Builder o = Attrs.builder().put(Attr.POLLED, r.ret() > 0 ? r.ret() : 0);
        if (empties > 0) {
            o.put(Attr.DURATION, r.p(RingLayout.Poll.SPAN_NS.ordinal()));
            o.put(Attr.MESSAGE, empties + " empty polls");
        }
        out.accept(new ProgramEvent.Call(r.monoNanos(), tid, new CallMapper.Mapped(Verb.IBV_POLL_CQ, r.handle(),
                (int) r.ret(), r.errno(), r.durationNanos(), in, o.build())));
        long end = r.monoNanos() + r.durationNanos();
        for (RingRecord part : records) {
            int here = part.pInt(RingLayout.Poll.POLLED.ordinal());
            for (int i = 0; i < here; i++) {
                int at = POLL + i * WC;
                Wc wc = new Wc(part.p(at + Slots.Wc.WR_ID.ordinal()), part.pInt(at + Slots.Wc.STATUS.ordinal()),
                        part.pInt(at + Slots.Wc.OPCODE.ordinal()), part.p(at + Slots.Wc.VENDOR_ERR.ordinal()),
                        part.p(at + Slots.Wc.BYTE_LEN.ordinal()), part.p(at + Slots.Wc.IMM_DATA.ordinal()),
                        part.pInt(at + Slots.Wc.QP_NUM.ordinal()), part.pInt(at + Slots.Wc.SRC_QP.ordinal()),
                        part.pInt(at + Slots.Wc.WC_FLAGS.ordinal()), part.pInt(at + Slots.Wc.PKEY_INDEX.ordinal()),
                        part.pInt(at + Slots.Wc.SLID.ordinal()), part.pInt(at + Slots.Wc.SL.ordinal()),
                        part.pInt(at + Slots.Wc.DLID_PATH_BITS.ordinal()));
                out.accept(new ProgramEvent.Completion(end, tid, r.handle(), wc));
            }
        }
    }
}
