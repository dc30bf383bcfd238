package io.rdmatrace.capture.replay;

import io.rdmatrace.capture.record.VerbAttrs;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.GidEntry;
import io.rdmatrace.trace.names.GidText;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.verbs.AddressHandle;
import io.rdmatrace.verbs.CallStatus;
import io.rdmatrace.verbs.CompletionChannel;
import io.rdmatrace.verbs.CompletionQueue;
import io.rdmatrace.verbs.Context;
import io.rdmatrace.verbs.Device;
import io.rdmatrace.verbs.DeviceAttr;
import io.rdmatrace.verbs.DeviceList;
import io.rdmatrace.verbs.Gid;
import io.rdmatrace.verbs.IbvGidEntry;
import io.rdmatrace.verbs.MemoryRegion;
import io.rdmatrace.verbs.NativeMemory;
import io.rdmatrace.verbs.Outcome;
import io.rdmatrace.verbs.PortAttr;
import io.rdmatrace.verbs.ProtectionDomain;
import io.rdmatrace.verbs.QpAttrMask;
import io.rdmatrace.verbs.QpInitAttr;
import io.rdmatrace.verbs.QpQuery;
import io.rdmatrace.verbs.QpType;
import io.rdmatrace.verbs.QueuePair;
import io.rdmatrace.verbs.VerbsResource;

/**
 * Makes one recorded control-path call again on the replay device, with recorded handles and
 * numbers mapped to the live ones, and learns the new numbers it hands out (QPNs, keys,
 * addresses, GIDs). The recorder hears the call as the context's listener.
 */
final class ControlCalls {
    /** Largest memory region replayed; a bigger recorded one is noted and not registered. */
    static final long MAX_REGION_BYTES = 1L << 30;

    private final ReplayState s;

    ControlCalls(ReplayState state) {
        this.s = state;
    }

