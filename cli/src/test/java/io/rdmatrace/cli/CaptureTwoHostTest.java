package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.CompletionEvent;
import io.rdmatrace.trace.model.CountersEvent;
import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.model.Verb;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two agents as two processes on softverbs (one JVM per side for the whole class): the clean
 * bring-up passes every step, each fault override produces the failure it should, and every trace
 * reads back complete through TraceReader.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CaptureTwoHostTest {
    /** Failure cases wait for completions 1.5 s, not the 5 s default (unless a test sets its own). */
    private static List<String> fast(List<String> args) {
        List<String> all = new java.util.ArrayList<>(args);
        if (!args.contains("--cq-timeout-ms")) {
            all.addAll(List.of("--cq-timeout-ms", "1500"));
        }
        if (!args.contains("--oob-timeout-ms")) {
            all.addAll(List.of("--oob-timeout-ms", "15000"));
        }
        return all;
    }
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
        CaptureHosts.Run r = hosts.capture(out, fast(a), fast(b));
        System.out.println("---- hostA exit " + r.a().exit() + "\n" + r.a().output() + "---- hostB exit " + r.b().exit() + "\n" + r.b().output());
        return r;
    }

    @Test
    void clean_passesAllFourStepsOnBothHosts(@TempDir Path out) throws Exception {
        CaptureHosts.Run r = run(out, List.of(), List.of());
        assertThat(r.a().exit()).isZero();
        assertThat(r.b().exit()).isZero();
        assertThat(r.a().output()).contains("TC04").contains("PASS");
        for (String host : List.of("hostA", "hostB")) {
            CaptureTraces t = CaptureTraces.read(out, host).assertComplete();
            assertThat(t.verdicts()).containsExactly("TC01 PASS", "TC02 PASS", "TC03 PASS", "TC04 PASS");
            assertThat(t.result().session().hostId()).isEqualTo(host);
            // every modify is followed by a query of the same QP
            List<CallEvent> calls = t.events().stream().filter(e -> e instanceof CallEvent).map(e -> (CallEvent) e).toList();
            for (int i = 0; i < calls.size(); i++) {
                if (calls.get(i).verb() == Verb.IBV_MODIFY_QP) {
                    assertThat(calls.get(i + 1).verb()).isEqualTo(Verb.IBV_QUERY_QP);
                    assertThat(calls.get(i + 1).handle()).isEqualTo(calls.get(i).handle());
                }
            }
            // the probe (refused) and INIT, RTR, RTS
            List<CallEvent> modifies = t.calls(Verb.IBV_MODIFY_QP);
            assertThat(modifies).extracting(c -> c.in().get(Attr.QP_STATE, -1)).containsExactly(3L, 1L, 2L, 3L);
            assertThat(modifies.get(0).errnoName()).isEqualTo("EINVAL");
            assertThat(modifies.subList(1, 4)).allMatch(c -> c.ret() == 0);
            // one PARAMS each way carrying the sender's QPN, and the barrier
            OobEvent sent = t.oob(OobEvent.Kind.PARAMS, OobEvent.Direction.SENT).get(0);
            assertThat(sent.attrs().get(Attr.QP_NUM, -1)).isEqualTo(t.calls(Verb.IBV_CREATE_QP).get(0).out().get(Attr.QP_NUM, -2));
            assertThat(t.oob(OobEvent.Kind.PARAMS, OobEvent.Direction.RECEIVED)).hasSize(1);
            assertThat(t.oob(OobEvent.Kind.BARRIER_ACK, OobEvent.Direction.RECEIVED)).hasSize(1);
            // a send and a receive completion, both successful; counters at start and end
            assertThat(t.completions()).hasSize(2).allMatch(c -> c.wc().status() == 0);
            assertThat(t.events()).filteredOn(e -> e instanceof CountersEvent).hasSize(2);
            assertThat(t.verbs()).endsWith(Verb.IBV_CLOSE_DEVICE);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"--qp-type ud", "--qp-type uc --op write", "--op write --iterations 2", "--op read",
            "--qps 3 --iterations 3", "--token s3cret --no-barrier"})
    void variants_passCleanly(String options, @TempDir Path out) throws Exception {
        List<String> args = List.of(options.split(" "));
        CaptureHosts.Run r = run(out, args, args);
        assertThat(r.a().exit()).as(r.a().output()).isZero();
        assertThat(r.b().exit()).as(r.b().output()).isZero();
        CaptureTraces.read(out, "hostA").assertComplete();
        CaptureTraces.read(out, "hostB").assertComplete();
    }

    @Test
    void advertisePsnOffByOne_isRetryExceededAtTheSender(@TempDir Path out) throws Exception {
        CaptureHosts.Run r = run(out, List.of(), List.of("--advertise-psn", "-1", "--retry-cnt", "2"));
        assertThat(r.b().exit()).isEqualTo(ExitCode.FAILURE);
        assertThat(r.a().exit()).isEqualTo(ExitCode.FAILURE);
        CaptureTraces b = CaptureTraces.read(out, "hostB").assertComplete();
        assertThat(b.result().session().overrides()).containsEntry("--advertise-psn", "-1");
        assertThat(b.completions()).anyMatch(c -> c.wc().statusName().equals("IBV_WC_RETRY_EXC_ERR"));
        assertThat(b.mark("TC04", io.rdmatrace.trace.model.MarkEvent.Verdict.FAIL).text()).contains("IBV_WC_RETRY_EXC_ERR");
        // what B told A is one below what B programs
        long told = b.oob(OobEvent.Kind.PARAMS, OobEvent.Direction.SENT).get(0).attrs().get(Attr.PSN, -1);
        long programmed = b.calls(Verb.IBV_MODIFY_QP).get(3).in().get(Attr.SQ_PSN, -1);
        assertThat(told).isEqualTo((programmed - 1) & 0xFFFFFF);
        CaptureTraces a = CaptureTraces.read(out, "hostA").assertComplete();
        assertThat(a.verdicts()).contains("TC04 FAIL");
    }

    @Test
    void noReceivesAndNoRnrRetries_isRnrRetryExceeded(@TempDir Path out) throws Exception {
        CaptureHosts.Run r = run(out, List.of("--post-recv", "never"), List.of("--rnr-retry", "0"));
        assertThat(r.a().exit()).isEqualTo(ExitCode.FAILURE);
        assertThat(r.b().exit()).isEqualTo(ExitCode.FAILURE);
        CaptureTraces a = CaptureTraces.read(out, "hostA").assertComplete();
        assertThat(a.calls(Verb.IBV_POST_RECV)).isEmpty();
        // hostA's own send may fail too once hostB's QP went to ERR (retry exceeded): only that TC04 failed is certain
        assertThat(a.verdicts()).contains("TC04 FAIL");
        CaptureTraces b = CaptureTraces.read(out, "hostB").assertComplete();
        assertThat(b.completions()).extracting(c -> c.wc().statusName()).contains("IBV_WC_RNR_RETRY_EXC_ERR");
        assertThat(b.calls(Verb.IBV_MODIFY_QP).get(3).in().get(Attr.RNR_RETRY, -1)).isZero();
    }

    @Test
    void pathMtuOnOneSideOnly_breaksTheTransfer(@TempDir Path out) throws Exception {
        CaptureHosts.Run r = run(out, List.of("--path-mtu", "4096"), List.of());
        assertThat(r.a().exit()).isEqualTo(ExitCode.FAILURE);
        assertThat(r.b().exit()).isEqualTo(ExitCode.FAILURE);
        CaptureTraces a = CaptureTraces.read(out, "hostA").assertComplete();
        CaptureTraces b = CaptureTraces.read(out, "hostB").assertComplete();
        assertThat(a.calls(Verb.IBV_MODIFY_QP).get(2).in().get(Attr.PATH_MTU, -1)).isEqualTo(5);
        assertThat(b.calls(Verb.IBV_MODIFY_QP).get(2).in().get(Attr.PATH_MTU, -1)).isEqualTo(3);
        // both sides end with error completions
        assertThat(a.completions()).anyMatch(c -> c.wc().status() != 0);
        assertThat(b.completions()).anyMatch(c -> c.wc().status() != 0);
    }

    @Test
    void noGrhOnRoce_refusesRtrAndStopsThePeerPromptly(@TempDir Path out) throws Exception {
        CaptureHosts.Run r = run(out, List.of(), List.of("--no-grh"));
        assertThat(r.b().exit()).isEqualTo(ExitCode.FAILURE);
        assertThat(r.a().exit()).isEqualTo(ExitCode.FAILURE);
        CaptureTraces b = CaptureTraces.read(out, "hostB").assertComplete();
        CallEvent rtr = b.calls(Verb.IBV_MODIFY_QP).get(2);
        assertThat(rtr.in().get(Attr.IS_GLOBAL, -1)).isZero();
        assertThat(rtr.errnoName()).isEqualTo("EINVAL");
        assertThat(b.verdicts()).containsExactly("TC01 PASS", "TC02 PASS", "TC03 FAIL", "TC04 SKIP");
        CaptureTraces a = CaptureTraces.read(out, "hostA").assertComplete();
        assertThat(a.mark("TC03", io.rdmatrace.trace.model.MarkEvent.Verdict.FAIL).text()).contains("hostB gave up");
        assertThat(a.oob(OobEvent.Kind.ERROR, OobEvent.Direction.RECEIVED)).hasSize(1);
    }

    @Test
    void wrongToken_isRefusedAndRecorded(@TempDir Path out) throws Exception {
        CaptureHosts.Run r = run(out, List.of("--token", "Zq7-right-secret", "--oob-timeout-ms", "3000"), List.of("--token", "Zq7-wrong-secret"));
        assertThat(r.a().exit()).isEqualTo(ExitCode.FAILURE);
        assertThat(r.b().exit()).isEqualTo(ExitCode.FAILURE);
        CaptureTraces b = CaptureTraces.read(out, "hostB").assertComplete();
        assertThat(b.mark("TC03", io.rdmatrace.trace.model.MarkEvent.Verdict.FAIL).text()).contains("auth_failed");
        assertThat(b.result().session().overrides()).containsEntry("--token", "(set)");
        CaptureTraces a = CaptureTraces.read(out, "hostA").assertComplete();
        assertThat(a.oob(OobEvent.Kind.INVALID, OobEvent.Direction.RECEIVED)).isNotEmpty();
        // the secret is in neither trace (command line and overrides mask it)
        assertThat(a.result().session().commandLine()).contains("--token ***").doesNotContain("Zq7");
        assertThat(a.events()).noneMatch(e -> e.toString().contains("Zq7"));
        assertThat(b.events()).noneMatch(e -> e.toString().contains("Zq7"));
    }

    @Test
    void completions_areRecordedWithTheirQp(@TempDir Path out) throws Exception {
        CaptureHosts.Run r = run(out, List.of("--iterations", "2"), List.of("--iterations", "2"));
        assertThat(r.a().exit()).isZero();
        CaptureTraces a = CaptureTraces.read(out, "hostA").assertComplete();
        long qpn = a.calls(Verb.IBV_CREATE_QP).get(0).out().get(Attr.QP_NUM, -1);
        assertThat(a.completions()).hasSize(4).allMatch(c -> c.wc().qpNum() == qpn);
        assertThat(a.completions()).extracting(CompletionEvent::wc).extracting(w -> w.opcodeName())
                .contains("IBV_WC_SEND", "IBV_WC_RECV");
    }

    @Test
    void scenarioFile_runsTheUsersStepsAndExpectations(@TempDir Path out) throws Exception {
        // a user's probe as data: no peer involved; INIT→RTS must be refused and leave the QP in INIT
        Path file = out.resolve("probe.yaml");
        java.nio.file.Files.writeString(file, String.join("\n",
                "name: init-to-rts-probe",
                "tests:",
                "  - id: P01",
                "    title: resources",
                "    steps:",
                "      - do: alloc_pd",
                "      - do: reg_mr",
                "      - do: create_cq",
                "        cqe: 8",
                "      - do: create_qp",
                "  - id: P02",
                "    title: INIT then an illegal INIT->RTS",
                "    steps:",
                "      - do: modify_qp",
                "        attrs: {qp_state: INIT, pkey_index: 0, port_num: $ib_port, qp_access_flags: local-write}",
                "        expect: {qp_state: INIT}",
                "      - do: modify_qp",
                "        attrs: {qp_state: RTS, sq_psn: $sq_psn}",
                "        expect: {ret: EINVAL, qp_state: INIT}",
                ""));
        List<String> args = List.of("--scenario", file.toString());
        CaptureHosts.Run r = run(out.resolve("t"), args, args);
        assertThat(r.a().exit()).as(r.a().output()).isZero();
        assertThat(r.b().exit()).as(r.b().output()).isZero();
        CaptureTraces a = CaptureTraces.read(out.resolve("t"), "hostA").assertComplete();
        assertThat(a.verdicts()).containsExactly("P01 PASS", "P02 PASS");
        assertThat(a.result().session().scenario()).endsWith("probe.yaml");
        List<CallEvent> modifies = a.calls(Verb.IBV_MODIFY_QP);
        assertThat(modifies).hasSize(2);
        assertThat(modifies.get(1).errnoName()).isEqualTo("EINVAL");
        assertThat(a.oob(OobEvent.Kind.HELLO, OobEvent.Direction.SENT)).isEmpty();
    }
}
