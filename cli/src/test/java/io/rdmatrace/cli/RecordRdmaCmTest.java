package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.CmEvent;
import io.rdmatrace.trace.store.ReadOutcome;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.model.Verb;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `rdmatrace record` of unmodified rping on softverbs' librdmacm (issue 15): the tracing librdmacm
 * records the rdma_* calls and the CM events on both hosts, analyze pairs the connection with no
 * error, and a connect where nobody listens is diagnosed by cm-no-listener.
 */
class RecordRdmaCmTest {
    private static final int ATTEMPTS = 20;

    @Test
    void rping_bothHostsRecorded_cmEventsAndAnalyzeClean(@TempDir Path work) throws Exception {
        Path rping = InstalledPrograms.require("rping");
        LoopbackPair ips = LoopbackPair.random();
        String port = Integer.toString(ThreadLocalRandom.current().nextInt(20000, 60000));
        Path out = work.resolve("trace");
        List<String> common = List.of("-a", ips.a(), "-p", port, "-C", "3", "-V", "-v");
        try (RecordJvm a = RecordJvm.start("a", Map.of("SOFTVERBS_DEVICES", "ca@" + ips.a()), work,
                concat(List.of("--soft", "--out", out.toString(), "--host-id", "a", "--", rping.toString(), "-s"), common))) {
            // the client is refused (REJECTED 8) until the server listens: retry with a fresh trace folder
            int code = -1;
            for (int i = 0; i < ATTEMPTS && code != 0; i++) {
                deleteTree(out.resolve("b"));
                try (RecordJvm b = RecordJvm.start("b" + i, Map.of("SOFTVERBS_DEVICES", "cb@" + ips.b()), work,
                        concat(List.of("--soft", "--out", out.toString(), "--host-id", "b", "--", rping.toString(), "-c"),
                                common))) {
                    code = b.await();
                    if (code != 0) {
                        assertThat(b.stderr()).as(b.describe()).contains("RDMA_CM_EVENT_REJECTED");
                    }
                }
            }
            assertThat(code).isZero();
            assertThat(a.await()).as(a.describe()).isZero();
        }
        TraceReader.Result ra = TraceReader.readAll(out.resolve("a"));
        TraceReader.Result rb = TraceReader.readAll(out.resolve("b"));
        assertThat(ra.outcome().status()).isEqualTo(ReadOutcome.Status.CLEAN);
        // the server: listen on its address and port, a CONNECT_REQUEST, accept, ESTABLISHED, DISCONNECTED
        assertThat(calls(ra.events(), Verb.RDMA_LISTEN)).singleElement()
                .matches(c -> c.ret() == 0 && (ips.a() + ":" + port).equals(c.in().text(Attr.SRC_ADDR)));
        assertThat(cmEvents(ra.events())).extracting(CmEvent::eventTypeName).containsSubsequence(
                "RDMA_CM_EVENT_CONNECT_REQUEST", "RDMA_CM_EVENT_ESTABLISHED", "RDMA_CM_EVENT_DISCONNECTED");
        CmEvent request = cmEvents(ra.events()).get(0);
        // an event is dated when rdma_get_cm_event returned it, after the listen (not when the wait began)
        assertThat(request.header().monoNanos())
                .isGreaterThan(calls(ra.events(), Verb.RDMA_LISTEN).get(0).header().monoNanos());
        assertThat(request.attrs().text(Attr.DST_ADDR)).startsWith(ips.b() + ":");
        long qpnB = calls(rb.events(), Verb.RDMA_CREATE_QP).get(0).out().get(Attr.QP_NUM, -1);
        assertThat(request.attrs().get(Attr.PEER_QP_NUM, -2)).isEqualTo(qpnB);
        CallEvent accept = calls(ra.events(), Verb.RDMA_ACCEPT).get(0);
        assertThat(accept.ret()).isZero();
        assertThat(accept.handle()).isEqualTo(request.id());
        // the client: resolve address and route, connect, ESTABLISHED, with the QPs the CM moved to RTS
        assertThat(cmEvents(rb.events())).extracting(CmEvent::eventTypeName).containsSubsequence(
                "RDMA_CM_EVENT_ADDR_RESOLVED", "RDMA_CM_EVENT_ROUTE_RESOLVED", "RDMA_CM_EVENT_ESTABLISHED");
        assertThat(calls(rb.events(), Verb.RDMA_RESOLVE_ADDR)).singleElement()
                .matches(c -> (ips.a() + ":" + port).equals(c.in().text(Attr.DST_ADDR)));
        assertThat(calls(rb.events(), Verb.RDMA_CONNECT)).singleElement().matches(c -> c.ret() == 0);
        assertThat(calls(rb.events(), Verb.IBV_MODIFY_QP)).anyMatch(c -> c.in().get(Attr.QP_STATE, -1) == 3);

        StringWriter report = new StringWriter();
        int exit = Main.execute(new PrintWriter(report), new PrintWriter(new StringWriter()), "analyze", out.toString());
        assertThat(report.toString()).contains("matched by dest_qp_num").contains("0 error(s)");
        assertThat(exit).as(report.toString()).isZero();
    }