    Replayed replay(CallEvent c) {
        Attrs in = c.in();
        switch (c.verb()) {
            case IBV_GET_DEVICE_LIST:
                return getDeviceList();
            case IBV_OPEN_DEVICE:
                return openDevice(c);
            case IBV_CLOSE_DEVICE:
                return withContext(ctx -> Replayed.Done.of(ctx.tryClose(), Attrs.EMPTY));
            case IBV_QUERY_DEVICE:
                return withContext(this::queryDevice);
            case IBV_QUERY_PORT:
                return withContext(ctx -> queryPort(ctx, (int) in.get(Attr.PORT_NUM, 1)));
            case IBV_QUERY_GID:
            case IBV_QUERY_GID_EX:
                return withContext(ctx -> queryGid(ctx, c));
            case IBV_QUERY_PKEY:
                return withContext(ctx -> {
                    Outcome<Integer> o = ctx.tryQueryPkey((int) in.get(Attr.PORT_NUM, 1), (int) in.get(Attr.PKEY_INDEX, 0));
                    Attrs out = o instanceof Outcome.Ok<Integer> ok
                            ? Attrs.builder().put(Attr.PKEY, ok.value() & 0xFFFF).build() : Attrs.EMPTY;
                    return Replayed.Done.of(o.status(), out);
                });
            case IBV_ALLOC_PD:
                return withContext(ctx -> created(c, ctx.tryAllocPd(), Attrs.EMPTY));
            case IBV_REG_MR:
                return regMr(c);
            case IBV_CREATE_COMP_CHANNEL:
                return withContext(ctx -> created(c, ctx.tryCreateCompChannel(), Attrs.EMPTY));
            case IBV_CREATE_CQ:
                return createCq(c);
            case IBV_REQ_NOTIFY_CQ: {
                CompletionQueue cq = s.objects.get(c.handle(), CompletionQueue.class);
                return cq == null ? missing("CQ") : Replayed.Done.of(cq.tryReqNotify(in.get(Attr.SOLICITED_ONLY, 0) != 0),
                        Attrs.EMPTY);
            }
            case IBV_GET_CQ_EVENT: {
                CompletionChannel ch = s.objects.get(c.handle(), CompletionChannel.class);
                return ch == null ? missing("completion channel")
                        : Replayed.Done.of(ch.tryGetCqEvent(s.completionWait).status(), Attrs.EMPTY);
            }
            case IBV_ACK_CQ_EVENTS: {
                CompletionQueue cq = s.objects.get(c.handle(), CompletionQueue.class);
                if (cq == null) {
                    return missing("CQ");
                }
                int n = (int) in.get(Attr.NUM_EVENTS, 0);
                return cq.unackedEvents() < n ? new Replayed.Skipped("no CQ events to acknowledge here", false)
                        : Replayed.Done.of(cq.ackEvents(n), Attrs.EMPTY);
            }
            case IBV_CREATE_QP:
                return createQp(c);
            case IBV_MODIFY_QP: {
                QueuePair qp = s.objects.get(c.handle(), QueuePair.class);
                return qp == null ? missing("QP") : Replayed.Done.of(qp.tryModify(QpAttrs.modify(in, s.values),
                        QpAttrMask.ofBits((int) in.get(Attr.ATTR_MASK, 0))), Attrs.EMPTY);
            }
            case IBV_QUERY_QP:
                return queryQp(c);
            case IBV_CREATE_AH: {
                ProtectionDomain pd = s.objects.get(in.get(Attr.PD, 0), ProtectionDomain.class);
                return pd == null ? missing("PD") : created(c, pd.tryCreateAh(QpAttrs.ah(in, s.values)), Attrs.EMPTY);
            }
            case IBV_DEALLOC_PD:
            case IBV_DEREG_MR:
            case IBV_DESTROY_COMP_CHANNEL:
            case IBV_DESTROY_CQ:
            case IBV_DESTROY_QP:
            case IBV_DESTROY_AH:
                return destroy(c);
            case IBV_FREE_DEVICE_LIST:
            case IBV_FORK_INIT:
            case IBV_GET_DEVICE_GUID:
            case IBV_GET_DEVICE_NAME:
                return new Replayed.Skipped(c.verb() + " changes nothing to compare", false);
            default:
                return new Replayed.Skipped(c.verb() + " is not replayed (not in the Java verbs binding)", false);
        }
    }

    private Replayed getDeviceList() {
        if (s.deviceList != null) {
            s.deviceList.close();
            s.deviceList = null;
        }
        Outcome<DeviceList> o = s.verbs.tryGetDeviceList(s.listener);
        Attrs out = Attrs.EMPTY;
        if (o instanceof Outcome.Ok<DeviceList> ok) {
            s.deviceList = ok.value();
            out = Attrs.builder().put(Attr.NUM_DEVICES, ok.value().devices().size()).build();
        }
        return Replayed.Done.of(o.status(), out);
    }

    private Replayed openDevice(CallEvent c) {
        if (s.deviceList == null) {
            getDeviceList();
        }
        if (s.deviceList == null || s.deviceList.devices().isEmpty()) {
            return new Replayed.Skipped("no device to open: ibv_get_device_list found none", true);
        }
        String name = c.in().text(Attr.DEV_NAME);
        Device device = null;
        for (Device d : s.deviceList.devices()) {
            if (d.name().equals(name)) {
                device = d;
            }
        }
        if (device == null) {
            device = s.deviceList.devices().get(0);
            s.note("recorded device " + name + " is not here; replayed on " + device.name());
        }
        Outcome<Context> o = device.tryOpen(s.listener);
        if (o instanceof Outcome.Ok<Context> ok) {
            s.context = ok.value();
            s.objects.put(c.handle(), s.context);
        }
        return Replayed.Done.of(o.status(), Attrs.EMPTY);
    }

