package io.rdmatrace.capture.record;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.AttrRow;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.names.GidText;
import io.rdmatrace.trace.store.TraceWriter;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.model.WorkRequest;
import io.rdmatrace.verbs.CallStatus;
import io.rdmatrace.verbs.CompletionBatch;
import io.rdmatrace.verbs.QpAnswer;
import io.rdmatrace.verbs.QpAttrMask;
import io.rdmatrace.verbs.QpInitAttr;
import io.rdmatrace.verbs.QpQueryBuffer;
import io.rdmatrace.verbs.QueuePair;
import io.rdmatrace.verbs.RecvBatch;
import io.rdmatrace.verbs.SendBatch;
import io.rdmatrace.verbs.VerbCall;
import java.util.Comparator;
import java.util.List;

/**
 * One verbs call as the fields of its CALL event (reusing two attribute builders: not thread-safe,
 * the recorder serialises calls): {@code in} = the arguments actually passed (for
 * ibv_modify_qp the attr_mask and exactly the fields it selects), {@code out} = what came back.
 * Calls that act on a QP also carry its QP_NUM in {@code in}, so rules can key on the QPN directly.
 * Shared by the agent's recorder and the recorder of unmodified programs (capture.program).
 */
public final class CallMapper {

    /**
     * The fields of one CALL event.
     *
     * @param wrs a post's whole chain when {@code in} cannot describe it alone, else empty
     */
    public record Mapped(Verb verb, long handle, int ret, int errno, long durationNanos, Attrs in, Attrs out,
                         List<WorkRequest> wrs) {
        public Mapped(Verb verb, long handle, int ret, int errno, long durationNanos, Attrs in, Attrs out) {
            this(verb, handle, ret, errno, durationNanos, in, out, List.of());
        }
    }

    private final Attrs.Builder inBuilder = Attrs.builder();
    private final Attrs.Builder outBuilder = Attrs.builder();
    /** ibv_query_qp's inputs (QP_NUM, ATTR_MASK) and outputs: rows, the largest event's fast path. */
    private final AttrRow queryIn = new AttrRow(
            List.of(Attr.QP_NUM, Attr.ATTR_MASK).stream().sorted(Comparator.comparingInt(Attr::code)).toList(), List.of());
    private final int queryQpNumAt = queryIn.indexOf(Attr.QP_NUM);
    private final int queryMaskAt = queryIn.indexOf(Attr.ATTR_MASK);
    private final QueryOutputs queryOut = new QueryOutputs();
    private final GidCache gids = new GidCache();
    /** The fields of the attr_masks seen last (a bring-up cycles through INIT, RTR and RTS), replaced in turn. */
    private final ModifyFields[] recentMasks = new ModifyFields[8];
    private int nextMaskSlot;
    // the call last filled (its in/out are the two builders): written from here with no Mapped or Attrs
    private Verb verb;
    private long handle;
    private int ret;
    private int errno;
    private long durationNanos;
    private List<WorkRequest> wrs = List.of();
    /** The rows the call last filled holds its in/out in (modify_qp, query_qp), or null: then the builders. */
    private AttrRow inRow;
    private AttrRow outRow;

    public Mapped map(VerbCall call) {
        fill(call);
        return mapped();
    }

    /** The call last filled as a value (built attribute sets: it outlives the next fill). */
    Mapped mapped() {
        Attrs in = inRow != null ? inRow.toAttrs() : inBuilder.build();
        Attrs out = outRow != null ? outRow.toAttrs() : outBuilder.build();
        return new Mapped(verb, handle, ret, errno, durationNanos, in, out, wrs);
    }

    /** Writes the call last filled straight from its rows or builders (the same bytes {@link #mapped()} would give). */
    long writeTo(TraceWriter w) {
        if (inRow != null) {
            return w.call(verb, handle, ret, errno, durationNanos, inRow, outRow);
        }
        return w.call(verb, handle, ret, errno, durationNanos, inBuilder, outBuilder, wrs);
    }

    private void filled(Verb verb, long handle, long ret, int errno, long durationNanos, List<WorkRequest> wrs) {
        this.verb = verb;
        this.handle = handle;
        this.ret = (int) ret;
        this.errno = errno;
        this.durationNanos = durationNanos;
        this.wrs = wrs;
    }

