package io.rdmatrace.capture.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.store.TraceWriter;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.verbs.AccessFlag;
import io.rdmatrace.verbs.AhAttr;
import io.rdmatrace.verbs.CallStatus;
import io.rdmatrace.verbs.CompletionBatch;
import io.rdmatrace.verbs.CompletionQueue;
import io.rdmatrace.verbs.Context;
import io.rdmatrace.verbs.DeviceList;
import io.rdmatrace.verbs.Gid;
import io.rdmatrace.verbs.MemoryRegion;
import io.rdmatrace.verbs.Mtu;
import io.rdmatrace.verbs.NativeMemory;
import io.rdmatrace.verbs.ProtectionDomain;
import io.rdmatrace.verbs.QpAttr;
import io.rdmatrace.verbs.QpAttrField;
import io.rdmatrace.verbs.QpAttrMask;
import io.rdmatrace.verbs.QpCap;
import io.rdmatrace.verbs.QpInitAttr;
import io.rdmatrace.verbs.QpQueryBuffer;
import io.rdmatrace.verbs.QpState;
import io.rdmatrace.verbs.QpType;
import io.rdmatrace.verbs.QueuePair;
import io.rdmatrace.verbs.RecvBatch;
import io.rdmatrace.verbs.SendBatch;
import io.rdmatrace.verbs.SendFlag;
import io.rdmatrace.verbs.VerbCall;
import io.rdmatrace.verbs.Verbs;
import io.rdmatrace.verbs.VerbsLibrary;
import io.rdmatrace.verbs.VerbsListener;
import io.rdmatrace.verbs.WrOpcode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recorder writes a call straight from its mapper's builders; every call of a bring-up must read
 * back as the event the value path (a {@link CallMapper.Mapped} with built attribute sets, handed to
 * the writer) gives for the same call.
 */
class FastPathEquivalenceTest {

    private static SessionInfo session(String host) {
        return new SessionInfo("test", host, "test", "none", "unit", Map.of(), Attrs.EMPTY, List.of(), List.of());
    }

    /** Hands each call to the recorder (fast path) and, mapped as a value, to a second writer. */
    private static final class Tee implements VerbsListener {
        final Recorder fast;
        final TraceWriter reference;
        final CallMapper mapper = new CallMapper();

        Tee(Recorder fast, TraceWriter reference) {
            this.fast = fast;
            this.reference = reference;
        }

        private void write(CallMapper.Mapped m) {
            reference.call(m.verb(), m.handle(), m.ret(), m.errno(), m.durationNanos(), m.in(), m.out(), m.wrs());
        }

        @Override
        public void onCall(Context context, VerbCall call) {
            fast.onCall(context, call);
            write(mapper.map(call));
        }

        /** The recorder reads the buffer in place; the value path maps the call the default callback makes of it. */
        @Override
        public void onQueryQp(QueuePair qp, QpQueryBuffer answer) {
            fast.onQueryQp(qp, answer);
            CallStatus st = answer.status();
            write(mapper.map(new VerbCall.QueryQp(qp.handle(), qp.qpNum(), answer.mask(),
                    st.ok() ? answer.toQuery() : null, st)));
        }

        @Override
        public void onPostSend(QueuePair qp, SendBatch requests) {
            fast.onPostSend(qp, requests);
            mapper.fillPostSend(qp, requests);
            write(mapper.mapped());
        }

        @Override
        public void onPostRecv(QueuePair qp, RecvBatch requests) {
            fast.onPostRecv(qp, requests);
            mapper.fillPostRecv(qp, requests);
            write(mapper.mapped());
        }

        @Override
        public void onPollCq(CompletionQueue cq, CompletionBatch completions) {
            fast.onPollCq(cq, completions);
            if (completions.ret() != 0 || completions.errno() != 0) { // the recorder sums empty polls up
                mapper.fillPoll(cq.handle(), completions);
                write(mapper.mapped());
            }
        }
    }

