package io.rdmatrace.trace.synth;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.CompletionEvent;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.store.TraceSet;
import io.rdmatrace.trace.model.Verb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyntheticTraceTest {

    @TempDir
    Path out;

    @Test
    void twoHosts_cleanAndConsistentAcrossEnds() throws Exception {
        TraceSet set = SyntheticTrace.write(SyntheticTrace.Spec.of(out, 3, 600));
        assertThat(set.hostIds()).containsExactly("host-a", "host-b");
        TraceReader.Result a = TraceReader.readAll(set.hosts().get(0));
        TraceReader.Result b = TraceReader.readAll(set.hosts().get(1));
        assertThat(a.outcome().isClean()).isTrue();
        assertThat(b.outcome().isClean()).isTrue();

        List<OobEvent> sentByA = oob(a, OobEvent.Direction.SENT, OobEvent.Kind.PARAMS);
        List<OobEvent> recvByB = oob(b, OobEvent.Direction.RECEIVED, OobEvent.Kind.PARAMS);
        assertThat(sentByA).hasSize(3);
        assertThat(recvByB).extracting(OobEvent::attrs).isEqualTo(sentByA.stream().map(OobEvent::attrs)
                .collect(Collectors.toList()));

        // B's RTR rq_psn for connection 0 is the PSN A advertised; its dest_qp_num is A's QPN
        OobEvent p0 = sentByA.get(0);
        CallEvent rtrB = rtr(b).get(0);
        assertThat(rtrB.in().get(Attr.RQ_PSN, -1)).isEqualTo(p0.attrs().get(Attr.PSN, -2));
        assertThat(rtrB.in().get(Attr.DEST_QP_NUM, -1)).isEqualTo(p0.attrs().get(Attr.QP_NUM, -2));

        // every modify is followed by a query of the same QP
        List<TraceEvent> ev = a.events();
        for (int i = 0; i < ev.size(); i++) {
            if (ev.get(i) instanceof CallEvent c && c.verb() == Verb.IBV_MODIFY_QP) {
                CallEvent q = (CallEvent) ev.get(i + 1);
                assertThat(q.verb()).isEqualTo(Verb.IBV_QUERY_QP);
                assertThat(q.handle()).isEqualTo(c.handle());
            }
        }
        long completions = ev.stream().filter(e -> e instanceof CompletionEvent).count();
        assertThat(completions).isEqualTo(2 * (600 / 6));
        assertThat(ev.stream().filter(e -> e instanceof MarkEvent m && m.verdict() == MarkEvent.Verdict.PASS)
                .map(e -> ((MarkEvent) e).step())).containsExactly("TC01", "TC02", "TC03", "TC04");
    }

    @Test
    void psnFault_givesRetryExceededOnTheSender() throws Exception {
        TraceSet set = SyntheticTrace.write(SyntheticTrace.Spec.of(out, 1, 60)
                .withFault(SyntheticTrace.Fault.PSN_OFF_BY_ONE));
        TraceReader.Result b = TraceReader.readAll(set.hosts().get(1));
        assertThat(b.session().overrides()).containsEntry("--advertise-psn", "+1");
        assertThat(b.events().stream().filter(e -> e instanceof CompletionEvent)
                .map(e -> ((CompletionEvent) e).wc().statusName())).contains("IBV_WC_RETRY_EXC_ERR");
    }

    private static List<OobEvent> oob(TraceReader.Result r, OobEvent.Direction d, OobEvent.Kind k) {
        return r.events().stream().filter(e -> e instanceof OobEvent o && o.direction() == d && o.oobKind() == k)
                .map(e -> (OobEvent) e).collect(Collectors.toList());
    }

    private static List<CallEvent> rtr(TraceReader.Result r) {
        return r.events().stream().filter(e -> e instanceof CallEvent c && c.verb() == Verb.IBV_MODIFY_QP
                && c.in().get(Attr.QP_STATE, -1) == 2).map(e -> (CallEvent) e).collect(Collectors.toList());
    }
}