    /** Maps {@code call} into the builders and fields (see {@link #map}). */
    void fill(VerbCall call) {
        // the bring-up's most frequent calls first, written from rows
        if (call instanceof VerbCall.QueryQp c) {
            CallStatus st = c.status();
            fillQuery(c.qpHandle(), c.qpNum(), c.mask(), c.result(), st.ret(), st.errno(), st.durationNanos());
            return;
        }
        if (call instanceof VerbCall.ModifyQp c) {
            filledRows(modifyFields(c.mask().bits()).fill(c.qpNum(), c.attr(), gids), AttrRow.EMPTY);
            filled(Verb.IBV_MODIFY_QP, c.qpHandle(), c.status());
            return;
        }
        Attrs.Builder in = clearBuilders();
        Attrs.Builder out = outBuilder;
        Verb verb;
        long handle;
        if (call instanceof VerbCall.GetDeviceList c) {
            verb = Verb.IBV_GET_DEVICE_LIST;
            handle = 0;
            out.put(Attr.NUM_DEVICES, c.numDevices());
            out.put(Attr.MESSAGE, c.library());
        } else if (call instanceof VerbCall.OpenDevice c) {
            verb = Verb.IBV_OPEN_DEVICE;
            handle = c.contextHandle();
            in.put(Attr.DEV_NAME, c.deviceName());
        } else if (call instanceof VerbCall.CloseDevice c) {
            verb = Verb.IBV_CLOSE_DEVICE;
            handle = c.contextHandle();
        } else if (call instanceof VerbCall.QueryDevice c) {
            verb = Verb.IBV_QUERY_DEVICE;
            handle = c.contextHandle();
            if (c.attr() != null) {
                VerbAttrs.device(out, null, c.attr());
            }
        } else if (call instanceof VerbCall.QueryPort c) {
            verb = Verb.IBV_QUERY_PORT;
            handle = c.contextHandle();
            in.put(Attr.PORT_NUM, c.portNum());
            if (c.attr() != null) {
                VerbAttrs.port(out, c.portNum(), c.attr());
            }
        } else if (call instanceof VerbCall.QueryGid c) {
            verb = Verb.IBV_QUERY_GID;
            handle = c.contextHandle();
            in.put(Attr.PORT_NUM, c.portNum()).put(Attr.GID_INDEX, c.index());
            if (c.gid() != null) {
                out.put(Attr.GID, GidText.format(c.gid().raw()));
            }
        } else if (call instanceof VerbCall.QueryGidEx c) {
            verb = Verb.IBV_QUERY_GID_EX;
            handle = c.contextHandle();
            in.put(Attr.PORT_NUM, c.portNum()).put(Attr.GID_INDEX, c.index());
            if (c.entry() != null) {
                out.put(Attr.GID, GidText.format(c.entry().gid().raw()));
                out.put(Attr.GID_TYPE, c.entry().gidType().value());
            }
        } else if (call instanceof VerbCall.QueryPkey c) {
            verb = Verb.IBV_QUERY_PKEY;
            handle = c.contextHandle();
            in.put(Attr.PORT_NUM, c.portNum()).put(Attr.PKEY_INDEX, c.index());
            if (c.status().ok()) {
                out.put(Attr.PKEY, c.pkey());
            }
        } else if (call instanceof VerbCall.AllocPd c) {
            verb = Verb.IBV_ALLOC_PD;
            handle = c.pdHandle();
            in.put(Attr.CONTEXT, c.contextHandle());
        } else if (call instanceof VerbCall.DeallocPd c) {
            verb = Verb.IBV_DEALLOC_PD;
            handle = c.pdHandle();
        } else if (call instanceof VerbCall.RegMr c) {
            verb = Verb.IBV_REG_MR;
            handle = c.mrHandle();
            in.put(Attr.PD, c.pdHandle()).put(Attr.ADDR, c.address()).put(Attr.LENGTH, c.length())
                    .put(Attr.ACCESS, Integer.toUnsignedLong(c.access()));
            if (c.mrHandle() != 0) {
                out.put(Attr.LKEY, Integer.toUnsignedLong(c.lkey())).put(Attr.RKEY, Integer.toUnsignedLong(c.rkey()));
            }
        } else if (call instanceof VerbCall.DeregMr c) {
            verb = Verb.IBV_DEREG_MR;
            handle = c.mrHandle();
        } else if (call instanceof VerbCall.CreateCompChannel c) {
            verb = Verb.IBV_CREATE_COMP_CHANNEL;
            handle = c.channelHandle();
            in.put(Attr.CONTEXT, c.contextHandle());
        } else if (call instanceof VerbCall.DestroyCompChannel c) {
            verb = Verb.IBV_DESTROY_COMP_CHANNEL;
            handle = c.channelHandle();
        } else if (call instanceof VerbCall.CreateCq c) {
            verb = Verb.IBV_CREATE_CQ;
            handle = c.cqHandle();
            in.put(Attr.CONTEXT, c.contextHandle()).put(Attr.CHANNEL, c.channelHandle())
                    .put(Attr.CQE, Integer.toUnsignedLong(c.cqe())).put(Attr.COMP_VECTOR, c.compVector());
            if (c.cqHandle() != 0) {
                out.put(Attr.CQE, Integer.toUnsignedLong(c.actualCqe()));
            }
        } else if (call instanceof VerbCall.DestroyCq c) {
            verb = Verb.IBV_DESTROY_CQ;
            handle = c.cqHandle();
        } else if (call instanceof VerbCall.ReqNotifyCq c) {
            verb = Verb.IBV_REQ_NOTIFY_CQ;
            handle = c.cqHandle();
            in.put(Attr.SOLICITED_ONLY, c.solicitedOnly());
        } else if (call instanceof VerbCall.GetCqEvent c) {
            verb = Verb.IBV_GET_CQ_EVENT;
            handle = c.channelHandle();
            out.put(Attr.CQ, c.cqHandle());
        } else if (call instanceof VerbCall.AckCqEvents c) {
            verb = Verb.IBV_ACK_CQ_EVENTS;
            handle = c.cqHandle();
            in.put(Attr.NUM_EVENTS, c.count());
        } else if (call instanceof VerbCall.CreateQp c) {
            verb = Verb.IBV_CREATE_QP;
            handle = c.qpHandle();
            QpInitAttr init = c.init();
            in.put(Attr.PD, c.pdHandle());
            in.put(Attr.SEND_CQ, init.sendCq() != null ? init.sendCq().handle() : 0);
            in.put(Attr.RECV_CQ, init.recvCq() != null ? init.recvCq().handle() : 0);
            in.put(Attr.QP_TYPE, init.qpType().value());
            in.put(Attr.SQ_SIG_ALL, init.sqSigAll());
            VerbAttrs.cap(in, init.cap());
            if (c.qpHandle() != 0) {
                if (c.granted() != null) {
                    VerbAttrs.cap(out, c.granted());
                }
                out.put(Attr.QP_NUM, Integer.toUnsignedLong(c.qpNum()));
            }
        } else if (call instanceof VerbCall.DestroyQp c) {
            verb = Verb.IBV_DESTROY_QP;
            handle = c.qpHandle();
            in.put(Attr.QP_NUM, Integer.toUnsignedLong(c.qpNum()));
        } else if (call instanceof VerbCall.CreateAh c) {
            verb = Verb.IBV_CREATE_AH;
            handle = c.ahHandle();
            in.put(Attr.PD, c.pdHandle());
            VerbAttrs.ah(in, c.attr(), gids);
        } else if (call instanceof VerbCall.DestroyAh c) {
            verb = Verb.IBV_DESTROY_AH;
            handle = c.ahHandle();
        } else {
            throw new IllegalArgumentException("no trace mapping for " + call.verb());
        }
        CallStatus s = call.status();
        filled(verb, handle, s.ret(), s.errno(), s.durationNanos(), List.of());
    }

