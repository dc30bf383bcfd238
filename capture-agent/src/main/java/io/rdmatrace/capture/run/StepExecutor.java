package io.rdmatrace.capture.run;

import io.rdmatrace.capture.config.PathMtu;
import io.rdmatrace.capture.oob.QpParams;
import io.rdmatrace.capture.scenario.Action;
import io.rdmatrace.capture.scenario.Expect;
import io.rdmatrace.capture.scenario.Step;
import io.rdmatrace.verbs.AhAttr;
import io.rdmatrace.verbs.CompletionQueue;
import io.rdmatrace.verbs.GlobalRoute;
import io.rdmatrace.verbs.MemoryRegion;
import io.rdmatrace.verbs.NativeMemory;
import io.rdmatrace.verbs.Outcome;
import io.rdmatrace.verbs.ProtectionDomain;
import io.rdmatrace.verbs.QpCap;
import io.rdmatrace.verbs.QpInitAttr;
import io.rdmatrace.verbs.QpType;
import io.rdmatrace.verbs.QpState;
import io.rdmatrace.verbs.QueuePair;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Runs one scenario step: the verbs (through the binding, so the recorder sees each call) or the
 * out-of-band action, then compares the result with the step's expectation.
 */
final class StepExecutor {
    /** Longest --delay-rtr / "sleep" a step may ask for. */
    static final long MAX_SLEEP_MS = 600_000;
    private static final long SEND_WR_FLAG = 1L << 62;

    private final AgentState s;
    private final Bindings bindings;
    private final PeerExchange peer;
    private final DataPath data;

    StepExecutor(AgentState state) {
        this.s = state;
        this.bindings = new Bindings(state);
        this.peer = new PeerExchange(state);
        this.data = new DataPath(state);
    }

    Bindings bindings() {
        return bindings;
    }

    PeerExchange peer() {
        return peer;
    }

    /** Runs {@code step} for {@code slot} (null for once-per-agent actions) in iteration {@code iter}. */
    StepOutcome run(Step step, QpSlot slot, int iter) {
        Action a = step.action();
        Expect e = step.expect();
        try {
            if (a instanceof Action.AllocPd) {
                return allocPd(e);
            } else if (a instanceof Action.RegMr x) {
                return regMr(x, e, slot, iter);
            } else if (a instanceof Action.CreateCq x) {
                return createCq(x, e, slot, iter);
            } else if (a instanceof Action.CreateQp x) {
                return createQp(x, e, slot, iter);
            } else if (a instanceof Action.ModifyQp x) {
                return new QpModifier(s, bindings).modify(x, e, slot, iter);
            } else if (a instanceof Action.QueryQp) {
                return query(e, slot);
            } else if (a instanceof Action.CreateAh) {
                return createAh(e, slot);
            } else if (a instanceof Action.PostRecv x) {
                return data.postRecv(Values.intValue(bindings.resolve(x.count(), slot, iter), "post_recv count"), e, slot);
            } else if (a instanceof Action.PostSend x) {
                return data.postSend(Values.op(bindings.resolve(x.opKind(), slot, iter)), e, slot, iter);
            } else if (a instanceof Action.Poll x) {
                int sends = Values.intValue(bindings.resolve(x.sends(), slot, iter), "poll sends");
                int recvs = Values.intValue(bindings.resolve(x.recvs(), slot, iter), "poll recvs");
                return data.poll(sends, recvs, e, slot);
            } else if (a instanceof Action.CheckPattern x) {
                return data.checkPattern(Values.op(bindings.resolve(x.opKind(), slot, iter)), slot, iter);
            } else if (a instanceof Action.CmConnect) {
                return new CmConnectStep(s, peer).run(slot);
            } else if (a instanceof Action.Exchange) {
                return peer.exchange(localParams());
            } else if (a instanceof Action.Barrier x) {
                return peer.barrier(x.phase());
            } else if (a instanceof Action.Sleep x) {
                return sleep(Values.number(bindings.resolve(x.millis(), slot, iter), "sleep ms"));
            }
            throw new StepException("no executor for " + a.op());
        } catch (StepException ex) {
            return StepOutcome.fail(ex.getMessage());
        }
    }

