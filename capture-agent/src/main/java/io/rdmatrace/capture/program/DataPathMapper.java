package io.rdmatrace.capture.program;

import io.rdmatrace.capture.record.CallMapper;
import io.rdmatrace.trace.Attr;
import io.rdmatrace.trace.Attrs;
import io.rdmatrace.trace.Verb;
import io.rdmatrace.trace.Wc;
import io.rdmatrace.verbs.Slots;
import java.util.List;
import java.util.function.Consumer;

/**
 * The data path's ring records as CALL and COMPLETION events: post_send / post_recv /
 * post_srq_recv with their whole WR chain, poll_cq with its completions.
 *
 * <p>Event model for chains (until the trace format carries every WR): the CALL has the first
 * WR's fields as the agent's recorder writes them (WR_ID, WR_OPCODE, SEND_FLAGS, NUM_SGE, first
 * SGE's ADDR/LENGTH/LKEY, REMOTE_ADDR/RKEY, REMOTE_QPN/QKEY) plus WR_COUNT and BAD_WR_INDEX, and
 * MESSAGE lists every WR of the chain with all its SGEs ({@link #chainText}). All of it is decoded
 * from the ring here, in one place, so switching to a per-WR event model changes only this class.
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
        java.util.ArrayList<Wr> out = new java.util.ArrayList<>();
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
        if (w != null && w.ah() != 0) {
            in.put(Attr.AH, w.ah());
        }
        if (w != null && w.sgeAddr().length > 0) {
            in.put(Attr.ADDR, w.sgeAddr()[0]);
            in.put(Attr.LENGTH, w.sgeLength()[0]);
            in.put(Attr.LKEY, w.sgeLkey()[0]);
        }
        boolean rdma = w != null && send && (w.remoteAddr() != 0 || w.rkey() != 0);
        if (rdma) {
            in.put(Attr.RKEY, w.rkey());
        }
        if (kind != RingLayout.Kind.IBV_POST_SRQ_RECV) {
            in.put(Attr.QP_NUM, r.p(RingLayout.Post.QP_NUM.ordinal()));
        }
        if (w != null) {
            in.put(Attr.WR_ID, w.wrId());
            if (send) {
                in.put(Attr.WR_OPCODE, w.opcode());
                in.put(Attr.SEND_FLAGS, Integer.toUnsignedLong(w.sendFlags()));
            }
            in.put(Attr.NUM_SGE, w.numSge());
            if (rdma) {
                in.put(Attr.REMOTE_ADDR, w.remoteAddr());
            }
            if (w.ah() != 0) {
                in.put(Attr.REMOTE_QPN, w.remoteQpn());
                in.put(Attr.REMOTE_QKEY, w.remoteQkey());
            }
        }
        in.put(Attr.WR_COUNT, r.p(RingLayout.Post.WR_COUNT.ordinal()));
        if (chain.size() > 1 || (w != null && w.sgeAddr().length > 1)) {
            in.put(Attr.MESSAGE, chainText(chain, send));
        }
        int bad = r.pInt(RingLayout.Post.BAD_INDEX.ordinal());
        Attrs out = bad >= 0 ? Attrs.builder().put(Attr.BAD_WR_INDEX, bad).build() : Attrs.EMPTY;
        Verb verb = switch (kind) {
            case IBV_POST_SEND -> Verb.IBV_POST_SEND;
            case IBV_POST_RECV -> Verb.IBV_POST_RECV;
            default -> Verb.IBV_POST_SRQ_RECV;
        };
        return new CallMapper.Mapped(verb, r.handle(), (int) r.ret(), r.errno(), r.durationNanos(), in.build(), out);
    }

    /** "wr[0] id=7 op=2 flags=0x2 sge=[0x7f..:4096:0x1234] | wr[1] ..." for every WR of the chain. */
    static String chainText(List<Wr> chain, boolean send) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < chain.size(); i++) {
            Wr w = chain.get(i);
            if (i > 0) {
                b.append(" | ");
            }
            b.append("wr[").append(i).append("] id=").append(Long.toUnsignedString(w.wrId()));
            if (send) {
                b.append(" op=").append(w.opcode()).append(" flags=0x").append(Integer.toHexString(w.sendFlags()));
                if (w.remoteAddr() != 0 || w.rkey() != 0) {
                    b.append(" raddr=0x").append(Long.toHexString(w.remoteAddr())).append(" rkey=0x")
                            .append(Long.toHexString(w.rkey()));
                }
                if (w.imm() != 0) {
                    b.append(" imm=0x").append(Long.toHexString(w.imm()));
                }
                if (w.compareAdd() != 0 || w.swap() != 0) {
                    b.append(" cmp_add=0x").append(Long.toHexString(w.compareAdd())).append(" swap=0x")
                            .append(Long.toHexString(w.swap()));
                }
                if (w.ah() != 0) {
                    b.append(" ah=0x").append(Long.toHexString(w.ah())).append(" rqpn=0x")
                            .append(Long.toHexString(w.remoteQpn())).append(" qkey=0x")
                            .append(Long.toHexString(w.remoteQkey()));
                }
            }
            b.append(" sge=[");
            for (int j = 0; j < w.sgeAddr().length; j++) {
                if (j > 0) {
                    b.append(',');
                }
                b.append("0x").append(Long.toHexString(w.sgeAddr()[j])).append(':').append(w.sgeLength()[j])
                        .append(":0x").append(Long.toHexString(w.sgeLkey()[j]));
            }
            b.append(']');
        }
        return b.toString();
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