    private void filled(Verb verb, long handle, CallStatus s) {
        filled(verb, handle, s.ret(), s.errno(), s.durationNanos(), List.of());
    }

    /** The call's in/out are these rows (until the next fill). */
    private void filledRows(AttrRow in, AttrRow out) {
        inRow = in;
        outRow = out;
    }

    /** Clears both builders for a call mapped into them; returns {@code in}. */
    private Attrs.Builder clearBuilders() {
        inRow = null;
        outRow = null;
        outBuilder.clear();
        return inBuilder.clear();
    }

    /** ibv_query_qp answered into a reused buffer: the same event as its {@link VerbCall.QueryQp}, read in place. */
    void fillQuery(QueuePair qp, QpQueryBuffer b) {
        fillQuery(qp.handle(), qp.qpNum(), b.mask(), b.ok() ? b : null, b.ret(), b.errno(), b.durationNanos());
    }

    /** ibv_query_qp's values taken out of the buffer; {@code answer} null when the query failed. */
    void fillQuery(long handle, int qpNum, QpAttrMask mask, QpAnswer answer, long ret, int errno,
                           long durationNanos) {
        queryIn.set(queryQpNumAt, Integer.toUnsignedLong(qpNum));
        queryIn.set(queryMaskAt, Integer.toUnsignedLong(mask.bits()));
        filledRows(queryIn, answer != null ? queryOut.fill(answer, gids) : AttrRow.EMPTY);
        filled(Verb.IBV_QUERY_QP, handle, ret, errno, durationNanos, List.of());
    }