    private StepOutcome allocPd(Expect e) {
        if (s.pd != null) {
            return StepOutcome.OK; // one PD for all QPs
        }
        Outcome<ProtectionDomain> o = s.context.tryAllocPd();
        if (o instanceof Outcome.Ok<ProtectionDomain> ok) {
            s.pd = ok.value();
        }
        return verdict(Expectations.outcome(e, o.status(), "ibv_alloc_pd"), "");
    }

    private StepOutcome regMr(Action.RegMr x, Expect e, QpSlot slot, int iter) {
        ProtectionDomain pd = requirePd("reg_mr");
        int access = Values.accessFlags(bindings.resolve(x.access(), slot, iter));
        if (slot.memory == null) {
            slot.memory = NativeMemory.allocate(slot.bufferBytes());
            // what the peer reads with --op read; sends and writes refill it per iteration
            Pattern.fill(slot.memory.buffer(), slot.sendOffset, slot.sendLength, s.role(), slot.index, 0);
        }
        Outcome<MemoryRegion> o = pd.tryRegMr(slot.memory, 0, slot.memory.size(), access);
        if (o instanceof Outcome.Ok<MemoryRegion> ok) {
            slot.mr = ok.value();
        }
        return verdict(Expectations.outcome(e, o.status(), qpTag(slot) + "ibv_reg_mr"), "");
    }

    private StepOutcome createCq(Action.CreateCq x, Expect e, QpSlot slot, int iter) {
        int cqe = Values.intValue(bindings.resolve(x.cqe(), slot, iter), "cqe");
        Outcome<CompletionQueue> o = s.context.tryCreateCq(cqe, null, 0);
        if (o instanceof Outcome.Ok<CompletionQueue> ok) {
            slot.cq = ok.value();
        }
        return verdict(Expectations.outcome(e, o.status(), qpTag(slot) + "ibv_create_cq(" + cqe + ")"), "");
    }

    private StepOutcome createQp(Action.CreateQp x, Expect e, QpSlot slot, int iter) {
        ProtectionDomain pd = requirePd("create_qp");
        if (slot.cq == null) {
            throw new StepException("create_qp needs a CQ: put a \"create_cq\" step before it");
        }
        QpType type = QpType.of(Values.qpType(bindings.resolve(x.qpType(), slot, iter)));
        QpCap cap = new QpCap(Values.intValue(bindings.resolve(x.maxSendWr(), slot, iter), "max_send_wr"),
                Values.intValue(bindings.resolve(x.maxRecvWr(), slot, iter), "max_recv_wr"),
                Values.intValue(bindings.resolve(x.maxSendSge(), slot, iter), "max_send_sge"),
                Values.intValue(bindings.resolve(x.maxRecvSge(), slot, iter), "max_recv_sge"),
                Values.intValue(bindings.resolve(x.maxInlineData(), slot, iter), "max_inline_data"));
        Outcome<QueuePair> o = pd.tryCreateQp(QpInitAttr.of(type, slot.cq, cap));
        if (o instanceof Outcome.Ok<QueuePair> ok) {
            slot.qp = ok.value();
            Integer fixed = s.config.knobs().sqPsn();
            // like ibv_rc_pingpong's lrand48(): a PSN needs to differ between runs, not to be unguessable
            slot.sqPsn = fixed != null ? fixed : ThreadLocalRandom.current().nextInt(1 << 24);
            slot.advertisedPsn = s.config.knobs().advertisePsn().advertised(slot.sqPsn);
        }
        String note = slot.qp != null && slot.index == 0 ? String.format("QPN 0x%06x", slot.qp.qpNum()) : "";
        return verdict(Expectations.outcome(e, o.status(), qpTag(slot) + "ibv_create_qp"), note);
    }