    private Replayed queryDevice(Context ctx) {
        Outcome<DeviceAttr> o = ctx.tryQueryDevice();
        Attrs out = Attrs.EMPTY;
        if (o instanceof Outcome.Ok<DeviceAttr> ok) {
            out = VerbAttrs.device(null, ok.value());
            s.deviceAttrs = VerbAttrs.device(ctx.device().name(), ok.value());
        }
        return Replayed.Done.of(o.status(), out);
    }

    private Replayed queryPort(Context ctx, int port) {
        Outcome<PortAttr> o = ctx.tryQueryPort(port);
        Attrs.Builder out = Attrs.builder();
        if (o instanceof Outcome.Ok<PortAttr> ok) {
            VerbAttrs.port(out, port, ok.value());
            s.ports.add(out.build());
        }
        return Replayed.Done.of(o.status(), out.build());
    }

    private Replayed queryGid(Context ctx, CallEvent c) {
        int port = (int) c.in().get(Attr.PORT_NUM, 1);
        int index = (int) c.in().get(Attr.GID_INDEX, 0);
        Attrs.Builder out = Attrs.builder();
        CallStatus status;
        Gid gid = null;
        int type = 0;
        if (c.verb() == Verb.IBV_QUERY_GID_EX) {
            Outcome<IbvGidEntry> o = ctx.tryQueryGidEntry(port, index);
            status = o.status();
            if (o instanceof Outcome.Ok<IbvGidEntry> ok) {
                gid = ok.value().gid();
                type = Math.max(0, ok.value().gidType().value());
                out.put(Attr.GID_TYPE, ok.value().gidType().value());
            }
        } else {
            Outcome<Gid> o = ctx.tryQueryGid(port, index);
            status = o.status();
            gid = o instanceof Outcome.Ok<Gid> ok ? ok.value() : null;
        }
        if (gid != null) {
            String text = GidText.format(gid.raw());
            out.put(Attr.GID, text);
            s.values.localGid(c.out().text(Attr.GID), text);
            if (!gid.isZero()) {
                s.gids.removeIf(e -> e.portNum() == port && e.index() == index);
                s.gids.add(new GidEntry(port, index, text, type));
            }
        }
        return Replayed.Done.of(status, out.build());
    }

    private Replayed regMr(CallEvent c) {
        Attrs in = c.in();
        ProtectionDomain pd = s.objects.get(in.get(Attr.PD, 0), ProtectionDomain.class);
        if (pd == null) {
            return missing("PD");
        }
        long length = in.get(Attr.LENGTH, 0);
        if (Long.compareUnsigned(length, MAX_REGION_BYTES) > 0) {
            s.note("a memory region of " + Long.toUnsignedString(length) + " bytes was not registered (cap "
                    + (MAX_REGION_BYTES >> 20) + " MiB); calls using it are not replayed");
            return new Replayed.Skipped("memory region above the replay cap", true);
        }
        NativeMemory memory = NativeMemory.allocate(Math.max(length, NativeMemory.pageSize()));
        s.objects.keep(memory);
        Outcome<MemoryRegion> o = pd.tryRegMr(memory.address(), length, (int) in.get(Attr.ACCESS, 0));
        Attrs.Builder out = Attrs.builder();
        if (o instanceof Outcome.Ok<MemoryRegion> ok) {
            MemoryRegion mr = ok.value();
            s.objects.put(c.handle(), mr);
            s.values.localRegion(in.get(Attr.ADDR, 0), length, memory.address());
            if (c.out().has(Attr.LKEY)) {
                s.values.localKey(c.out().get(Attr.LKEY, 0), Integer.toUnsignedLong(mr.lkey()));
            }
            if (c.out().has(Attr.RKEY)) {
                s.values.localKey(c.out().get(Attr.RKEY, 0), Integer.toUnsignedLong(mr.rkey()));
            }
            out.put(Attr.LKEY, Integer.toUnsignedLong(mr.lkey())).put(Attr.RKEY, Integer.toUnsignedLong(mr.rkey()));
        }
        return Replayed.Done.of(o.status(), out.build());
    }

