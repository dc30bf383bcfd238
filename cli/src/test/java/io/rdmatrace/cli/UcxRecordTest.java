package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.store.ReadOutcome;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.model.Verb;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * UCX (Debian's ucx-utils) between two softverbs hosts in network namespaces: ucx_perftest over
 * rc_verbs and ud_verbs bare, then under `rdmatrace record` on both hosts, the recording read clean
 * and analyzed with its RC connection paired and no error; UCX_IB_GID_INDEX at the link-local GID on
 * one host is diagnosed (gid-index) on that host, UCX_IB_TRAFFIC_CLASS on one host only
 * (traffic-class-mismatch) on that host.
 */
class UcxRecordTest {
    private static final int PORT = 13337;
    /** ucx_perftest's last line: "Final: ITERATIONS p50 average overall ...". */
    private static final Pattern FINAL = Pattern.compile("(?m)^Final:\\s+(\\d+)\\s+([0-9.]+)\\s+([0-9.]+)");

    @Test
    void perftest_rcAndUd_bare_thenRecordedOnBothHosts_pairedAndClean(@TempDir Path work) throws Exception {
        InstalledPrograms.require("ucx_perftest");
        String rcV = "UCX_TLS=rc_v UCX_NET_DEVICES=$SV_DEVICE:1 ";
        String ud = "UCX_TLS=ud_verbs UCX_NET_DEVICES=$SV_DEVICE:1 ";
        String server = "ucx_perftest -p " + PORT;
        String client = "ucx_perftest -p " + PORT + " $SV_PEER ";

        // bare: tag matching latency and bandwidth, and RMA put bandwidth, over RC (UD for the wire-up) and over UD alone
        for (String[] run : new String[][] {{rcV, "-t tag_lat -n 1000"}, {ud, "-t tag_lat -n 1000"},
                {rcV, "-t tag_bw -n 1000"}, {ud, "-t tag_bw -n 1000"},
                {rcV, "-t ucp_put_bw -s 65536 -n 200"}, {ud, "-t ucp_put_bw -s 65536 -n 200"}}) {
            NamespaceHosts.Run bare = NamespaceHosts.run(work.resolve("bare" + (run[0] + run[1]).hashCode()), PORT, 90,
                    run[0] + server, run[0] + client + run[1]);
            assertThat(bare.exit()).as(bare.describe()).isZero();
            assertThat(iterations(bare.b())).as(bare.describe()).isEqualTo(Integer.parseInt(run[1].replaceAll(".*-n ", "")));
        }

        // recorded on both hosts, each host's trace in <run>/trace/<host>: RC tag latency, UD tag bandwidth, RC put bandwidth
        recordedAndAnalyzed(work.resolve("rc-tag-lat"), rcV, server, client + "-t tag_lat -n 1000", 1000, true);
        recordedAndAnalyzed(work.resolve("ud-tag-bw"), ud, server, client + "-t tag_bw -n 1000", 1000, false);
        recordedAndAnalyzed(work.resolve("rc-put-bw"), rcV, server, client + "-t ucp_put_bw -s 65536 -n 200", 200, true);
    }

    /**
     * Runs {@code server}/{@code client} under `record` on both hosts, checks both traces (UCX's QPs
     * brought up, the UD wire-up's address handles) and that the analysis pairs them with no error.
     */
    private static void recordedAndAnalyzed(Path work, String env, String server, String client, int iterations,
                                            boolean rc) throws Exception {
        Path out = work.resolve("trace");
        String recordA = NamespaceHosts.record(List.of("--soft", "--data-path", "summary", "--out", out.toString(), "--host-id", "a", "--"));
        String recordB = NamespaceHosts.record(List.of("--soft", "--data-path", "summary", "--out", out.toString(), "--host-id", "b", "--"));
        NamespaceHosts.Run recorded = NamespaceHosts.run(work, PORT, 150, env + recordA + " " + server,
                env + recordB + " " + client);
        assertThat(recorded.exit()).as(recorded.describe()).isZero();
        assertThat(iterations(recorded.b())).as(recorded.describe()).isEqualTo(iterations);

        for (String host : List.of("a", "b")) {
            TraceReader.Result r = TraceReader.readAll(out.resolve(host));
            assertThat(r.outcome().status()).as("host %s's trace", host).isEqualTo(ReadOutcome.Status.CLEAN);
            List<CallEvent> creates = calls(r.events(), Verb.IBV_CREATE_QP);
            assertThat(creates).as("host %s creates its QPs with ibv_create_qp", host).isNotEmpty();
            assertThat(calls(r.events(), Verb.IBV_MODIFY_QP)).as(host).isNotEmpty();
            assertThat(calls(r.events(), Verb.IBV_CREATE_AH)).as("host %s's UD wire-up", host).isNotEmpty();
        }

        StringWriter report = new StringWriter();
        int exit = Main.execute(new PrintWriter(report), new PrintWriter(new StringWriter()), "analyze", out.toString());
        assertThat(report.toString()).as(report.toString()).contains("0 error(s)");
        if (rc) {
            assertThat(report.toString()).as(report.toString()).contains("matched by dest_qp_num");
        }
        assertThat(exit).as(report.toString()).isZero();
    }

    @Test
    void gidIndexAtTheLinkLocalGid_onOneHost_isDiagnosedOnThatHost(@TempDir Path work) throws Exception {
        InstalledPrograms.require("ucx_perftest");
        // host b's UCX sources its packets from GID index 0, the link-local fe80:: RoCE v1 entry
        String env = "UCX_TLS=rc_v UCX_NET_DEVICES=$SV_DEVICE:1 ";
        Path out = work.resolve("trace");
        String recordA = NamespaceHosts.record(List.of("--soft", "--data-path", "summary", "--out", out.toString(), "--host-id", "a", "--"));
        String recordB = NamespaceHosts.record(List.of("--soft", "--data-path", "summary", "--out", out.toString(), "--host-id", "b", "--"));
        NamespaceHosts.Run run = NamespaceHosts.run(work.resolve("hosts"), PORT, 150, env + recordA + " ucx_perftest -p " + PORT,
                "UCX_IB_GID_INDEX=0 " + env + recordB + " ucx_perftest -p " + PORT + " $SV_PEER -t tag_lat -n 100");
        assertThat(run.exit()).as("UCX's wire-up times out: " + run.describe()).isEqualTo(1);
        assertThat(iterations(run.b())).as(run.describe()).isEqualTo(-1);

        StringWriter report = new StringWriter();
        Main.execute(new PrintWriter(report), new PrintWriter(new StringWriter()), "analyze", out.toString());
        assertThat(report.toString()).as(report.toString())
                .containsPattern("b addresses its UD peers \\(\\d+ ibv_create_ah\\) from GID index 0, the link-local GID fe80:")
                .doesNotContain("a addresses its UD peers");
    }

    @Test
    void trafficClassOnOneHostOnly_isDiagnosedOnThatHost(@TempDir Path work) throws Exception {
        InstalledPrograms.require("ucx_perftest");
        // host b's RC QPs send with traffic class 184 (DSCP 46), host a's with UCX's RoCE v2 default
        // 106 (DSCP 26): softverbs delivers both (no switch queues here), the mismatch is QoS only
        String env = "UCX_TLS=rc_v UCX_NET_DEVICES=$SV_DEVICE:1 ";
        Path out = work.resolve("trace");
        String recordA = NamespaceHosts.record(List.of("--soft", "--data-path", "summary", "--out", out.toString(), "--host-id", "a", "--"));
        String recordB = NamespaceHosts.record(List.of("--soft", "--data-path", "summary", "--out", out.toString(), "--host-id", "b", "--"));
        NamespaceHosts.Run run = NamespaceHosts.run(work.resolve("hosts"), PORT, 150, env + recordA + " ucx_perftest -p " + PORT,
                "UCX_IB_TRAFFIC_CLASS=184 " + env + recordB + " ucx_perftest -p " + PORT + " $SV_PEER -t tag_lat -n 100");
        assertThat(run.exit()).as(run.describe()).isZero();
        assertThat(iterations(run.b())).as(run.describe()).isEqualTo(100);

        StringWriter report = new StringWriter();
        Main.execute(new PrintWriter(report), new PrintWriter(new StringWriter()), "analyze", out.toString());
        assertThat(report.toString()).as(report.toString())
                .containsPattern("b QP 0x[0-9a-f]+ sends with traffic class 184 \\(DSCP 46\\) but its peer a QP 0x[0-9a-f]+ with 106 \\(DSCP 26\\)")
                .contains("traffic-class-mismatch").doesNotContainPattern("a QP 0x[0-9a-f]+ sends with traffic class");
    }

    private static int iterations(String perftestOutput) {
        Matcher m = FINAL.matcher(perftestOutput);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    private static List<CallEvent> calls(List<TraceEvent> events, Verb verb) {
        return events.stream().filter(e -> e instanceof CallEvent c && c.verb() == verb).map(e -> (CallEvent) e).toList();
    }
}
