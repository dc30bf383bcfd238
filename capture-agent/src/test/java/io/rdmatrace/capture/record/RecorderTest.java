package io.rdmatrace.capture.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.trace.Attr;
import io.rdmatrace.trace.Attrs;
import io.rdmatrace.trace.CallEvent;
import io.rdmatrace.trace.MarkEvent;
import io.rdmatrace.trace.SessionInfo;
import io.rdmatrace.trace.TraceEvent;
import io.rdmatrace.trace.TraceReader;
import io.rdmatrace.trace.Verb;
import io.rdmatrace.verbs.AhAttr;
import io.rdmatrace.verbs.CallStatus;
import io.rdmatrace.verbs.CompletionBatch;
import io.rdmatrace.verbs.CompletionQueue;
import io.rdmatrace.verbs.Context;
import io.rdmatrace.verbs.DeviceList;
import io.rdmatrace.verbs.Gid;
import io.rdmatrace.verbs.Mtu;
import io.rdmatrace.verbs.QpAttr;
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
}
