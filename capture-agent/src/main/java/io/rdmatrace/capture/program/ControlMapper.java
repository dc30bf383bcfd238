package io.rdmatrace.capture.program;

import io.rdmatrace.capture.record.CallMapper;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.names.ErrnoNames;
import io.rdmatrace.trace.names.GidText;
import io.rdmatrace.tracer.RingLayout;
import io.rdmatrace.tracer.RingRecord;
import io.rdmatrace.verbs.CallStatus;
import io.rdmatrace.verbs.Gid;
import io.rdmatrace.verbs.QpAttrMask;
import io.rdmatrace.verbs.QpCap;
import io.rdmatrace.verbs.QpQuery;
import io.rdmatrace.verbs.QpType;
import io.rdmatrace.verbs.SlotStructs;
import io.rdmatrace.verbs.Slots;
import io.rdmatrace.verbs.VerbCall;

/**
 * Control-path ring records as CALL events. Where the JNI binding has a {@link VerbCall} for the
 * verb, the record becomes that VerbCall (its structs decoded by {@link SlotStructs}, the binding's
 * own codec) and goes through the agent recorder's {@link CallMapper}: a recorded program's
 * ibv_modify_qp carries exactly the attributes a capture's does.
 */
final class ControlMapper {
    /** MESSAGE of the ibv_query_qp the tracer makes after each ibv_modify_qp (not the program's call). */
    static final String RECORDER_QUERY = "rdmatrace: query after ibv_modify_qp";

    private static final int QI = Slots.QpInit.values().length;
    private static final int QP = RingLayout.Qp.values().length;
    private static final int TEXT = RingLayout.Text.values().length;

    private final CallMapper calls = new CallMapper();
    private final String library;

    ControlMapper(String library) {
        this.library = library;
    }

