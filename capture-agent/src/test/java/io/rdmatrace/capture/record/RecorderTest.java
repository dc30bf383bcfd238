package io.rdmatrace.capture.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.abi.CType;
import io.rdmatrace.abi.QpField;
import io.rdmatrace.abi.ValueKind;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.names.GidText;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.model.QpFieldAttrs;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.model.WorkRequest;
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
import io.rdmatrace.verbs.QpCap;
import io.rdmatrace.verbs.QpInitAttr;
import io.rdmatrace.verbs.QpType;
import io.rdmatrace.verbs.QueuePair;
import io.rdmatrace.verbs.RecvBatch;
import io.rdmatrace.verbs.SendBatch;
import io.rdmatrace.verbs.SendFlag;
import io.rdmatrace.verbs.WrOpcode;
import io.rdmatrace.verbs.QpAttr;
import io.rdmatrace.verbs.QpAttrMask;
import io.rdmatrace.verbs.QpState;
import io.rdmatrace.verbs.VerbCall;
import io.rdmatrace.verbs.Verbs;
import io.rdmatrace.verbs.VerbsLibrary;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The recorder's mapping of verbs calls to events, read back through the trace reader. */
class RecorderTest {

    private static SessionInfo session(String host) {
        return new SessionInfo("test", host, "test", "none", "unit", Map.of(), Attrs.EMPTY, List.of(), List.of());
    }

    private static List<TraceEvent> readBack(Path out, String host) throws Exception {
        TraceReader.Result r = TraceReader.readAll(out.resolve(host));
        assertThat(r.outcome().isClean()).as(r.outcome().detail()).isTrue();
        return r.events();
    }

