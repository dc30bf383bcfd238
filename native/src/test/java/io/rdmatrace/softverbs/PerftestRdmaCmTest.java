package io.rdmatrace.softverbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Unmodified perftest in rdma_cm mode ({@code -R}) between two softverbs processes through
 * softverbs' librdmacm: both ends finish and the client reports every iteration.
 *
 * <p>perftest -R connects twice: a first rdma_cm connection for its own parameter exchange, then,
 * right after a handshake on it, the server creates a new listener while the client resolves and
 * connects. A REQ that arrives before that listener is refused with REJ reason 8, as the kernel CM
 * refuses it (no queueing, no MRA); perftest 4.5's client then retries, but its retry path uses the
 * CM nodes it has just freed and crashes (perftest commit 3d9d8d0, "Fix crashes and logical flaws in
 * RDMA CM connection retry", fixed it upstream in December 2025). On hardware the client's slower
 * kernel path (neighbour and route resolution through work queues, memory pinning, QP creation
 * through the kernel) usually lets the server win; softverbs does all that in the process, so on a
 * loaded machine the race goes either way. Each attempt therefore gets a fresh server (a client
 * restarted against the same server would meet its second listener: RNR forever), and an attempt
 * may fail only in exactly that way: the client's REJECTED 8. ib_send_bw must complete within the
 * attempts; ib_send_lat, whose client reaches its REQ sooner, is reported as skipped (with every
 * attempt's output) when it lost the race every time.
 */
class PerftestRdmaCmTest {
    /** About half the ib_send_lat attempts lose the race on a loaded 2-core machine: 10 leave ~0.3 % to chance. */
    private static final int ATTEMPTS = 10;
    private static final int ITERS = 20;
    private static final Duration DEADLINE = Duration.ofSeconds(40);
    private static final Pattern ROW = Pattern.compile("(?m)^\\s*(\\d+)\\s+(\\d+)\\s+[0-9.]+");
    /** The new rdma_cm path's and the comm connection's words for REJECTED, reason 8. */
    private static final Pattern REFUSED = Pattern.compile("RDMA_CM_EVENT_REJECTED; error: 8|Unexpected CM event[^\\n]* 8\\b");

    @ParameterizedTest
    @ValueSource(strings = {"ib_send_bw", "ib_send_lat"})
    void perftestRdmaCm_runsToCompletion(String tool, @TempDir Path work) {
        Path bin = SoftverbsEnv.requireTool(tool, "perftest");
        List<String> refused = new ArrayList<>();
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            SoftverbsEnv.Hosts hosts = RdmaCmPair.randomHosts();
            String port = Integer.toString(RdmaCmPair.randomPort());
            List<String> common = List.of(bin.toString(), "-R", "-x", "3", "-n", Integer.toString(ITERS), "-p", port);
            List<String> serverCmd = new ArrayList<>(common);
            serverCmd.addAll(List.of("-d", hosts.serverDevice()));
            List<String> clientCmd = new ArrayList<>(common);
            clientCmd.addAll(List.of("-d", hosts.clientDevice(), hosts.serverIp()));
            ChildProcess.Result client;
            ChildProcess.Result server = null;
            try (ChildProcess s = RdmaCmPair.startServer(hosts, tool + "-server-" + attempt, serverCmd, work)) {
                try (ChildProcess c = ChildProcess.start(tool + "-client-" + attempt, clientCmd,
                        SoftverbsEnv.processEnv(hosts.clientDevices()), work)) {
                    client = c.await(DEADLINE);
                }
                if (client.exitCode() == 0) {
                    server = s.await(DEADLINE);
                }
            } // a refused client leaves its server waiting: closing it kills it
            String both = (server != null ? server.describe() : "(server stopped)") + "\n" + client.describe();
            if (client.exitCode() == 0) {
                assertThat(server.exitCode()).as(both).isZero();
                Matcher row = ROW.matcher(client.stdout());
                assertThat(row.find()).as(both).isTrue();
                assertThat(Integer.parseInt(row.group(2))).as(both).isEqualTo(ITERS);
                System.out.println(tool + " -R completed at attempt " + attempt + " (" + refused.size()
                        + " refused before: the REJ 8 race described above)");
                return;
            }
            assertThat(REFUSED.matcher(client.stdout() + client.stderr()).find())
                    .as("a failed attempt may only be the REJECTED 8 race\n" + both).isTrue();
            refused.add(client.describe());
        }
        String all = tool + " -R was refused (REJECTED 8) in all " + ATTEMPTS + " attempts:\n" + String.join("\n", refused);
        // ib_send_lat's client does less before its second REQ than ib_send_bw's: on a quiet machine it
        // loses the race nearly every time (10 of 10 once), on a loaded one about half the time. That is
        // perftest 4.5's bug, not softverbs': shown as a skip with the evidence, never as a pass.
        assumeThat(tool).as(all).isNotEqualTo("ib_send_lat");
        fail(all);
    }
}
