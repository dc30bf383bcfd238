package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.CmEvent;
import io.rdmatrace.trace.model.Verb;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * `capture --soft --cm`: two agents as two processes (one JVM per side for the class) connect their QPs
 * through softverbs' librdmacm. The clean run passes TC01–TC04 and analyzes clean with the rdma_cm
 * calls and events in the trace; a listener that rejects (--cm-reject) is diagnosed by cm-rejected
 * with its private data; a connect to a port nobody listens on (--cm-port 1) by cm-no-listener; a REQ
 * with more private data than it holds (--cm-private-data 64) is refused and diagnosed by cm-private-data.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CaptureCmTest {
    private CaptureHosts hosts;

    @BeforeAll
    void startHosts() throws Exception {
        hosts = new CaptureHosts();
    }

    @AfterAll
    void stopHosts() {
        if (hosts != null) {
            hosts.close();
        }
    }

    private CaptureHosts.Run run(Path out, List<String> a, List<String> b) throws Exception {
        List<String> ca = new ArrayList<>(List.of("--cm", "--cq-timeout-ms", "1500", "--oob-timeout-ms", "15000"));
        ca.addAll(a);
        List<String> cb = new ArrayList<>(List.of("--cm", "--cq-timeout-ms", "1500", "--oob-timeout-ms", "15000"));
        cb.addAll(b);
        CaptureHosts.Run r = hosts.captureOnDeviceAddress(out, ca, cb);
        System.out.println("---- hostA exit " + r.a().exit() + "\n" + r.a().output() + "---- hostB exit " + r.b().exit()
                + "\n" + r.b().output());
        return r;
    }

    @Test
    void clean_connectsThroughRdmaCm_passesAndAnalyzesClean(@TempDir Path out) throws Exception {
        CaptureHosts.Run r = run(out, List.of("--op", "write", "--iterations", "2"), List.of("--op", "write", "--iterations", "2"));
        assertThat(r.a().exit()).isZero();
        assertThat(r.b().exit()).isZero();
        CaptureTraces a = CaptureTraces.read(out, "hostA").assertComplete();
        CaptureTraces b = CaptureTraces.read(out, "hostB").assertComplete();
        assertThat(a.verdicts()).containsExactly("TC01 PASS", "TC02 PASS", "TC03 PASS", "TC04 PASS");
        assertThat(b.verdicts()).containsExactly("TC01 PASS", "TC02 PASS", "TC03 PASS", "TC04 PASS");
        // the listener: listen on its address, the request, RTR, accept, ESTABLISHED, RTS, DISCONNECTED
        assertThat(a.calls(Verb.RDMA_LISTEN)).singleElement()
                .matches(c -> c.ret() == 0 && c.in().text(Attr.SRC_ADDR).startsWith(hosts.addressA() + ":"));
        assertThat(cmEvents(a)).containsSubsequence("RDMA_CM_EVENT_CONNECT_REQUEST", "RDMA_CM_EVENT_ESTABLISHED",
                "RDMA_CM_EVENT_DISCONNECTED");
        long qpB = b.calls(Verb.IBV_CREATE_QP).get(0).out().get(Attr.QP_NUM, -1);
        long qpA = a.calls(Verb.IBV_CREATE_QP).get(0).out().get(Attr.QP_NUM, -1);
        CallEvent connect = b.calls(Verb.RDMA_CONNECT).get(0);
        assertThat(connect.in().get(Attr.QP_NUM, -1)).isEqualTo(qpB);
        assertThat(connect.in().get(Attr.PRIVATE_DATA_LEN, -1)).isEqualTo(24);
        assertThat(a.calls(Verb.RDMA_ACCEPT).get(0).in().get(Attr.QP_NUM, -1)).isEqualTo(qpA);
        // the connector: resolve, connect, CONNECT_RESPONSE (its own QP), rdma_establish
        assertThat(cmEvents(b)).containsSubsequence("RDMA_CM_EVENT_ADDR_RESOLVED", "RDMA_CM_EVENT_ROUTE_RESOLVED",
                "RDMA_CM_EVENT_CONNECT_RESPONSE", "RDMA_CM_EVENT_DISCONNECTED");
        assertThat(b.calls(Verb.RDMA_ESTABLISH)).singleElement().matches(c -> c.ret() == 0);
        // RTR with the CM's values: the peer's QPN, then RTS; each modify recorded with its query
        for (CaptureTraces t : List.of(a, b)) {
            long peer = t == a ? qpB : qpA;
            assertThat(t.calls(Verb.RDMA_INIT_QP_ATTR)).extracting(c -> c.in().get(Attr.QP_STATE, -1)).containsExactly(2L, 3L);
            List<CallEvent> rtr = t.calls(Verb.IBV_MODIFY_QP).stream().filter(c -> c.in().get(Attr.QP_STATE, -1) == 2).toList();
            assertThat(rtr).singleElement().matches(c -> c.ret() == 0 && c.in().get(Attr.DEST_QP_NUM, -1) == peer);
            assertThat(t.calls(Verb.RDMA_DISCONNECT)).singleElement().matches(c -> c.ret() == 0);
            assertThat(t.calls(Verb.RDMA_DESTROY_ID)).isNotEmpty().allMatch(c -> c.ret() == 0);
        }
        String report = analyze(out);
        assertThat(report).contains("0 error(s), 0 warning(s)");
    }

    @Test
    void cmReject_connectorDiagnosedRejected28WithPrivateData(@TempDir Path out) throws Exception {
        CaptureHosts.Run r = run(out, List.of("--cm-reject"), List.of());
        assertThat(r.a().exit()).isEqualTo(1);
        assertThat(r.b().exit()).isEqualTo(1);
        assertThat(r.b().output()).contains("RDMA_CM_EVENT_REJECTED, reason 28");
        CaptureTraces b = CaptureTraces.read(out, "hostB");
        assertThat(b.events()).filteredOn(e -> e instanceof CmEvent c && c.eventType() == 8).singleElement()
                .satisfies(e -> assertThat(((CmEvent) e).status()).isEqualTo(28));
        String report = analyze(out);
        assertThat(report).contains("cm-rejected").contains("reason 28")
                .contains("rdmatrace capture --cm-reject: connection refused on purpose");
    }

    @Test
    void cmPortNobodyListens_diagnosedNoListener(@TempDir Path out) throws Exception {
        CaptureHosts.Run r = run(out, List.of(), List.of("--cm-port", "1"));
        assertThat(r.b().exit()).isEqualTo(1);
        assertThat(r.b().output()).contains("RDMA_CM_EVENT_REJECTED, reason 8");
        String report = analyze(out.resolve("hostB"));
        assertThat(report).contains("cm-no-listener").contains("connected to " + hosts.addressA() + ":1");
    }

    @Test
    void cmPrivateDataOversized_connectRefused_diagnosedPrivateData(@TempDir Path out) throws Exception {
        CaptureHosts.Run r = run(out, List.of(), List.of("--cm-private-data", "64"));
        assertThat(r.b().exit()).isEqualTo(1);
        assertThat(r.b().output()).contains("rdma_connect with 64 bytes of private data failed: EINVAL");
        String report = analyze(out.resolve("hostB"));
        assertThat(report).contains("cm-private-data");
    }

    private static List<String> cmEvents(CaptureTraces t) {
        return t.events().stream().filter(e -> e instanceof CmEvent).map(e -> ((CmEvent) e).eventTypeName()).toList();
    }

    private static String analyze(Path in) {
        StringWriter report = new StringWriter();
        Main.execute(new PrintWriter(report), new PrintWriter(new StringWriter()), "analyze", in.toString());
        System.out.println(report);
        return report.toString();
    }
}