    private StepOutcome query(Expect e, QpSlot slot) {
        QpState now = s.queryState(requireQp(slot, "query_qp"));
        String why = Expectations.outcome(e, s.answers.status(), qpTag(slot) + "ibv_query_qp");
        if (why == null && e.qpState() != null && now != null && now.value() != e.qpState()) {
            why = qpTag(slot) + "ibv_query_qp says " + now + ", expected " + Expectations.stateName(e.qpState());
        }
        return verdict(why, "");
    }

    private StepOutcome createAh(Expect e, QpSlot slot) {
        ProtectionDomain pd = requirePd("create_ah");
        if (slot.peer == null) {
            throw new StepException("create_ah needs the peer's GID: put an \"exchange\" step before it");
        }
        AhAttr attr = s.config.knobs().grh()
                ? new AhAttr(new GlobalRoute(io.rdmatrace.verbs.Gid.of(slot.peer.gid()), 0, s.gidIndex, 64, 0), slot.peer.lid(),
                        0, 0, 0, true, s.config.ibPort())
                : new AhAttr(GlobalRoute.NONE, slot.peer.lid(), 0, 0, 0, false, s.config.ibPort());
        Outcome<io.rdmatrace.verbs.AddressHandle> o = pd.tryCreateAh(attr);
        if (o instanceof Outcome.Ok<io.rdmatrace.verbs.AddressHandle> ok) {
            slot.ah = ok.value();
        }
        return verdict(Expectations.outcome(e, o.status(), qpTag(slot) + "ibv_create_ah"), "");
    }

    private StepOutcome sleep(long ms) {
        if (ms < 0 || ms > MAX_SLEEP_MS) {
            throw new StepException("sleep must be 0.." + MAX_SLEEP_MS + " ms, got " + ms);
        }
        try {
            Thread.sleep(ms);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return StepOutcome.fail("interrupted while sleeping");
        }
        return StepOutcome.OK;
    }

    /** This agent's parameters for the peer, one per QP (needs the QPs and MRs). */
    private List<QpParams> localParams() {
        List<QpParams> list = new ArrayList<>(s.slots.size());
        int activeMtu = s.port.activeMtu().value();
        for (QpSlot slot : s.slots) {
            if (slot.qp == null || slot.mr == null) {
                throw new StepException("exchange needs every QP and MR: create them first (qp#" + slot.index + " is missing)");
            }
            list.add(new QpParams(slot.index, slot.qp.qpNum(), s.port.lid(), s.localGid.raw(), s.gidIndex,
                    slot.advertisedPsn, Math.max(PathMtu.MIN, activeMtu), slot.mr.address(), slot.mr.rkey(), slot.mr.length(),
                    s.config.knobs().pkeyIndex(), s.config.workload().qpType().ibvValue()));
        }
        return list;
    }

    private ProtectionDomain requirePd(String what) {
        if (s.pd == null) {
            throw new StepException(what + " needs a PD: put an \"alloc_pd\" step before it");
        }
        return s.pd;
    }

    static QueuePair requireQp(QpSlot slot, String what) {
        if (slot == null || slot.qp == null) {
            throw new StepException(what + " needs a QP: put a \"create_qp\" step before it");
        }
        return slot.qp;
    }

    static String qpTag(QpSlot slot) {
        return slot == null ? "" : "qp#" + slot.index + " ";
    }

    static StepOutcome verdict(String why, String note) {
        return why == null ? StepOutcome.ok(note) : StepOutcome.fail(why);
    }

    static long sendWrId(int iter) {
        return SEND_WR_FLAG | iter;
    }

    static boolean isSendWrId(long wrId) {
        return (wrId & SEND_WR_FLAG) != 0;
    }
}