    @Test
    void connectWithoutListener_recordedRejected8_cmNoListener(@TempDir Path work) throws Exception {
        Path rping = InstalledPrograms.require("rping");
        LoopbackPair ips = LoopbackPair.random();
        String port = Integer.toString(ThreadLocalRandom.current().nextInt(20000, 60000));
        Path out = work.resolve("trace");
        // the server's device is up (a listener on another port), the client connects to port + 1
        try (RecordJvm a = RecordJvm.start("a", Map.of("SOFTVERBS_DEVICES", "na@" + ips.a()), work,
                List.of("--soft", "--out", out.toString(), "--host-id", "a", "--", rping.toString(), "-s", "-a", ips.a(),
                        "-p", port, "-C", "1"))) {
            int code = 0;
            for (int i = 0; i < ATTEMPTS && code == 0; i++) {
                deleteTree(out.resolve("b"));
                try (RecordJvm b = RecordJvm.start("b" + i, Map.of("SOFTVERBS_DEVICES", "nb@" + ips.b()), work,
                        List.of("--soft", "--out", out.toString(), "--host-id", "b", "--", rping.toString(), "-c", "-a",
                                ips.a(), "-p", Integer.toString(Integer.parseInt(port) + 1), "-C", "1"))) {
                    code = b.await();
                    assertThat(b.stderr()).as(b.describe()).contains("RDMA_CM_EVENT_REJECTED, error 8");
                }
            }
            a.close();
        }
        TraceReader.Result rb = TraceReader.readAll(out.resolve("b"));
        assertThat(cmEvents(rb.events())).filteredOn(e -> e.eventType() == 8).singleElement().satisfies(e -> {
            assertThat(e.status()).isEqualTo(8);
            assertThat(e.attrs().get(Attr.REJECT_REASON, -1)).isEqualTo(8);
            assertThat(e.attrs().text(Attr.DST_ADDR)).isEqualTo(ips.a() + ":" + (Integer.parseInt(port) + 1));
        });
        StringWriter report = new StringWriter();
        Main.execute(new PrintWriter(report), new PrintWriter(new StringWriter()), "analyze", out.resolve("b").toString());
        assertThat(report.toString()).contains("cm-no-listener")
                .contains("b connected to " + ips.a() + ":" + (Integer.parseInt(port) + 1))
                .contains("reason 8 (IB_CM_REJ_INVALID_SERVICE_ID): nobody listens there");
    }

    private static List<CallEvent> calls(List<TraceEvent> events, Verb verb) {
        return events.stream().filter(e -> e instanceof CallEvent c && c.verb() == verb).map(e -> (CallEvent) e).toList();
    }

    private static List<CmEvent> cmEvents(List<TraceEvent> events) {
        return events.stream().filter(e -> e instanceof CmEvent).map(e -> (CmEvent) e).toList();
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }

    private static void deleteTree(Path p) throws java.io.IOException {
        if (Files.exists(p)) {
            try (var s = Files.walk(p)) {
                for (Path f : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(f);
                }
            }
        }
    }

}
