package io.rdmatrace.softverbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * softverbs' librdmacm.so.1 under unmodified rdmacm-utils programs, each end its own process
 * with its own device: rping with verification, a connect where nobody listens (REJECTED, reason
 * 8), udaddy (UD through SIDR), ucmatose, tshark's decoding of the CM exchange, and the ABI.
 */
class RdmaCmTest {
    private static final Path SYSTEM_LIBRDMACM = Path.of("/lib/x86_64-linux-gnu/librdmacm.so.1");
    /** rping's message when the CM refuses the connection: "cma event RDMA_CM_EVENT_REJECTED, error 8". */
    private static final Predicate<ChildProcess.Result> RPING_REFUSED =
            r -> r.exitCode() != 0 && r.stderr().contains("RDMA_CM_EVENT_REJECTED, error 8");
    /** udaddy/ucmatose print the event; SIDR to nobody is UNREACHABLE with status 1, a REQ REJECTED with 8. */
    private static final Predicate<ChildProcess.Result> EXAMPLE_REFUSED = r -> r.exitCode() != 0
            && (r.stdout().contains("RDMA_CM_EVENT_UNREACHABLE, error: 1")
                || r.stdout().contains("RDMA_CM_EVENT_REJECTED, error: 8"));

    private static RdmaCmPair.Run rping(SoftverbsEnv.Hosts hosts, int port, Path work) {
        List<String> common = List.of("-a", hosts.serverIp(), "-p", Integer.toString(port), "-C", "3", "-V", "-v");
        List<String> server = new ArrayList<>(List.of("-s"));
        server.addAll(common);
        List<String> client = new ArrayList<>(List.of("-c"));
        client.addAll(common);
        return RdmaCmPair.run(hosts, "rping", server, client, RPING_REFUSED, work);
    }

    @Test
    void rping_twoProcesses_threeVerifiedPings(@TempDir Path work) {
        RdmaCmPair.Run run = rping(RdmaCmPair.randomHosts(), RdmaCmPair.randomPort(), work);
        assertThat(run.client().exitCode()).as(run.describe()).isZero();
        assertThat(run.server().exitCode()).as(run.describe()).isZero();
        // -v prints each ping; -V makes both ends verify the data they RDMA-read and -wrote
        for (int i = 0; i < 3; i++) {
            assertThat(run.client().stdout()).as(run.describe()).contains("ping data: rdma-ping-" + i + ": ");
            assertThat(run.server().stdout()).as(run.describe()).contains("server ping data: rdma-ping-" + i + ": ");
        }
        // the server waits for the DISCONNECTED event the client's rdma_disconnect causes; the client
        // prints its own DISCONNECTED from its CM thread only if that runs before the client exits
        assertThat(run.server().stderr()).as(run.describe()).contains("server DISCONNECT EVENT");
    }

    @Test
    void rping_noListenerOnPort_rejectedWithReason8(@TempDir Path work) {
        Path rping = SoftverbsEnv.requireTool("rping", "rdmacm-utils");
        SoftverbsEnv.Hosts hosts = RdmaCmPair.randomHosts();
        int port = RdmaCmPair.randomPort();
        // a device (host) is up at the address, but nothing listens on port + 1
        try (ChildProcess server = RdmaCmPair.startServer(hosts, "rping-server", List.of(rping.toString(), "-s", "-a",
                hosts.serverIp(), "-p", Integer.toString(port), "-C", "1"), work)) {
            ChildProcess.Result client;
            try (ChildProcess c = ChildProcess.start("rping-client", List.of(rping.toString(), "-c", "-a",
                    hosts.serverIp(), "-p", Integer.toString(port + 1), "-C", "1"),
                    SoftverbsEnv.processEnv(hosts.clientDevices()), work)) {
                client = c.await(RdmaCmPair.RUN_DEADLINE);
            }
            assertThat(client.timedOut()).as(client.describe()).isFalse();
            assertThat(client.exitCode()).as(client.describe()).isNotZero();
            assertThat(client.stderr()).as(client.describe()).contains("cma event RDMA_CM_EVENT_REJECTED, error 8");
            server.terminate(Duration.ofSeconds(5));
        }
    }

    @Test
    void udaddy_twoProcesses_udThroughSidr(@TempDir Path work) {
        SoftverbsEnv.Hosts hosts = RdmaCmPair.randomHosts();
        RdmaCmPair.Run run = RdmaCmPair.run(hosts, "udaddy", List.of("-b", hosts.serverIp()),
                List.of("-s", hosts.serverIp(), "-b", hosts.clientIp()), EXAMPLE_REFUSED, work);
        assertThat(run.client().exitCode()).as(run.describe()).isZero();
        assertThat(run.server().exitCode()).as(run.describe()).isZero();
        assertThat(run.client().stdout()).as(run.describe()).contains("data transfers complete", "return status 0");
        assertThat(run.server().stdout()).as(run.describe()).contains("sending replies", "return status 0");
    }

