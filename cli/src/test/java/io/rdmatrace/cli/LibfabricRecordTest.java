package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.store.ReadOutcome;
import io.rdmatrace.trace.store.TraceReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * libfabric (Debian's libfabric-bin) between two softverbs hosts in network namespaces: fi_pingpong over
 * the verbs provider's MSG endpoints (rdma_cm) and over verbs;ofi_rxm RDM, bare and under
 * `rdmatrace record` on both hosts, the recordings read clean and analyzed with the connection paired
 * and no error; FI_VERBS_GID_IDX at the link-local GID on one host (DGRAM endpoints) is diagnosed
 * (gid-index) on that host.
 */
class LibfabricRecordTest {
    /** fi_pingpong's control port (its server's default). */
    private static final int PORT = 47592;
    /** ofi_rxm asks for a CQ of 4096 + 128 x 1024 entries (FI_UNIVERSE_SIZE): above rxe's max_cqe, within a ConnectX's. */
    private static final String DEVICE = ":profile=mlx5";
    /** One line of fi_pingpong's table: "bytes #sent #ack total time MB/sec usec/xfer Mxfers/sec". */
    private static final Pattern ROW = Pattern.compile("(?m)^(\\S+)\\s+(\\d+)\\s+=(\\d+)\\s+\\S+\\s+[0-9.]+s\\s");

    @Test
    void pingpong_msgAndRdm_bare_thenRecordedOnBothHosts_pairedAndClean(@TempDir Path work) throws Exception {
        InstalledPrograms.require("fi_pingpong");
        String msg = "fi_pingpong -p verbs -e msg -c -I 100 -S 4096";
        String rdm = "fi_pingpong -p 'verbs;ofi_rxm' -e rdm -c -I 100 -S 4096";
        for (String pingpong : List.of(msg, rdm)) {
            NamespaceHosts.Run bare = NamespaceHosts.run(work.resolve("bare" + pingpong.hashCode()), DEVICE, PORT, 90,
                    pingpong, pingpong + " $SV_PEER");
            assertThat(bare.exit()).as(bare.describe()).isZero();
            assertThat(exchanges(bare.a())).as(bare.describe()).isEqualTo(100);
            assertThat(exchanges(bare.b())).as(bare.describe()).isEqualTo(100);
        }

        for (String pingpong : List.of(msg, rdm)) {
            Path out = work.resolve("trace" + pingpong.hashCode());
            String recordA = NamespaceHosts.record(List.of("--soft", "--data-path", "summary", "--out", out.toString(), "--host-id", "a", "--"));
            String recordB = NamespaceHosts.record(List.of("--soft", "--data-path", "summary", "--out", out.toString(), "--host-id", "b", "--"));
            NamespaceHosts.Run recorded = NamespaceHosts.run(work.resolve("recorded" + pingpong.hashCode()), DEVICE, PORT, 150,
                    recordA + " " + pingpong, recordB + " " + pingpong + " $SV_PEER");
            assertThat(recorded.exit()).as(recorded.describe()).isZero();
            assertThat(exchanges(recorded.b())).as(recorded.describe()).isEqualTo(100);
            for (String host : List.of("a", "b")) {
                TraceReader.Result r = TraceReader.readAll(out.resolve(host));
                assertThat(r.outcome().status()).as("host %s's trace", host).isEqualTo(ReadOutcome.Status.CLEAN);
                assertThat(calls(r.events(), Verb.IBV_CREATE_QP)).as("host %s's QPs", host).isNotEmpty();
            }
            StringWriter report = new StringWriter();
            int exit = Main.execute(new PrintWriter(report), new PrintWriter(new StringWriter()), "analyze", out.toString());
            assertThat(report.toString()).as(pingpong + "\n" + report).contains("0 error(s)").containsPattern(
                    "#1 a QP 0x[0-9a-f]+ <-> b QP 0x[0-9a-f]+  RC|#1 b QP 0x[0-9a-f]+ <-> a QP 0x[0-9a-f]+  RC");
            assertThat(exit).as(report.toString()).isZero();
        }
    }

    @Test
    void gidIndexAtTheLinkLocalGid_onOneHost_isDiagnosedOnThatHost(@TempDir Path work) throws Exception {
        InstalledPrograms.require("fi_pingpong");
        // FI_VERBS_GID_IDX is the source GID index of the verbs provider's DGRAM endpoints (their
        // address handles and the GID each endpoint advertises); libfabric's default is 0, the
        // link-local fe80:: RoCE v1 entry. At 3 (::ffff:IPv4, RoCE v2) on both hosts the ping-pong runs.
        String dgram = "fi_pingpong -p verbs -e dgram -c -I 100 -S 64";
        NamespaceHosts.Run bare = NamespaceHosts.run(work.resolve("bare"), PORT, 60, "FI_VERBS_GID_IDX=3 " + dgram,
                "FI_VERBS_GID_IDX=3 " + dgram + " $SV_PEER");
        assertThat(bare.exit()).as(bare.describe()).isZero();
        assertThat(exchanges(bare.b())).as(bare.describe()).isEqualTo(100);

        // host b at index 0: its packets reach nobody (as RoCE v1 on a RoCE v2 peer), and fi_pingpong
        // waits for its first receive without a timeout: the helper ends both
        Path out = work.resolve("trace");
        String recordA = NamespaceHosts.record(List.of("--soft", "--data-path", "summary", "--out", out.toString(), "--host-id", "a", "--"));
        String recordB = NamespaceHosts.record(List.of("--soft", "--data-path", "summary", "--out", out.toString(), "--host-id", "b", "--"));
        NamespaceHosts.Run run = NamespaceHosts.run(work.resolve("hosts"), PORT, 40, "FI_VERBS_GID_IDX=3 " + recordA + " " + dgram,
                "FI_VERBS_GID_IDX=0 " + recordB + " " + dgram + " $SV_PEER");
        assertThat(run.exit()).as("the ping-pong never completes: " + run.describe()).isEqualTo(1);
        assertThat(exchanges(run.b())).as(run.describe()).isEqualTo(-1);

        StringWriter report = new StringWriter();
        Main.execute(new PrintWriter(report), new PrintWriter(new StringWriter()), "analyze", out.toString());
        assertThat(report.toString()).as(report.toString())
                .containsPattern("b addresses its UD peers \\(\\d+ ibv_create_ah\\) from GID index 0, the link-local GID fe80:")
                .doesNotContain("a addresses its UD peers");
    }

    /** The number of exchanges of fi_pingpong's (one-size) table row, -1 without one. */
    private static int exchanges(String output) {
        Matcher m = ROW.matcher(output);
        return m.find() ? Integer.parseInt(m.group(2)) : -1;
    }

    private static List<CallEvent> calls(List<TraceEvent> events, Verb verb) {
        return events.stream().filter(e -> e instanceof CallEvent c && c.verb() == verb).map(e -> (CallEvent) e).toList();
    }
}
