package io.rdmatrace.softverbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The RDMA world's own programs, unmodified, on softverbs: LD_LIBRARY_PATH points at softverbs'
 * libibverbs.so.1 and nothing is preloaded. They link librdmacm (softverbs' own, found in the same
 * directory) and the system's provider libraries (libmlx5, libefa), which bind to softverbs' full
 * libibverbs ABI. Each must at least load (no
 * "symbol lookup error"); perftest also runs to completion between two softverbs processes.
 * A missing Debian package is a visible skip.
 */
class EcosystemProgramsTest {
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final Duration PERFTEST_DEADLINE = Duration.ofSeconds(60);
    /** Few iterations: the run proves the verbs work end to end, it does not measure. */
    private static final int PERFTEST_ITERS = 50;
    /** What the dynamic loader prints when a library lacks a symbol or version a program needs. */
    private static final List<String> LOAD_ERRORS = List.of("symbol lookup error", "undefined symbol",
            "version `", "no version information available", "error while loading shared libraries");
    private static final Pattern PERFTEST_ROW = Pattern.compile("(?m)^\\s*(\\d+)\\s+(\\d+)\\s+[0-9.]+");

    /** Two devices on loopback addresses no other test process picks: 127.X.Y.1 and 127.X.Y.2. */
    private static SoftverbsEnv.Hosts randomHosts(String prefix) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        String net = "127." + r.nextInt(1, 255) + "." + r.nextInt(0, 256) + ".";
        return new SoftverbsEnv.Hosts(prefix + "s", net + "1", prefix + "c", net + "2");
    }

    private static ChildProcess.Result run(String label, List<String> command, Path work) {
        Map<String, String> env = SoftverbsEnv.processEnv(randomHosts("eco").serverDevices());
        env.put("LD_PRELOAD", null);
        try (ChildProcess p = ChildProcess.start(label, command, env, work)) {
            return p.await(DEADLINE);
        }
    }

    private static void assertLoaded(ChildProcess.Result r) {
        assertThat(r.timedOut()).as(r.describe()).isFalse();
        assertThat(r.exitCode()).as("127 = the program could not start\n" + r.describe()).isNotEqualTo(127);
        String all = r.stdout() + r.stderr();
        for (String marker : LOAD_ERRORS) {
            assertThat(all).as(r.describe()).doesNotContain(marker);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"ib_send_lat", "ib_send_bw", "ib_write_lat", "ib_write_bw", "ib_read_lat", "ib_read_bw",
        "ib_atomic_lat", "ib_atomic_bw"})
    void perftest_loads(String tool, @TempDir Path work) {
        Path bin = SoftverbsEnv.requireTool(tool, "perftest");
        ChildProcess.Result r = run(tool, List.of(bin.toString(), "--help"), work);
        assertLoaded(r);
        assertThat(r.stdout()).as(r.describe()).contains("Usage:").contains(tool);
    }

    @Test
    void rcPingpong_loads(@TempDir Path work) {
        Path bin = SoftverbsEnv.requireTool("ibv_rc_pingpong", "ibverbs-utils");
        ChildProcess.Result r = run("rc_pingpong", List.of(bin.toString(), "-h"), work);
        assertLoaded(r);
        assertThat(r.stdout()).as(r.describe()).contains("Usage:");
    }

    @Test
    void qperf_loads(@TempDir Path work) {
        Path bin = SoftverbsEnv.requireTool("qperf", "qperf");
        ChildProcess.Result r = run("qperf", List.of(bin.toString(), "--help"), work);
        assertLoaded(r);
        assertThat(r.stdout()).as(r.describe()).contains("qperf");
    }

    /** librdmacm tools load (RdmaCmTest runs them; the system librdmacm: so_test_providers). */
    @ParameterizedTest
    @ValueSource(strings = {"rping", "udaddy", "ucmatose"})
    void rdmacmTools_load(String tool, @TempDir Path work) {
        Path bin = SoftverbsEnv.requireTool(tool, "rdmacm-utils");
        ChildProcess.Result r = run(tool, List.of(bin.toString(), "-h"), work);
        assertLoaded(r);
        // its own usage text: the program ran main(), so every library it links was bound
        assertThat(r.stdout() + r.stderr()).as(r.describe()).contains(tool).contains("server");
    }

    @Test
    void pyverbs_listsSoftverbsDevice(@TempDir Path work) {
        Path python = Path.of("/usr/bin/python3");
        assumeFalse(!Files.isExecutable(python), "/usr/bin/python3 is not installed (Debian package python3)");
        SoftverbsEnv.Hosts hosts = randomHosts("py");
        Map<String, String> env = SoftverbsEnv.processEnv(hosts.serverDevices());
        env.put("LD_PRELOAD", null);
        ChildProcess.Result r;
        try (ChildProcess p = ChildProcess.start("pyverbs", List.of(python.toString(), "-c",
                "import pyverbs.device as d; print([x.name.decode() for x in d.get_device_list()])"), env, work)) {
            r = p.await(DEADLINE);
        }
        assumeFalse(r.stderr().contains("No module named 'pyverbs'"),
                "pyverbs is not installed (Debian package python3-pyverbs); this test runs in CI, which installs it");
        assertLoaded(r);
        assertThat(r.exitCode()).as(r.describe()).isZero();
        assertThat(r.stdout().strip()).as(r.describe()).isEqualTo("['" + hosts.serverDevice() + "']");
    }

    /** rdma-core's own pyverbs test of a shared PD (Debian ships the suite, partly gzipped, with
     *  python3-pyverbs): the server's context imported through a dup of its command fd, its PD and
     *  MR imported by handle, RDMA WRITEs both ways through QPs of the imported context and PD. */
    @Test
    void pyverbs_sharedPd_importedContextPdAndMr_rdmaWrite(@TempDir Path work) throws IOException {
        Path python = Path.of("/usr/bin/python3");
        Path suite = Path.of("/usr/share/doc/rdma-core/tests");
        assumeFalse(!Files.isExecutable(python) || !Files.isRegularFile(suite.resolve("test_shared_pd.py")),
                "rdma-core's pyverbs tests are not installed (Debian packages python3 and python3-pyverbs); this test runs in CI, which installs them");
        Path tests = Files.createDirectories(work.resolve("tests"));
        try (Stream<Path> files = Files.list(suite)) {
            for (Path f : files.toList()) {
                String name = f.getFileName().toString();
                try (InputStream in = name.endsWith(".gz") ? new GZIPInputStream(Files.newInputStream(f)) : Files.newInputStream(f)) {
                    Files.copy(in, tests.resolve(name.replaceFirst("\\.gz$", "")));
                }
            }
        }
        SoftverbsEnv.Hosts hosts = randomHosts("pd");
        Map<String, String> env = SoftverbsEnv.processEnv(hosts.serverDevices());
        env.put("LD_PRELOAD", null);
        ChildProcess.Result r;
        try (ChildProcess p = ChildProcess.start("pyverbs-shared-pd", List.of(python.toString(), "tests/run_tests.py",
                "--dev", hosts.serverDevice(), "--gid", "3", "-v", "test_shared_pd"), env, work)) {
            r = p.await(PERFTEST_DEADLINE);
        }
        assertLoaded(r);
        assertThat(r.stderr()).as(r.describe()).contains("test_imported_rc_ex_rdma_write").contains(" ... ok")
                .contains("Ran 1 test");
        assertThat(r.exitCode()).as(r.describe()).isZero();
    }

    /** Unmodified perftest, RC, server and client each on its own softverbs device, GID index 3
     *  (IPv4-mapped RoCE v2): both ends finish and print a result row for all iterations. */
    @ParameterizedTest
    @ValueSource(strings = {"ib_send_lat", "ib_send_bw", "ib_write_lat", "ib_write_bw", "ib_read_lat", "ib_read_bw",
        "ib_atomic_lat", "ib_atomic_bw"})
    void perftest_runsToCompletion(String tool, @TempDir Path work) {
        runPerftest(tool, List.of(), work);
    }

    /** The UD and UC transports. (-a, every size from 2 bytes to 8 MiB, also completes, but takes
     *  ~45 s on a loaded 2-core machine: too long for the suite.) */
    @ParameterizedTest
    @ValueSource(strings = {"ib_send_lat -c UD", "ib_send_bw -c UD", "ib_send_lat -c UC", "ib_write_bw -c UC"})
    void perftestVariants_runToCompletion(String spec, @TempDir Path work) {
        List<String> words = List.of(spec.split(" "));
        runPerftest(words.get(0), words.subList(1, words.size()), work);
    }

    private static void runPerftest(String tool, List<String> options, Path work) {
        Path bin = SoftverbsEnv.requireTool(tool, "perftest");
        SoftverbsEnv.Hosts hosts = randomHosts("pt");
        int port = Pingpong.freeTcpPort();
        List<String> common = new ArrayList<>(List.of(bin.toString(), "-x", "3", "-n",
                Integer.toString(PERFTEST_ITERS), "-p", Integer.toString(port)));
        common.addAll(options);
        List<String> serverCmd = new ArrayList<>(common);
        serverCmd.addAll(List.of("-d", hosts.serverDevice()));
        List<String> clientCmd = new ArrayList<>(common);
        clientCmd.addAll(List.of("-d", hosts.clientDevice(), hosts.serverIp()));
        ChildProcess.Result server;
        ChildProcess.Result client;
        try (ChildProcess s = ChildProcess.start(tool + "-server", serverCmd,
                SoftverbsEnv.processEnv(hosts.serverDevices()), work)) {
            Pingpong.awaitListening(s, port);
            try (ChildProcess c = ChildProcess.start(tool + "-client", clientCmd,
                    SoftverbsEnv.processEnv(hosts.clientDevices()), work)) {
                client = c.await(PERFTEST_DEADLINE);
            }
            server = s.await(PERFTEST_DEADLINE);
        }
        String both = server.describe() + "\n" + client.describe();
        assertLoaded(server);
        assertLoaded(client);
        assertThat(server.exitCode()).as(both).isZero();
        assertThat(client.exitCode()).as(both).isZero();
        // each side announces the other's IPv4-mapped GID, and the client reports every iteration
        assertThat(client.stdout()).as(both).contains(gidBytes(hosts.serverIp())).contains(gidBytes(hosts.clientIp()));
        Matcher row = PERFTEST_ROW.matcher(client.stdout());
        assertThat(row.find()).as(both).isTrue();
        assertThat(Integer.parseInt(row.group(2))).as(both).isEqualTo(PERFTEST_ITERS);
    }

    /** perftest's GID line: "GID: 00:00:...:255:255:127:77:03:01" (the last four bytes in decimal,
     *  two digits each). */
    private static String gidBytes(String ipv4) {
        StringBuilder sb = new StringBuilder("255:255");
        for (String part : ipv4.split("\\.")) {
            sb.append(':').append(String.format(Locale.ROOT, "%02d", Integer.parseInt(part)));
        }
        return sb.toString();
    }
}