    /** The CALL of a control-path record, or null for a kind the event model has no verb for yet. */
    CallMapper.Mapped map(RingRecord r) {
        CallStatus s = status(r);
        long h = r.handle();
        RingLayout.Kind k = r.kind();
        return switch (k) {
            // the ring's RET is the device count; the CALL's is the list pointer's verdict (0 or -1), as the binding's
            case IBV_GET_DEVICE_LIST -> calls.map(new VerbCall.GetDeviceList(library, (int) Math.max(0, r.ret()),
                    new CallStatus(r.ret() >= 0 ? 0 : -1, s.errno(), s.errnoName(), s.durationNanos())));
            case IBV_FREE_DEVICE_LIST -> plain(Verb.IBV_FREE_DEVICE_LIST, r, Attrs.EMPTY, Attrs.EMPTY);
            case IBV_OPEN_DEVICE -> calls.map(new VerbCall.OpenDevice(r.text(0), h, s));
            case IBV_CLOSE_DEVICE -> calls.map(new VerbCall.CloseDevice(h, s));
            case IBV_QUERY_DEVICE -> calls.map(new VerbCall.QueryDevice(h,
                    s.ok() ? SlotStructs.deviceAttr(r.slots(), r.at(TEXT), r.text(0)) : null, s));
            case IBV_QUERY_PORT -> calls.map(new VerbCall.QueryPort(h, r.pInt(0),
                    s.ok() ? SlotStructs.portAttr(r.slots(), r.at(RingLayout.Port.values().length)) : null, s));
            case IBV_QUERY_GID -> {
                var e = SlotStructs.gidEntry(r.slots(), r.at(0));
                yield calls.map(new VerbCall.QueryGid(h, e.portNum(), e.gidIndex(), s.ok() ? e.gid() : null, s));
            }
            case IBV_QUERY_GID_EX -> {
                var e = SlotStructs.gidEntry(r.slots(), r.at(0));
                yield calls.map(new VerbCall.QueryGidEx(h, e.portNum(), e.gidIndex(), s.ok() ? e : null, s));
            }
            case IBV_QUERY_PKEY -> calls.map(new VerbCall.QueryPkey(h, r.pInt(0), r.pInt(1), r.pInt(2), s));
            case IBV_ALLOC_PD -> calls.map(new VerbCall.AllocPd(r.p(0), h, s));
            case IBV_DEALLOC_PD -> calls.map(new VerbCall.DeallocPd(h, s));
            case IBV_REG_MR -> calls.map(new VerbCall.RegMr(r.p(0), r.p(1), r.p(2), r.pInt(3), h, r.pInt(4),
                    r.pInt(5), s));
            case IBV_DEREG_MR -> calls.map(new VerbCall.DeregMr(h, s));
            case IBV_CREATE_COMP_CHANNEL -> calls.map(new VerbCall.CreateCompChannel(r.p(0), h, r.pInt(1), s));
            case IBV_DESTROY_COMP_CHANNEL -> calls.map(new VerbCall.DestroyCompChannel(h, s));
            case IBV_CREATE_CQ -> calls.map(new VerbCall.CreateCq(r.p(0), r.pInt(1), r.p(2), r.pInt(3), h,
                    r.pInt(4), s));
            case IBV_RESIZE_CQ -> plain(Verb.IBV_RESIZE_CQ, r, Attrs.builder().put(Attr.CQE, r.p(0)).build(),
                    s.ok() ? Attrs.builder().put(Attr.CQE, r.p(1)).build() : Attrs.EMPTY);
            case IBV_DESTROY_CQ -> calls.map(new VerbCall.DestroyCq(h, s));
            case IBV_REQ_NOTIFY_CQ -> calls.map(new VerbCall.ReqNotifyCq(h, r.p(0) != 0, s));
            case IBV_GET_CQ_EVENT -> calls.map(new VerbCall.GetCqEvent(h, r.p(0), s));
            case IBV_ACK_CQ_EVENTS -> calls.map(new VerbCall.AckCqEvents(h, r.pInt(0), s));
            case IBV_CREATE_QP -> createQp(r);
            case IBV_MODIFY_QP -> calls.map(new VerbCall.ModifyQp(h, r.pInt(RingLayout.Qp.QP_NUM.ordinal()),
                    SlotStructs.qpAttr(r.slots(), r.at(QP)), QpAttrMask.ofBits(r.pInt(RingLayout.Qp.ATTR_MASK.ordinal())),
                    s));
            case IBV_QUERY_QP -> queryQp(r, s);
            case IBV_DESTROY_QP -> calls.map(new VerbCall.DestroyQp(h, r.pInt(0), s));
            case IBV_CREATE_AH -> calls.map(new VerbCall.CreateAh(r.p(0),
                    SlotStructs.ahAttr(r.slots(), r.at(RingLayout.Ah.values().length)), h, s));
            case IBV_DESTROY_AH -> calls.map(new VerbCall.DestroyAh(h, s));
            case IBV_ACK_ASYNC_EVENT -> plain(Verb.IBV_ACK_ASYNC_EVENT, r,
                    Attrs.builder().put(Attr.EVENT_TYPE, r.p(0)).put(Attr.ELEMENT, r.p(1)).build(), Attrs.EMPTY);
            case IBV_CREATE_SRQ -> plain(Verb.IBV_CREATE_SRQ, r, Attrs.builder().put(Attr.PD, r.p(0))
                    .put(Attr.MAX_RECV_WR, r.p(1)).put(Attr.MAX_RECV_SGE, r.p(2)).put(Attr.SRQ_LIMIT, r.p(3)).build(),
                    s.ok() ? Attrs.builder().put(Attr.MAX_RECV_WR, r.p(4)).put(Attr.MAX_RECV_SGE, r.p(5)).build()
                            : Attrs.EMPTY);
            case IBV_MODIFY_SRQ -> plain(Verb.IBV_MODIFY_SRQ, r, Attrs.builder().put(Attr.ATTR_MASK, r.p(0))
                    .put(Attr.MAX_RECV_WR, r.p(1)).put(Attr.MAX_RECV_SGE, r.p(2)).put(Attr.SRQ_LIMIT, r.p(3)).build(),
                    Attrs.EMPTY);
            case IBV_QUERY_SRQ -> plain(Verb.IBV_QUERY_SRQ, r, Attrs.EMPTY, s.ok() ? Attrs.builder()
                    .put(Attr.MAX_RECV_WR, r.p(0)).put(Attr.MAX_RECV_SGE, r.p(1)).put(Attr.SRQ_LIMIT, r.p(2)).build()
                    : Attrs.EMPTY);
            case IBV_DESTROY_SRQ -> plain(Verb.IBV_DESTROY_SRQ, r, Attrs.EMPTY, Attrs.EMPTY);
            default -> null;
        };
    }

