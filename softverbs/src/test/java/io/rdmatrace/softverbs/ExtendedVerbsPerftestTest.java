package io.rdmatrace.softverbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Unmodified perftest through the extended send API. perftest 4.5 posts with ibv_wr_* only on
 * devices it knows as ConnectX/BlueField/EFA (by vendor_part_id), so both devices carry a
 * ConnectX-6 identity (vendor_id=0x02c9, vendor_part=4123) and every run must say
 * "ibv_wr* API : ON": all eight binaries on RC, and the UD and UC variants perftest has.
 * (EcosystemProgramsTest runs them through ibv_post_send with softverbs' own identity.)
 */
class ExtendedVerbsPerftestTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    /** Few iterations: the run proves the verbs work end to end, it does not measure. */
    private static final int ITERS = 20;
    private static final String CONNECTX6 = ":vendor_id=0x02c9:vendor_part=4123";
    private static final Pattern ROW = Pattern.compile("(?m)^\\s*(\\d+)\\s+(\\d+)\\s+[0-9.]+");
    private static final Pattern WR_API = Pattern.compile("ibv_wr\\* API\\s*:\\s*ON");

    static Stream<Arguments> runs() {
        return Stream.of(
                Arguments.of("ib_send_lat", List.of()), Arguments.of("ib_send_bw", List.of()),
                Arguments.of("ib_write_lat", List.of()), Arguments.of("ib_write_bw", List.of()),
                Arguments.of("ib_read_lat", List.of()), Arguments.of("ib_read_bw", List.of()),
                Arguments.of("ib_atomic_lat", List.of()),                              // fetch-and-add
                Arguments.of("ib_atomic_bw", List.of("-A", "CMP_AND_SWAP")),
                Arguments.of("ib_send_bw", List.of("-c", "UD")),
                Arguments.of("ib_send_lat", List.of("-c", "UC")),
                Arguments.of("ib_write_bw", List.of("-c", "UC")));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("runs")
    void perftest_wrApi_runsToCompletion(String tool, List<String> options, @TempDir Path work) {
        Path bin = SoftverbsEnv.requireTool(tool, "perftest");
        SoftverbsEnv.Hosts hosts = ExtendedVerbsPingpongTest.randomHosts();
        int port = Pingpong.freeTcpPort();
        List<String> common = new ArrayList<>(List.of(bin.toString(), "-x", "3", "-n", Integer.toString(ITERS),
                "-p", Integer.toString(port)));
        common.addAll(options);
        List<String> serverCmd = new ArrayList<>(common);
        serverCmd.addAll(List.of("-d", hosts.serverDevice()));
        List<String> clientCmd = new ArrayList<>(common);
        clientCmd.addAll(List.of("-d", hosts.clientDevice(), hosts.serverIp()));
        ChildProcess.Result server;
        ChildProcess.Result client;
        try (ChildProcess s = ChildProcess.start(tool + "-server", serverCmd,
                SoftverbsEnv.processEnv(hosts.serverDevices() + CONNECTX6), work)) {
            Pingpong.awaitListening(s, port);
            try (ChildProcess c = ChildProcess.start(tool + "-client", clientCmd,
                    SoftverbsEnv.processEnv(hosts.clientDevices() + CONNECTX6), work)) {
                client = c.await(DEADLINE);
            }
            server = s.await(DEADLINE);
        }
        String both = server.describe() + "\n" + client.describe();
        assertThat(server.exitCode()).as(both).isZero();
        assertThat(client.exitCode()).as(both).isZero();
        assertThat(WR_API.matcher(client.stdout()).find()).as("perftest used ibv_wr_*\n" + both).isTrue();
        assertThat(WR_API.matcher(server.stdout()).find()).as("perftest used ibv_wr_*\n" + both).isTrue();
        Matcher row = ROW.matcher(client.stdout());
        assertThat(row.find()).as(both).isTrue();
        assertThat(Integer.parseInt(row.group(2))).as(both).isEqualTo(ITERS);
    }
}
