package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rdmatrace.analyzer.AnalysisDatabase;
import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.Analyzer;
import io.rdmatrace.analyzer.ClockEstimate;
import io.rdmatrace.analyzer.Finding;
import io.rdmatrace.analyzer.Severity;
import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.analyzer.rule.RuleCatalog;
import io.rdmatrace.trace.model.EndEvent;
import io.rdmatrace.trace.model.EventHeader;
import io.rdmatrace.trace.model.TraceEnding;
import io.rdmatrace.trace.store.TraceReader;

/**
 * Unmodified ibv_rc_pingpong recorded on two softverbs "hosts" (9000-byte links) and analyzed with
 * no out-of-band channel of ours: the connection is paired and the clock estimated from the
 * traffic (checked against the truth: both processes stamp CLOCK_MONOTONIC, so their traces'
 * wall-minus-monotonic difference is the real offset of their wall stamps), and the program's own
 * options make faults that are diagnosed on the host that made them.
 */
class RecordedProgramAnalysisTest {

    @Test
    void cleanPingpong_pairedAndClockWithinItsBound(@TempDir Path work) throws Exception {
        Path out = pingpong(work, List.of("-g", "3", "-n", "100"), List.of("-g", "3", "-n", "100"));
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            AnalysisResult result = analyze(db, out);
            assertThat(result.connections()).singleElement()
                    .satisfies(c -> assertThat(c.matchedBy()).isEqualTo("dest_qp_num"));
            assertThat(result.findings()).filteredOn(f -> f.severity() != Severity.INFO).isEmpty();
            ClockEstimate clock = result.clocks().stream().filter(c -> c.host().equals("b")).findFirst().orElseThrow();
            assertThat(clock.method()).isEqualTo("causality");
            long truth = wallMinusMono(out.resolve("b")) - wallMinusMono(out.resolve("a"));
            assertThat(Math.abs(clock.offsetNs() - truth)).as("%s; truth %d ns", clock.describe(), truth)
                    .isLessThanOrEqualTo(clock.uncertaintyNs());
            assertThat(clock.samples()).isGreaterThanOrEqualTo(200);
        }
    }

    @Test
    void pathMtu4096Against1024_onThe4096Side_gidIndex1_onThatSide(@TempDir Path work) throws Exception {
        Path mtu = pingpong(work.resolve("mtu"), List.of("-g", "3", "-m", "1024", "-n", "5"),
                List.of("-g", "3", "-m", "4096", "-n", "5"));
        assertThat(findings(mtu)).contains("path-mtu-mismatch b").doesNotContain("path-mtu-mismatch a");
        Path gid = pingpong(work.resolve("gid"), List.of("-g", "3", "-n", "5"), List.of("-g", "1", "-n", "5"));
        assertThat(findings(gid)).contains("gid-index b").doesNotContain("gid-index a");
    }

    /**
     * Issue 28: the hangs users chase end by `timeout` killing the job. The client with the wrong
     * GID index fails, the server waits for it until killed; both traces are analysed and the
     * cause is on the -g 1 side. ~12 s.
     */
    @Test
    void gidIndex1Against3_serverKilledByTimeout_bothHostsAnalysed_gidIndexOnTheG1Side(@TempDir Path work)
            throws Exception {
        Path out = recordUnderTimeout(work, "ibv_rc_pingpong", List.of("-g", "3", "-n", "5"), List.of("-g", "1", "-n", "5"));
        assertThat(findings(out)).contains("gid-index b").doesNotContain("gid-index a").doesNotContain("host-missing a")
                .doesNotContain("host-missing b");
    }

    /**
     * UC sends of 4096 bytes on a path one end set to 1024: dropped, and both ends hang until
     * `timeout` kills them. ~14 s.
     */
    @Test
    void ucPathMtu4096Against1024_bothKilledByTimeout_pathMtuMismatch(@TempDir Path work) throws Exception {
        Path out = recordUnderTimeout(work, "ibv_uc_pingpong", List.of("-g", "3", "-m", "1024", "-n", "5"),
                List.of("-g", "3", "-m", "4096", "-n", "5"));
        assertThat(findings(out)).contains("path-mtu-mismatch b").doesNotContain("path-mtu-mismatch a")
                .doesNotContain("host-missing a").doesNotContain("host-missing b");
    }

    /** Seconds `timeout` gives each recorded side: the server's include the client's JVM start-up. */
    private static final String TIMEOUT_SECONDS = "10";

    /**
     * Records server a and client b on 9000-byte softverbs links, each `record` run by {@code timeout
     * -s TERM}: a side still running when its time is up gets SIGTERM and its trace ends naming it.
     * A side that ended by itself (a failed client) keeps its own status.
     */
    private static Path recordUnderTimeout(Path work, String program, List<String> serverArgs, List<String> clientArgs)
            throws Exception {
        Path tool = InstalledPrograms.require(program);
        Files.createDirectories(work);
        LoopbackPair ips = LoopbackPair.random();
        String port = Integer.toString(RecordJvm.freeTcpPort());
        Path out = work.resolve("trace");
        List<String> timeout = List.of("timeout", "-s", "TERM", TIMEOUT_SECONDS);
        List<String> a = new ArrayList<>(List.of("--soft", "--grace", "2", "--out", out.toString(), "--host-id", "a", "--",
                tool.toString(), "-d", "pa", "-p", port));
        a.addAll(serverArgs);
        List<String> b = new ArrayList<>(List.of("--soft", "--grace", "2", "--out", out.toString(), "--host-id", "b", "--",
                tool.toString(), "-d", "pb", "-p", port));
        b.addAll(clientArgs);
        b.add(ips.a());
        try (RecordJvm server = RecordJvm.start("a", Map.of("SOFTVERBS_DEVICES", "pa@" + ips.a() + ":mtu=9000"), work, a,
                timeout)) {
            server.awaitListening(Integer.parseInt(port));
            try (RecordJvm client = RecordJvm.start("b", Map.of("SOFTVERBS_DEVICES", "pb@" + ips.b() + ":mtu=9000"), work,
                    b, timeout)) {
                client.await();
            }
            assertThat(server.await()).as("the server hung until timeout's SIGTERM: %s", server.describe()).isEqualTo(124);
        }
        TraceEnding ending = ((EndEvent) TraceReader.readAll(out.resolve("a")).events().stream()
                .reduce((x, y) -> y).orElseThrow()).ending();
        // timeout signals its whole process group, and the program shares record's: either record's
        // handler passes SIGTERM on first (INTERRUPTED), or the program dies of timeout's own SIGTERM
        // before it runs (KILLED); both name SIGTERM
        if (ending.how() == TraceEnding.How.INTERRUPTED) {
            assertThat(ending.recorderSignal()).as(ending.toString()).isEqualTo(15);
        } else {
            assertThat(ending.how()).as(ending.toString()).isEqualTo(TraceEnding.How.KILLED);
            assertThat(ending.signal()).as(ending.toString()).isEqualTo(15);
        }
        return out;
    }

    @Test
    void perftestSendLat_recordedOnBothHosts_bothExit0_pairedAndClean(@TempDir Path work) throws Exception {
        List<String> args = List.of("-x", "3", "-s", "64", "-n", "50");
        Path out = recordPair(work, "ib_send_lat", "-d", args, args, true);
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            AnalysisResult result = analyze(db, out);
            assertThat(result.connections()).as("the connection is paired").singleElement()
                    .satisfies(c -> assertThat(c.matchedBy()).isEqualTo("dest_qp_num"));
            assertThat(result.findings()).filteredOn(f -> f.severity() != Severity.INFO).isEmpty();
        }
    }

    @Test
    void cleanSrqPingpong_receivesFromTheSrq_noErrorFinding(@TempDir Path work) throws Exception {
        // ibv_srq_pingpong: 4 RC QPs per side receive from one SRQ (ibv_post_srq_recv); none posts to its own RQ
        List<String> args = List.of("-g", "3", "-q", "4", "-n", "20");
        Path out = recordPair(work, "ibv_srq_pingpong", "-d", args, args, false);
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            AnalysisResult result = analyze(db, out);
            assertThat(result.connections()).as("the four connections are paired").hasSize(4);
            assertThat(result.findings()).filteredOn(f -> f.severity() == Severity.ERROR)
                    .as("no false recv-not-posted: the receives went to the SRQ").isEmpty();
        }
    }

    @Test
    void perftestGidTypesDiffer_bothExit1WithoutAFailedCall_programFailedNamesBothGids(@TempDir Path work) throws Exception {
        // -x 3: IPv4-mapped RoCE v2 GID on a, -x 1: link-local RoCE v2 on b; perftest compares them
        // itself ("Found Incompatibility issue with GID types") and exits 1 before any QP connects
        Path out = recordPair(work, "ib_send_lat", "-d", List.of("-x", "3", "-n", "5"), List.of("-x", "1", "-n", "5"), false);
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            AnalysisResult result = analyze(db, out);
            assertThat(result.findings()).filteredOn(f -> f.severity() == Severity.ERROR)
                    .extracting(f -> f.ruleId() + " " + f.host()).containsExactlyInAnyOrder("program-failed a", "program-failed b");
            Finding b = result.findings().stream().filter(f -> "b".equals(f.host())).findFirst().orElseThrow();
            assertThat(b.message()).startsWith("ib_send_lat on b exited 1 after its last verbs call ibv_query_")
                    .contains("with no failed verbs call; the last GID it read: index 1 (fe80::")
                    .contains("link-local ROCE_V2); a read index 3 (::ffff:")
                    .contains("IPv4-mapped ROCE_V2): another GID kind or type; both ends must use a GID of the same type and kind");
        }
    }

    @Test
    void perftestInlineAboveTheDevice_limitExceededNamesFieldValueLimitAndDevice(@TempDir Path work) throws Exception {
        // an mlx5 vendor id, so perftest asks for inline data; softverbs' inline limit is 512
        List<String> args = List.of("-x", "3", "-n", "5", "-I", "900");
        Path out = recordPair(work, "ib_send_lat", "-d", args, args, false, ":vendor_id=0x02c9:vendor_part=4123");
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            AnalysisResult result = analyze(db, out);
            assertThat(result.findings()).filteredOn(f -> f.ruleId().equals("limit-exceeded")).extracting(Finding::message)
                    .containsExactlyInAnyOrder(
                            "ibv_create_qp on a asked for max_inline_data 900 > this device's 512 (pa, vendor 0x0002c9 part 4123, softverbs); the device refuses the call",
                            "ibv_create_qp on b asked for max_inline_data 900 > this device's 512 (pb, vendor 0x0002c9 part 4123, softverbs); the device refuses the call");
            assertThat(result.diagnosis().rootCause()).hasValueSatisfying(f -> assertThat(f.ruleId()).isEqualTo("limit-exceeded"));
        }
    }

    /**
     * perftest#114: ib_read_lat -o 16 on an mlx5-profiled server (max_qp_init_rd_atom 16) against a
     * client on an irdma profile (8): perftest sets each side's max_rd_atomic from the peer's -o, so
     * the client's RTS asks for 16 and its device refuses it. Both exit 1. ~20 s.
     */
    @Test
    void perftestOutstandingReadsAboveThePeersDevice_limitExceededOnThatHost(@TempDir Path work) throws Exception {
        Path out = recordPair(work, "ib_read_lat", "-d", List.of("-x", "3", "-n", "5", "-o", "16"), List.of("-x", "1", "-n", "5"),
                false, ":profile=mlx5", ":profile=irdma");
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            AnalysisResult result = analyze(db, out);
            assertThat(result.findings()).filteredOn(f -> f.ruleId().equals("limit-exceeded"))
                    .extracting(f -> f.host() + ": " + f.message()).containsExactly(
                            "b: ibv_modify_qp on b QP 0x000011 asked for max_rd_atomic 16 > this device's 8 "
                                    + "(max_qp_init_rd_atom of pb, vendor 0x008086 part 5522, softverbs profile irdma); the device refuses the call");
            assertThat(result.diagnosis().rootCause()).hasValueSatisfying(f -> assertThat(f.ruleId() + " " + f.host())
                    .isEqualTo("limit-exceeded b"));
            assertThat(result.findings()).as("nothing was posted: no queue can overflow a CQ")
                    .noneMatch(f -> f.ruleId().equals("cq-undersized"));
            assertThat(result.findings()).filteredOn(f -> f.ruleId().equals("program-failed")).extracting(Finding::message)
                    .singleElement().asString().startsWith("ib_read_lat on a exited 1")
                    .endsWith("; its peer failed first: b's ibv_modify_qp (EINVAL), and this program gave up without its peer");
        }
    }

    /**
     * A clean ib_read_lat: every finding above info would be false. Its CQ has one entry for a
     * send depth of 1 and a receive queue of 1 that RDMA READ never posts to (cq-undersized
     * counted it). ~12 s.
     */
    @Test
    void perftestReadLat_clean_noFindingAboveInfo(@TempDir Path work) throws Exception {
        List<String> args = List.of("-x", "3", "-n", "20");
        Path out = recordPair(work, "ib_read_lat", "-d", args, args, true);
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            AnalysisResult result = analyze(db, out);
            assertThat(result.connections()).singleElement().satisfies(c -> assertThat(c.matchedBy()).isEqualTo("dest_qp_num"));
            assertThat(result.findings()).filteredOn(f -> f.severity() != Severity.INFO)
                    .extracting(f -> f.ruleId() + " " + f.host() + ": " + f.message()).isEmpty();
        }
    }

    @Test
    void pingpongReceiveBufferSmallerThanThePeersMessages_onTheReceiver(@TempDir Path work) throws Exception {
        // the server sends 4096-byte messages, the client posts 1024-byte receives (-s is each side's own size)
        Path out = pingpong(work, List.of("-g", "3", "-s", "4096", "-n", "5"), List.of("-g", "3", "-s", "1024", "-n", "5"));
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            AnalysisResult result = analyze(db, out);
            assertThat(result.findings()).filteredOn(f -> f.ruleId().equals("recv-buffer-small")).extracting(Finding::message)
                    .containsExactly("b QP 0x000011 posted receive buffers of at most 1024 bytes, but its peer a QP 0x000011 "
                            + "sends messages of 4096 bytes; the receive completes with IBV_WC_LOC_LEN_ERR and the sender gets "
                            + "IBV_WC_REM_INV_REQ_ERR");
            assertThat(result.diagnosis().rootCause()).hasValueSatisfying(f -> assertThat(f.ruleId()).isEqualTo("recv-buffer-small"));
            assertThat(result.findings()).as("the error completions explain the exits").noneMatch(f -> f.ruleId().equals("program-failed"));
        }
    }

    /** The client alone sets a traffic class and a service level (one recording for both rules). */
    @Test
    void perftestTrafficClassAndServiceLevelOnOneSide_warningsOnThatSideWithBothValues(@TempDir Path work) throws Exception {
        Path out = recordPair(work, "ib_send_lat", "-d", List.of("-x", "3", "-n", "5"),
                List.of("-x", "3", "-n", "5", "--tclass=106", "--sl=3"), true);
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            AnalysisResult result = analyze(db, out);
            assertThat(result.findings()).filteredOn(f -> f.severity() != Severity.INFO)
                    .extracting(f -> f.ruleId() + " " + f.host() + ": " + f.message()).containsExactlyInAnyOrder(
                            "traffic-class-mismatch b: b QP 0x000011 sends with traffic class 106 (DSCP 26) but its peer a QP "
                                    + "0x000011 with 0 (DSCP 0); the two directions get different QoS",
                            "sl-mismatch b: b QP 0x000011 sends with service level 3 but its peer a QP 0x000011 with 0; the two "
                                    + "directions get different priorities (a VL on InfiniBand, a PCP on RoCE)");
        }
    }

    @Test
    void perftestUcClientAgainstRcServer_bothExit0_qpTypeMismatchOnTheUcSide(@TempDir Path work) throws Exception {
        Path out = recordPair(work, "ib_write_bw", "-d", List.of("-x", "3", "-n", "20"), List.of("-x", "3", "-n", "20", "-c", "UC"), true);
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            AnalysisResult result = analyze(db, out);
            assertThat(result.findings()).filteredOn(f -> f.severity() == Severity.ERROR)
                    .extracting(f -> f.ruleId() + " " + f.host() + ": " + f.message()).containsExactly(
                            "qp-type-mismatch b: b QP 0x000011 is UC but its peer a QP 0x000011 is RC; the peer drops every packet of the other type");
        }
    }

    private static Path pingpong(Path work, List<String> serverArgs, List<String> clientArgs) throws Exception {
        return recordPair(work, "ibv_rc_pingpong", "-d", serverArgs, clientArgs, false);
    }

    private static Path recordPair(Path work, String program, String deviceOption, List<String> serverArgs,
                                   List<String> clientArgs, boolean bothExit0) throws Exception {
        return recordPair(work, program, deviceOption, serverArgs, clientArgs, bothExit0, "");
    }

    /**
     * Records server a and client b; a server still waiting when the client is done gets Ctrl-C
     * unless {@code bothExit0} requires both to have finished on their own with status 0.
     */
    private static Path recordPair(Path work, String program, String deviceOption, List<String> serverArgs,
                                   List<String> clientArgs, boolean bothExit0, String deviceKeys) throws Exception {
        return recordPair(work, program, deviceOption, serverArgs, clientArgs, bothExit0, deviceKeys, deviceKeys);
    }

    /** As above, with each side's own SOFTVERBS_DEVICES keys (e.g. a different profile). */
    private static Path recordPair(Path work, String program, String deviceOption, List<String> serverArgs,
                                   List<String> clientArgs, boolean bothExit0, String serverKeys, String clientKeys)
            throws Exception {
        Path tool = InstalledPrograms.require(program);
        Files.createDirectories(work);
        LoopbackPair ips = LoopbackPair.random();
        String port = Integer.toString(RecordJvm.freeTcpPort());
        Path out = work.resolve("trace");
        List<String> a = new ArrayList<>(List.of("--soft", "--out", out.toString(), "--host-id", "a", "--", tool.toString(),
                deviceOption, "pa", "-p", port));
        a.addAll(serverArgs);
        List<String> b = new ArrayList<>(List.of("--soft", "--out", out.toString(), "--host-id", "b", "--", tool.toString(),
                deviceOption, "pb", "-p", port));
        b.addAll(clientArgs);
        b.add(ips.a());
        try (RecordJvm server = RecordJvm.start("a", Map.of("SOFTVERBS_DEVICES", "pa@" + ips.a() + ":mtu=9000" + serverKeys), work, a)) {
            server.awaitListening(Integer.parseInt(port));
            try (RecordJvm client = RecordJvm.start("b", Map.of("SOFTVERBS_DEVICES", "pb@" + ips.b() + ":mtu=9000" + clientKeys), work, b)) {
                int exit = client.await();
                if (bothExit0) {
                    assertThat(exit).as("client: %s", client.describe()).isZero();
                }
            }
            if (bothExit0) {
                assertThat(server.await()).as("server: %s", server.describe()).isZero();
                return out;
            }
            Thread.sleep(2_000); // let a finishing server finish
            if (server.process().isAlive()) {
                new ProcessBuilder("kill", "-INT", Long.toString(server.process().pid())).start().waitFor();
            }
            server.await();
        }
        return out;
    }

    /** "rule host" per finding. */
    private static List<String> findings(Path out) throws Exception {
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            AnalysisResult result = analyze(db, out);
            assertThat(result.connections()).as("the connection is paired").hasSize(1);
            return result.findings().stream().map((Finding f) -> f.ruleId() + " " + f.host()).toList();
        }
    }

    private static AnalysisResult analyze(AnalysisDatabase db, Path out) throws Exception {
        LoadReport load = db.load(List.of(out));
        db.finishLoading();
        return Analyzer.analyze(db, load, RuleCatalog.builtin());
    }

    private static long wallMinusMono(Path host) throws Exception {
        EventHeader h = TraceReader.readAll(host).session().header();
        return h.wallNanos() - h.monoNanos();
    }

}