    private CallMapper.Mapped createQp(RingRecord r) {
        int asked = RingLayout.CreateQp.values().length;
        int granted = asked + QI;
        Attrs.Builder in = Attrs.builder();
        in.put(Attr.PD, r.p(RingLayout.CreateQp.PD.ordinal()));
        in.put(Attr.SEND_CQ, r.p(asked + Slots.QpInit.SEND_CQ.ordinal()));
        in.put(Attr.RECV_CQ, r.p(asked + Slots.QpInit.RECV_CQ.ordinal()));
        long srq = r.p(asked + Slots.QpInit.SRQ.ordinal());
        if (srq != 0) {
            in.put(Attr.SRQ, srq);
        }
        in.put(Attr.QP_TYPE, r.p(asked + Slots.QpInit.QP_TYPE.ordinal()));
        in.put(Attr.SQ_SIG_ALL, r.p(asked + Slots.QpInit.SQ_SIG_ALL.ordinal()) != 0);
        io.rdmatrace.capture.record.VerbAttrs.cap(in, SlotStructs.qpInitCap(r.slots(), r.at(asked)));
        Attrs.Builder out = Attrs.builder();
        if (r.handle() != 0) {
            io.rdmatrace.capture.record.VerbAttrs.cap(out, SlotStructs.qpInitCap(r.slots(), r.at(granted)));
            out.put(Attr.QP_NUM, r.p(granted + Slots.QpInit.QP_NUM.ordinal()));
        }
        return plain(Verb.IBV_CREATE_QP, r, in.build(), out.build());
    }

    private CallMapper.Mapped queryQp(RingRecord r, CallStatus s) {
        int qpn = r.pInt(RingLayout.Qp.QP_NUM.ordinal());
        QpAttrMask mask = QpAttrMask.ofBits(r.pInt(RingLayout.Qp.ATTR_MASK.ordinal()));
        QpQuery q = null;
        if (s.ok()) {
            int init = QP + Slots.QA_BLOCK;
            QpCap cap = SlotStructs.qpInitCap(r.slots(), r.at(init));
            q = new QpQuery(SlotStructs.qpAttr(r.slots(), r.at(QP)), mask, qpn,
                    QpType.of(r.pInt(init + Slots.QpInit.QP_TYPE.ordinal())), cap,
                    r.p(init + Slots.QpInit.SQ_SIG_ALL.ordinal()) != 0, r.p(init + Slots.QpInit.SEND_CQ.ordinal()),
                    r.p(init + Slots.QpInit.RECV_CQ.ordinal()));
        }
        CallMapper.Mapped m = calls.map(new VerbCall.QueryQp(r.handle(), qpn, mask, q, s));
        if (!r.recorderOwn()) {
            return m;
        }
        Attrs out = m.out().toBuilder().put(Attr.MESSAGE, RECORDER_QUERY).build();
        return new CallMapper.Mapped(m.verb(), m.handle(), m.ret(), m.errno(), m.durationNanos(), m.in(), out);
    }

    private static CallMapper.Mapped plain(Verb verb, RingRecord r, Attrs in, Attrs out) {
        return new CallMapper.Mapped(verb, r.handle(), (int) r.ret(), r.errno(), r.durationNanos(), in, out);
    }

    static CallStatus status(RingRecord r) {
        int errno = r.errno();
        return new CallStatus(r.ret(), errno, errno == 0 ? "" : ErrnoNames.name(errno), r.durationNanos());
    }

    /** A GID's text as the SESSION's GID table spells it. */
    static String gidText(Gid gid) {
        return GidText.format(gid.raw());
    }
}