    @Test
    void everyCallOfABringUp_readsBackAsTheValuePathWritesIt(@TempDir Path out) throws Exception {
        int signaled = SendFlag.bits(SendFlag.SIGNALED);
        try (Recorder rec = new Recorder();
             TraceWriter reference = TraceWriter.create(out, session("ref"));
             Verbs verbs = Verbs.open(VerbsLibrary.bundledSoftverbs());
             DeviceList list = verbs.getDeviceList();
             NativeMemory mem = NativeMemory.allocate(4096);
             SendBatch send = new SendBatch(4, 3);
             RecvBatch recv = new RecvBatch(4, 2);
             CompletionBatch wcs = new CompletionBatch(4)) {
            QpQueryBuffer answers = new QpQueryBuffer();
            rec.start(out, session("fast"));
            Tee tee = new Tee(rec, reference);
            try (Context ctx = list.devices().get(0).open(tee)) {
                ProtectionDomain pd = ctx.allocPd();
                MemoryRegion mr = pd.regMr(mem, AccessFlag.bits(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE));
                CompletionQueue cq = ctx.createCq(16);
                QueuePair qp = pd.createQp(QpInitAttr.of(QpType.RC, cq, new QpCap(8, 8, 3, 2, 0)));
                Gid gid = ctx.queryGid(1, 0);
                qp.modify(QpAttr.builder().qpState(QpState.INIT).pkeyIndex(0).portNum(1)
                        .qpAccessFlags(AccessFlag.bits(AccessFlag.REMOTE_WRITE)));
                qp.query();
                qp.query(QueuePair.ALL_ATTRIBUTES, answers);
                qp.modify(QpAttr.builder().qpState(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(qp.qpNum())
                        .rqPsn(0x123456).maxDestRdAtomic(1).minRnrTimer(12).ahAttr(AhAttr.roce(gid, 0, 1)));
                qp.query();
                qp.query(QueuePair.ALL_ATTRIBUTES, answers); // the peer's GID now
                qp.query(QpAttrMask.of(QpAttrField.STATE), answers);
                qp.tryModify(QpAttr.builder().qpState(QpState.SQD).build(), QpAttr.builder().qpState(QpState.SQD).mask());
                recv.clear().add(10).sge(mr, 0, 64).sge(mr, 64, 32).add(11).sge(mr, 128, 16);
                qp.postRecv(recv);
                recv.clear().add(12).sge(mr, 0, 64);
                qp.postRecv(recv);
                send.clear().add(20, WrOpcode.SEND, signaled).sge(mr, 0, 8);
                qp.postSend(send); // refused in RTR: bad_wr 0
                qp.modify(QpAttr.builder().qpState(QpState.RTS).sqPsn(0x123456).timeout(14).retryCnt(7).rnrRetry(7)
                        .maxRdAtomic(1));
                send.clear().add(21, WrOpcode.RDMA_WRITE_WITH_IMM, signaled).sge(mr, 0, 8).rdma(mr.address(), mr.rkey())
                        .imm(0xCAFE).add(22, WrOpcode.SEND, signaled).sge(mr, 100, 50).sge(mr, 200, 50);
                qp.postSend(send);
                send.clear().add(23, WrOpcode.SEND, signaled).sge(mr, 0, 64);
                qp.postSend(send);
                int polled = 0;
                for (int i = 0; i < 10_000 && polled < 3; i++) { // a bound, not a wait for a speed
                    polled += Math.max(0, cq.poll(wcs));
                }
                qp.query();
                qp.destroy();
                cq.destroy();
                mr.dereg();
            }
        }
        List<CallEvent> fast = calls(out, "fast").stream()
                .filter(c -> !(c.verb() == Verb.IBV_POLL_CQ && c.ret() == 0)).toList();
        List<CallEvent> ref = calls(out, "ref");

        assertThat(fast).hasSameSizeAs(ref);
        assertThat(fast.stream().map(CallEvent::verb)).contains(Verb.IBV_MODIFY_QP, Verb.IBV_QUERY_QP,
                Verb.IBV_POST_SEND, Verb.IBV_POST_RECV, Verb.IBV_CREATE_QP);
        assertThat(fast.stream().filter(c -> c.verb() == Verb.IBV_QUERY_QP).findFirst().orElseThrow().out()
                .has(Attr.DGID)).isTrue();
        assertThat(fast.stream().filter(c -> c.verb() == Verb.IBV_QUERY_QP)).hasSize(6);
        assertThat(fast.stream().anyMatch(c -> !c.wrs().isEmpty())).isTrue();
        for (int i = 0; i < ref.size(); i++) {
            CallEvent f = fast.get(i);
            CallEvent r = ref.get(i);
            String what = i + ": " + r.verb();
            assertThat(f.verb()).as(what).isEqualTo(r.verb());
            assertThat(f.handle()).as(what).isEqualTo(r.handle());
            assertThat(f.ret()).as(what).isEqualTo(r.ret());
            assertThat(f.errno()).as(what).isEqualTo(r.errno());
            assertThat(f.durationNanos()).as(what).isEqualTo(r.durationNanos());
            assertThat(f.in()).as(what).isEqualTo(r.in());
            assertThat(f.out()).as(what).isEqualTo(r.out());
            assertThat(f.wrs()).as(what).isEqualTo(r.wrs());
        }
    }

    private static List<CallEvent> calls(Path out, String host) throws Exception {
        TraceReader.Result r = TraceReader.readAll(out.resolve(host));
        assertThat(r.outcome().isClean()).as(r.outcome().detail()).isTrue();
        return r.events().stream().filter(e -> e instanceof CallEvent).map(e -> (CallEvent) e).toList();
    }
}