    @Test
    void ucmatose_twoProcesses_connectTransferDisconnect(@TempDir Path work) {
        SoftverbsEnv.Hosts hosts = RdmaCmPair.randomHosts();
        String port = Integer.toString(RdmaCmPair.randomPort());
        RdmaCmPair.Run run = RdmaCmPair.run(hosts, "ucmatose", List.of("-b", hosts.serverIp(), "-p", port),
                List.of("-s", hosts.serverIp(), "-p", port), EXAMPLE_REFUSED, work);
        assertThat(run.client().exitCode()).as(run.describe()).isZero();
        assertThat(run.server().exitCode()).as(run.describe()).isZero();
        assertThat(run.client().stdout()).as(run.describe()).contains("data transfers complete", "return status 0");
        assertThat(run.server().stdout()).as(run.describe()).contains("disconnected", "return status 0");
    }

    @Test
    void rping_captured_tsharkDecodesConnectionManagement(@TempDir Path work) {
        SoftverbsEnv.Hosts hosts = RdmaCmPair.randomHosts();
        int port = RdmaCmPair.randomPort();
        Path pcap;
        try (RoceCapture capture = RoceCapture.start(work, hosts.serverIp())) {
            RdmaCmPair.Run run = rping(hosts, port, work);
            assertThat(run.client().exitCode()).as(run.describe()).isZero();
            pcap = capture.stop();
        }
        Path tshark = SoftverbsEnv.requireTool("tshark", "tshark");
        ChildProcess.Result r;
        try (ChildProcess p = ChildProcess.start("tshark-cm", List.of(tshark.toString(), "-r", pcap.toString(),
                "-Y", "infiniband.mad.attributeid", "-T", "fields", "-E", "separator=|",
                "-e", "ip.src", "-e", "_ws.col.Info", "-e", "infiniband.cm.req.serviceid.dport",
                "-e", "infiniband.cm.req.ip_cm.sip4", "-e", "infiniband.cm.req.ip_cm.dip4", "-e", "_ws.malformed"),
                Map.of(), work)) {
            r = p.await(Duration.ofSeconds(60));
        }
        assertThat(r.exitCode()).as(r.describe()).isZero();
        List<String> lines = r.stdout().lines().filter(l -> !l.isBlank()).toList();
        // a client refused before the server listened leaves a REQ/REJ pair first; look at the last connection
        int req = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains("CM: ConnectRequest")) {
                req = i;
            }
        }
        String all = describeCapture(tshark, pcap, work);
        assertThat(req).as(all).isNotNegative();
        List<String> info = lines.subList(req, lines.size()).stream().map(l -> l.split("\\|", -1)[1]).toList();
        assertThat(info).as(all).startsWith("CM: ConnectRequest", "CM: ConnectReply", "CM: ReadyToUse")
                .contains("CM: DisconnectRequest", "CM: DisconnectReply");
        String[] reqFields = lines.get(req).split("\\|", -1);
        assertThat(Integer.decode(reqFields[2])).isEqualTo(port);          // service ID 0x0000000001060000 | port
        assertThat(reqFields[3]).isEqualTo(hosts.clientIp());              // the IP CM private data header
        assertThat(reqFields[4]).isEqualTo(hosts.serverIp());
        assertThat(lines).as(r.stdout()).allSatisfy(l -> assertThat(l.split("\\|", -1)[5]).isEmpty());
    }

    /** Every packet of the capture, one line each, for a failure message. */
    private static String describeCapture(Path tshark, Path pcap, Path work) {
        try (ChildProcess p = ChildProcess.start("tshark-all", List.of(tshark.toString(), "-r", pcap.toString()),
                Map.of(), work)) {
            return p.await(Duration.ofSeconds(60)).stdout();
        }
    }

    @Test
    void librdmacm_exportsEverySymbolOfTheSystemLibrary(@TempDir Path work) {
        assumeTrue(Files.exists(SYSTEM_LIBRDMACM), "no system librdmacm.so.1 to compare with (Debian package librdmacm1)");
        Path objdump = SoftverbsEnv.requireTool("objdump", "binutils");
        Set<String> system = exports(objdump, SYSTEM_LIBRDMACM, work);
        Set<String> ours = exports(objdump, SoftverbsEnv.libraryDir().resolve("librdmacm.so.1"), work);
        assertThat(system).contains("rdma_connect@RDMACM_1.0", "rdma_establish@RDMACM_1.2");
        assertThat(ours).containsAll(system);
        // the only additions are softverbs' own, in their own version node
        Set<String> extra = new TreeSet<>(ours);
        extra.removeAll(system);
        assertThat(extra).allSatisfy(s -> assertThat(s).startsWith("softverbs_").endsWith("@SOFTVERBS_RDMACM_1.0"));
    }

    /** "name@VERSION" of every function a library defines, as `objdump -T` lists them. */
    private static Set<String> exports(Path objdump, Path library, Path work) {
        ChildProcess.Result r;
        try (ChildProcess p = ChildProcess.start("objdump-" + Integer.toHexString(library.hashCode()),
                List.of(objdump.toString(), "-T", library.toString()), Map.of(), work)) {
            r = p.await(Duration.ofSeconds(30));
        }
        assertThat(r.exitCode()).as(r.describe()).isZero();
        Set<String> names = new TreeSet<>();
        for (String line : r.stdout().split("\n")) {
            String[] f = line.trim().split("\\s+");
            // value flags section size version name; functions only ("DF"), defined (not *UND*)
            if (f.length >= 7 && f[2].equals("DF") && !f[3].equals("*UND*")) {
                names.add(f[f.length - 1] + "@" + f[f.length - 2]);
            }
        }
        return names;
    }
}