    private ModifyFields modifyFields(int mask) {
        for (ModifyFields m : recentMasks) {
            if (m != null && m.mask() == mask) {
                return m;
            }
        }
        ModifyFields m = ModifyFields.of(mask);
        recentMasks[nextMaskSlot] = m;
        nextMaskSlot = (nextMaskSlot + 1) % recentMasks.length;
        return m;
    }

    /**
     * ibv_post_send: the first request's fields and first SGE, the request count, bad_wr's index on
     * failure, and the whole chain when the post has more than that (see {@link WrChains}).
     */
    void fillPostSend(QueuePair qp, SendBatch b) {
        Attrs.Builder in = clearBuilders();
        int count = b.count();
        int sges = count > 0 ? b.numSge(0) : 0;
        if (sges > 0) {
            in.put(Attr.ADDR, b.sgeAddr(0, 0));
            in.put(Attr.LENGTH, Integer.toUnsignedLong(b.sgeLength(0, 0)));
            in.put(Attr.LKEY, Integer.toUnsignedLong(b.sgeLkey(0, 0)));
        }
        in.put(Attr.QP_NUM, Integer.toUnsignedLong(qp.qpNum()));
        if (count > 0) {
            WrChains.sendFields(in, b, 0);
            in.put(Attr.NUM_SGE, sges);
        }
        in.put(Attr.WR_COUNT, count);
        badWr(b.badIndex());
        List<WorkRequest> chain = WrChains.needsChain(count, sges) ? WrChains.send(b) : List.of();
        filled(Verb.IBV_POST_SEND, qp.handle(), b.ret(), b.errno(), b.durationNanos(), chain);
    }

    void fillPostRecv(QueuePair qp, RecvBatch b) {
        Attrs.Builder in = clearBuilders();
        int count = b.count();
        int sges = count > 0 ? b.numSge(0) : 0;
        if (sges > 0) {
            in.put(Attr.ADDR, b.sgeAddr(0, 0));
            in.put(Attr.LENGTH, Integer.toUnsignedLong(b.sgeLength(0, 0)));
            in.put(Attr.LKEY, Integer.toUnsignedLong(b.sgeLkey(0, 0)));
        }
        in.put(Attr.QP_NUM, Integer.toUnsignedLong(qp.qpNum()));
        if (count > 0) {
            in.put(Attr.WR_ID, b.wrId(0));
            in.put(Attr.NUM_SGE, sges);
        }
        in.put(Attr.WR_COUNT, count);
        badWr(b.badIndex());
        List<WorkRequest> chain = WrChains.needsChain(count, sges) ? WrChains.recv(b) : List.of();
        filled(Verb.IBV_POST_RECV, qp.handle(), b.ret(), b.errno(), b.durationNanos(), chain);
    }

    void fillPoll(long cqHandle, CompletionBatch b) {
        clearBuilders().put(Attr.NUM_ENTRIES, b.capacity());
        outBuilder.put(Attr.POLLED, Math.max(0, b.ret()));
        filled(Verb.IBV_POLL_CQ, cqHandle, b.ret(), b.errno(), b.durationNanos(), List.of());
    }

    private void badWr(int badIndex) {
        outBuilder.clear();
        if (badIndex >= 0) {
            outBuilder.put(Attr.BAD_WR_INDEX, badIndex);
        }
    }
}