    private Replayed createCq(CallEvent c) {
        Attrs in = c.in();
        if (s.context == null) {
            return missing("device context");
        }
        long channelHandle = in.get(Attr.CHANNEL, 0);
        CompletionChannel channel = channelHandle == 0 ? null : s.objects.get(channelHandle, CompletionChannel.class);
        if (channelHandle != 0 && channel == null) {
            return missing("completion channel");
        }
        Outcome<CompletionQueue> o = s.context.tryCreateCq((int) in.get(Attr.CQE, 0), channel,
                (int) in.get(Attr.COMP_VECTOR, 0));
        Attrs out = o instanceof Outcome.Ok<CompletionQueue> ok
                ? Attrs.builder().put(Attr.CQE, Integer.toUnsignedLong(ok.value().cqe())).build() : Attrs.EMPTY;
        return created(c, o, out);
    }

    private Replayed createQp(CallEvent c) {
        Attrs in = c.in();
        ProtectionDomain pd = s.objects.get(in.get(Attr.PD, 0), ProtectionDomain.class);
        CompletionQueue sendCq = s.objects.get(in.get(Attr.SEND_CQ, 0), CompletionQueue.class);
        CompletionQueue recvCq = s.objects.get(in.get(Attr.RECV_CQ, 0), CompletionQueue.class);
        if (pd == null || (in.get(Attr.SEND_CQ, 0) != 0 && sendCq == null) || (in.get(Attr.RECV_CQ, 0) != 0 && recvCq == null)) {
            return missing("PD or CQ");
        }
        QpInitAttr init = new QpInitAttr(sendCq, recvCq, QpType.of((int) in.get(Attr.QP_TYPE, 0)), QpAttrs.cap(in),
                in.get(Attr.SQ_SIG_ALL, 0) != 0);
        Outcome<QueuePair> o = pd.tryCreateQp(init);
        Attrs.Builder out = Attrs.builder();
        if (o instanceof Outcome.Ok<QueuePair> ok) {
            QueuePair qp = ok.value();
            out.put(Attr.QP_NUM, Integer.toUnsignedLong(qp.qpNum()));
            VerbAttrs.cap(out, qp.cap());
            if (c.out().has(Attr.QP_NUM)) {
                s.values.localQpn(c.out().get(Attr.QP_NUM, 0), Integer.toUnsignedLong(qp.qpNum()));
            }
        }
        return created(c, o, out.build());
    }

    private Replayed queryQp(CallEvent c) {
        QueuePair qp = s.objects.get(c.handle(), QueuePair.class);
        if (qp == null) {
            return missing("QP");
        }
        Outcome<QpQuery> o = qp.tryQuery(QpAttrMask.ofBits((int) c.in().get(Attr.ATTR_MASK, 0)));
        Attrs out = o instanceof Outcome.Ok<QpQuery> ok ? VerbAttrs.queryOutputs(ok.value()) : Attrs.EMPTY;
        return Replayed.Done.of(o.status(), out);
    }

    private Replayed destroy(CallEvent c) {
        VerbsResource r = s.objects.get(c.handle(), VerbsResource.class);
        if (r == null) {
            return missing("object");
        }
        CallStatus status = r.tryDestroy();
        if (status.ok()) {
            s.objects.forget(c.handle());
        }
        return Replayed.Done.of(status, Attrs.EMPTY);
    }

    private Replayed created(CallEvent c, Outcome<?> o, Attrs out) {
        if (o instanceof Outcome.Ok<?> ok) {
            s.objects.put(c.handle(), ok.value());
        }
        return Replayed.Done.of(o.status(), out);
    }

    private Replayed withContext(java.util.function.Function<Context, Replayed> call) {
        return s.context == null ? missing("device context") : call.apply(s.context);
    }

    private static Replayed missing(String what) {
        return new Replayed.Skipped("the " + what + " it acts on was not created here", true);
    }
}