    @Test
    void modifyQp_recordsTheMaskAndExactlyTheFieldsItSelects(@TempDir Path out) throws Exception {
        QpAttr.Builder b = QpAttr.builder().qpState(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(0x12).rqPsn(0xABCDEF)
                .ahAttr(AhAttr.roce(Gid.parse("0000:0000:0000:0000:0000:ffff:7f00:0002"), 3, 1));
        QpAttr attr = b.build().toBuilder().timeout(99).build(); // a field outside the mask must not appear
        try (Recorder rec = new Recorder()) {
            rec.start(out, session("h"));
            rec.onCall(null, new VerbCall.ModifyQp(0x1000, 0x11, attr, b.mask(), new CallStatus(22, 22, "EINVAL", 1234)));
        }
        CallEvent c = (CallEvent) readBack(out, "h").stream().filter(e -> e instanceof CallEvent).findFirst().orElseThrow();
        assertThat(c.verb()).isEqualTo(Verb.IBV_MODIFY_QP);
        assertThat(c.handle()).isEqualTo(0x1000);
        assertThat(c.ret()).isEqualTo(22);
        assertThat(c.errnoName()).isEqualTo("EINVAL");
        assertThat(c.durationNanos()).isEqualTo(1234);
        Attrs in = c.in();
        assertThat(in.get(Attr.ATTR_MASK, -1)).isEqualTo(0x1 | 0x80 | 0x100 | 0x1000 | 0x100000);
        assertThat(in.get(Attr.QP_NUM, -1)).isEqualTo(0x11);
        assertThat(in.get(Attr.QP_STATE, -1)).isEqualTo(2);
        assertThat(in.get(Attr.PATH_MTU, -1)).isEqualTo(3);
        assertThat(in.get(Attr.RQ_PSN, -1)).isEqualTo(0xABCDEF);
        assertThat(in.get(Attr.DEST_QP_NUM, -1)).isEqualTo(0x12);
        assertThat(in.text(Attr.DGID)).isEqualTo("::ffff:127.0.0.2");
        assertThat(in.get(Attr.SGID_INDEX, -1)).isEqualTo(3);
        assertThat(in.has(Attr.TIMEOUT)).isFalse();
        assertThat(in.has(Attr.SQ_PSN)).isFalse();
    }

    @Test
    void modifyQp_underManyMasksInTurn_recordsEachCallsOwnFields(@TempDir Path out) throws Exception {
        // every field set to a value of its own; each call's mask picks some (more masks than the mapper keeps)
        QpAttr.Builder all = QpAttr.builder();
        int v = 1;
        for (QpField f : QpFieldAttrs.recorded()) {
            if (f.cType() == CType.GID) {
                all.set(f, Gid.parse("0000:0000:0000:0000:0000:ffff:7f00:00" + (10 + v)));
            } else {
                all.set(f, f.kind() == ValueKind.BOOL ? 1 : v);
            }
            v++;
        }
        QpAttr attr = all.build();
        int[] masks = {0x1, 0x1 | 0x10 | 0x20 | 0x8, 0x129181, 0x1 | 0x200 | 0x400 | 0x4000 | 0x10000, 0x80, 0x100000,
            0x2, 0x1 | 0x800, 0x40 | 0x1000, 0x129181, 0x1, 0x1 | 0x10 | 0x20 | 0x8};
        try (Recorder rec = new Recorder()) {
            rec.start(out, session("h"));
            for (int m : masks) {
                rec.onCall(null, new VerbCall.ModifyQp(0x1000, 0x11, attr, QpAttrMask.ofBits(m), new CallStatus(0, 0, "", 1)));
            }
        }
        List<CallEvent> calls = readBack(out, "h").stream().filter(e -> e instanceof CallEvent).map(e -> (CallEvent) e).toList();
        assertThat(calls).hasSize(masks.length);
        for (int k = 0; k < masks.length; k++) {
            int m = masks[k];
            Attrs in = calls.get(k).in();
            java.util.Set<Attr> expected = new java.util.HashSet<>(List.of(Attr.QP_NUM, Attr.ATTR_MASK));
            for (QpField f : QpFieldAttrs.recorded()) {
                Attr a = QpFieldAttrs.attr(f);
                if ((m & f.maskBit()) == 0) {
                    continue;
                }
                expected.add(a);
                if (f.cType() == CType.GID) {
                    assertThat(in.text(a)).as("mask %x %s", m, a).isEqualTo(GidText.format(attr.gid(f).raw()));
                } else {
                    assertThat(in.get(a, -1)).as("mask %x %s", m, a).isEqualTo(f.kind() == ValueKind.BOOL ? 1 : attr.get(f));
                }
            }
            java.util.Set<Attr> present = new java.util.HashSet<>();
            for (int i = 0; i < in.size(); i++) {
                present.add(in.attr(i));
            }
            for (int i = 0; i < in.textSize(); i++) {
                present.add(in.textAttr(i));
            }
            assertThat(present).as("mask %x", m).isEqualTo(expected);
            assertThat(in.get(Attr.ATTR_MASK, -1)).isEqualTo(m);
            assertThat(in.get(Attr.QP_NUM, -1)).isEqualTo(0x11);
        }
    }

    @Test
    void anEmptyAsyncWait_doesNotQueueForTheLockTheCaptureThreadHolds(@TempDir Path out) throws Exception {
        try (Recorder rec = new Recorder()) {
            rec.start(out, session("h"));
            long before = rec.eventsWritten();
            Thread pump = new Thread(() -> rec.onCall(null, new VerbCall.GetAsyncEvent(0x10, null, new CallStatus(0, 0, "", 5))));
            synchronized (rec) { // the capture thread in the middle of a write
                pump.start();
                pump.join(30_000); // a bound, not a speed check: a pump that took the lock never ends here
                assertThat(pump.isAlive()).as("the pump's empty wait waited for the capture thread's lock").isFalse();
            }
            assertThat(rec.eventsWritten()).isEqualTo(before); // an empty wait is not an event
        }
    }

    @Test
    void prepared_thenStarted_writesTheClaimedFolder_withTheCallsHeardWhileItOpened(@TempDir Path out) throws Exception {
        try (Recorder rec = new Recorder()) {
            rec.prepare(out, "h");
            assertThat(out.resolve("h")).isDirectory(); // claimed at once
            rec.onCall(null, new VerbCall.GetDeviceList("lib", 2, new CallStatus(0, 0, "", 10)));
            rec.start(out, session("h"));
            assertThat(rec.folder()).isEqualTo(out.resolve("h"));
            rec.mark("TC01", MarkEvent.Verdict.INFO, "after");
        }
        List<TraceEvent> events = readBack(out, "h");
        assertThat(events.get(0).seq()).isZero(); // SESSION
        assertThat(((CallEvent) events.get(1)).verb()).isEqualTo(Verb.IBV_GET_DEVICE_LIST);
        assertThat(((MarkEvent) events.get(2)).text()).isEqualTo("after");
        assertThat(events).hasSize(4); // and the END
    }

    @Test
    void prepared_butClosedBeforeTheSession_leavesNoFolder(@TempDir Path out) throws Exception {
        Recorder rec = new Recorder();
        rec.prepare(out, "h");
        rec.close();
        assertThat(out.resolve("h")).doesNotExist();
        assertThat(rec.failure()).isNull();
        Recorder.discarding().prepare(out, "h"); // writes nothing, claims nothing
        assertThat(out.resolve("h")).doesNotExist();
    }

    @Test
    void callsBeforeTheSession_followItInOrder(@TempDir Path out) throws Exception {
        try (Recorder rec = new Recorder()) {
            rec.onCall(null, new VerbCall.GetDeviceList("lib", 2, new CallStatus(0, 0, "", 10)));
            rec.onCall(null, new VerbCall.OpenDevice("dev0", 0x77, new CallStatus(0, 0, "", 20)));
            assertThat(rec.started()).isFalse();
            rec.start(out, session("h"));
            rec.mark("TC01", MarkEvent.Verdict.INFO, "after");
        }
        List<TraceEvent> events = readBack(out, "h");
        assertThat(events.get(0).seq()).isZero(); // SESSION
        assertThat(((CallEvent) events.get(1)).verb()).isEqualTo(Verb.IBV_GET_DEVICE_LIST);
        assertThat(((CallEvent) events.get(1)).out().get(Attr.NUM_DEVICES, -1)).isEqualTo(2);
        assertThat(((CallEvent) events.get(2)).in().text(Attr.DEV_NAME)).isEqualTo("dev0");
        assertThat(((MarkEvent) events.get(3)).text()).isEqualTo("after");
    }

    @Test
    void emptyPolls_becomeOneSummaryBeforeTheNextEvent(@TempDir Path out) throws Exception {
        try (Recorder rec = new Recorder();
             Verbs verbs = Verbs.open(VerbsLibrary.bundledSoftverbs());
             DeviceList list = verbs.getDeviceList()) {
            rec.start(out, session("h"));
            try (Context ctx = list.devices().get(0).open(rec);
                 CompletionBatch batch = new CompletionBatch(4)) {
                CompletionQueue cq = ctx.createCq(8);
                for (int i = 0; i < 50; i++) {
                    assertThat(cq.poll(batch)).isZero();
                }
                cq.destroy();
            }
        }
        List<CallEvent> calls = readBack(out, "h").stream().filter(e -> e instanceof CallEvent).map(e -> (CallEvent) e).toList();
        List<Verb> verbs = calls.stream().map(CallEvent::verb).toList();
        assertThat(verbs).containsSubsequence(Verb.IBV_CREATE_CQ, Verb.IBV_POLL_CQ, Verb.IBV_DESTROY_CQ);
        assertThat(verbs.stream().filter(v -> v == Verb.IBV_POLL_CQ).count()).isEqualTo(1);
        CallEvent summary = calls.stream().filter(c -> c.verb() == Verb.IBV_POLL_CQ).findFirst().orElseThrow();
        assertThat(summary.ret()).isZero();
        assertThat(summary.out().get(Attr.POLLED, -1)).isZero();
        assertThat(summary.out().text(Attr.MESSAGE)).isEqualTo("50 empty polls");
        assertThat(summary.in().get(Attr.NUM_ENTRIES, -1)).isEqualTo(4);
    }

    @Test
    void postedChains_keepEveryRequestAndSge_singleRequestsStayInTheInputs(@TempDir Path out) throws Exception {
        int signaled = SendFlag.bits(SendFlag.SIGNALED);
        try (Recorder rec = new Recorder();
             Verbs verbs = Verbs.open(VerbsLibrary.bundledSoftverbs());
             DeviceList list = verbs.getDeviceList();
             NativeMemory mem = NativeMemory.allocate(4096);
             SendBatch send = new SendBatch(4, 3);
             RecvBatch recv = new RecvBatch(4, 2)) {
            rec.start(out, session("h"));
            try (Context ctx = list.devices().get(0).open(rec)) {
                ProtectionDomain pd = ctx.allocPd();
                MemoryRegion mr = pd.regMr(mem, AccessFlag.bits(AccessFlag.LOCAL_WRITE));
                CompletionQueue cq = ctx.createCq(16);
                QueuePair qp = pd.createQp(QpInitAttr.of(QpType.RC, cq, new QpCap(8, 8, 3, 2, 0)));
                recv.clear().add(10).sge(mr, 0, 64).sge(mr, 64, 32).add(11).sge(mr, 128, 16);
                qp.postRecv(recv);
                send.clear().add(20, WrOpcode.RDMA_WRITE_WITH_IMM, 0).sge(mr, 0, 8).rdma(0x7f00_0000_1000L, 0x55).imm(0xCAFE)
                        .add(21, WrOpcode.ATOMIC_CMP_AND_SWP, signaled).sge(mr, 256, 8).atomic(0x7f00_0000_2000L, 0x55, 7, 9)
                        .add(22, WrOpcode.SEND, signaled).sge(mr, 0, 100).sge(mr, 200, 50).sge(mr, 300, 0);
                qp.postSend(send);
                send.clear().add(30, WrOpcode.SEND_WITH_IMM, signaled).sge(mr, 0, 64).imm(0xBEEF);
                qp.postSend(send);
                qp.destroy();
                cq.destroy();
                mr.dereg();
            }
        }
        List<CallEvent> posts = readBack(out, "h").stream().filter(e -> e instanceof CallEvent c
                && WorkRequest.isPost(c.verb())).map(e -> (CallEvent) e).toList();
        assertThat(posts).hasSize(3);

        CallEvent r = posts.get(0);
        assertThat(r.in().get(Attr.WR_COUNT, -1)).isEqualTo(2);
        assertThat(r.in().get(Attr.LENGTH, -1)).isEqualTo(64); // the first SGE, as in format 1.0
        assertThat(r.wrs()).hasSize(2);
        assertThat(r.wrs().get(0).sges()).extracting(WorkRequest.Sge::length).containsExactly(64L, 32L);
        assertThat(r.wrs().get(1).fields().get(Attr.WR_ID, -1)).isEqualTo(11);
        assertThat(r.wrs().get(1).sges()).extracting(WorkRequest.Sge::length).containsExactly(16L);

        CallEvent s = posts.get(1);
        assertThat(s.wrs()).hasSize(3);
        Attrs write = s.wrs().get(0).fields();
        assertThat(write.get(Attr.WR_OPCODE, -1)).isEqualTo(WrOpcode.RDMA_WRITE_WITH_IMM.value());
        assertThat(write.get(Attr.IMM_DATA, -1)).isEqualTo(0xCAFE);
        assertThat(write.get(Attr.REMOTE_ADDR, -1)).isEqualTo(0x7f00_0000_1000L);
        assertThat(write.get(Attr.RKEY, -1)).isEqualTo(0x55);
        Attrs atomic = s.wrs().get(1).fields();
        assertThat(atomic.get(Attr.COMPARE_ADD, -1)).isEqualTo(7);
        assertThat(atomic.get(Attr.SWAP, -1)).isEqualTo(9);
        assertThat(atomic.get(Attr.SEND_FLAGS, -1)).isEqualTo(signaled);
        assertThat(atomic.has(Attr.IMM_DATA)).isFalse();
        assertThat(s.wrs().get(2).sges()).extracting(WorkRequest.Sge::length).containsExactly(100L, 50L, 0L);
        assertThat(s.wrs().get(2).totalLength()).isEqualTo(150);
        assertThat(s.in().get(Attr.IMM_DATA, -1)).isEqualTo(0xCAFE); // the first request's fields stay in `in`

        CallEvent single = posts.get(2);
        assertThat(single.wrs()).isEmpty();
        assertThat(single.workRequests()).hasSize(1);
        assertThat(single.workRequests().get(0).fields().get(Attr.IMM_DATA, -1)).isEqualTo(0xBEEF);
        assertThat(single.workRequests().get(0).sges()).extracting(WorkRequest.Sge::length).containsExactly(64L);
    }

    @Test
    void eachEvent_carriesTheThreadAndTimeOfItsCall_notOfTheWriter(@TempDir Path out) throws Exception {
        long[] window = new long[4];
        try (Recorder rec = new Recorder()) {
            rec.prepare(out, "h");
            Thread capture = new Thread(() -> {
                window[0] = System.nanoTime();
                rec.onCall(null, new VerbCall.GetDeviceList("lib", 1, new CallStatus(0, 0, "", 10))); // before the SESSION
                try {
                    rec.start(out, session("h"));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                window[1] = System.nanoTime();
                rec.mark("TC01", MarkEvent.Verdict.INFO, "first");
                window[2] = System.nanoTime();
                rec.onCall(null, new VerbCall.AllocPd(0x10, 0x20, new CallStatus(0, 0, "", 10)));
                window[3] = System.nanoTime();
            }, "capture-under-test");
            capture.start();
            capture.join(30_000);
            assertThat(capture.isAlive()).isFalse();
        }
        List<TraceEvent> events = readBack(out, "h");
        assertThat(events).hasSize(5); // SESSION, the early call, the mark, the call, END
        for (int i = 0; i < 4; i++) {
            assertThat(events.get(i).header().threadName()).as("event %d", i).isEqualTo("capture-under-test");
        }
        long session = events.get(0).header().monoNanos();
        assertThat(session).isBetween(window[0], window[1]);
        assertThat(events.get(1).header().monoNanos()).isEqualTo(session); // heard before it, written after it
        assertThat(events.get(2).header().monoNanos()).isBetween(window[1], window[2]);
        assertThat(events.get(3).header().monoNanos()).isBetween(window[2], window[3]);
        assertThat(events.get(4).header().threadName()).isNotEqualTo("rdmatrace-trace-writer"); // the END: close()'s caller
    }

    @Test
    void moreEventsThanTheFeedHolds_allReachTheTrace_inTheirOrder(@TempDir Path out) throws Exception {
        int n = TraceFeed.MAX_QUEUED * 3; // the adding thread must wait for the writer, never drop
        try (Recorder rec = new Recorder()) {
            rec.start(out, session("h"));
            for (int i = 0; i < n; i++) {
                rec.mark("TC01", MarkEvent.Verdict.INFO, Integer.toString(i));
            }
        }
        List<TraceEvent> events = readBack(out, "h");
        assertThat(events).hasSize(n + 2);
        for (int i = 0; i < n; i++) {
            assertThat(((MarkEvent) events.get(i + 1)).text()).isEqualTo(Integer.toString(i));
        }
    }

    @Test
    void whileTheCaptureWaits_everyEventIsInTheQueueFile_notInABatchInMemory(@TempDir Path out) throws Exception {
        try (Recorder rec = new Recorder()) {
            rec.start(out, session("h"));
            for (int i = 0; i < 7; i++) { // far less than a batch document holds
                rec.mark("TC01", MarkEvent.Verdict.INFO, "m" + i);
            }
            // a reader beside the live recorder (as `watch` or a kill -9 would find the file) sees all 7 soon
            long deadline = System.nanoTime() + 2_000_000_000L;
            int seen = 0;
            while (seen < 8 && System.nanoTime() < deadline) {
                seen = TraceReader.readAll(out.resolve("h")).events().size();
                Thread.sleep(5);
            }
            assertThat(seen).as("SESSION and the 7 marks in the queue while the recorder is open").isEqualTo(8);
        }
    }
}
