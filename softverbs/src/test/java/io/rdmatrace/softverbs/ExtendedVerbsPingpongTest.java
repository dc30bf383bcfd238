package io.rdmatrace.softverbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Unmodified ibv_rc_pingpong on the extended verbs: {@code -N} posts every send through
 * ibv_create_qp_ex / ibv_qp_to_qp_ex / ibv_wr_start..ibv_wr_complete and finishes all its
 * iterations; {@code -t} asks for completion timestamps, which softverbs does not advertise
 * (completion_timestamp_mask 0, as rxe), so it stops cleanly with the tool's own message.
 */
class ExtendedVerbsPingpongTest {
    private static final int ITERATIONS = 100;

    /** A loopback pair of our own (127.X.Y.1/.2): other test processes hold other pairs. */
    static SoftverbsEnv.Hosts randomHosts() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        String net = "127." + r.nextInt(1, 255) + "." + r.nextInt(0, 256) + ".";
        return new SoftverbsEnv.Hosts("a", net + "1", "b", net + "2");
    }

    static Stream<Arguments> newSendApi() {
        return Stream.of(
                Arguments.of(List.of("-N")),                     // 4096 B: 4 packets at path MTU 1024
                Arguments.of(List.of("-N", "-s", "8192")),
                Arguments.of(List.of("-N", "-e")));              // with a completion channel
    }

    @ParameterizedTest(name = "ibv_rc_pingpong {0}")
    @MethodSource("newSendApi")
    void newSendApi_completes(List<String> options, @TempDir Path work) {
        Pingpong.Run run = Pingpong.run(Pingpong.Kind.RC, randomHosts(), options, ITERATIONS, work);

        Pingpong.assertCompleted(run, ITERATIONS);
        assertThat(run.server().stderr() + run.client().stderr()).as(run.describe())
                .doesNotContain("Failed status", "Couldn't", "parse WC failed");
    }

    @Test
    void completionTimestamps_refusedCleanly(@TempDir Path work) {
        Path tool = SoftverbsEnv.requireTool("ibv_rc_pingpong", "ibverbs-utils");
        SoftverbsEnv.Hosts hosts = randomHosts();
        // the device check comes before the TCP exchange, so the server alone shows it
        try (ChildProcess p = ChildProcess.start("rc-ts", List.of(tool.toString(), "-g", "3", "-t",
                "-p", Integer.toString(Pingpong.freeTcpPort())), SoftverbsEnv.processEnv(hosts.serverDevices()), work)) {
            ChildProcess.Result r = p.await(Duration.ofSeconds(30));

            assertThat(r.timedOut()).as(r.describe()).isFalse();
            assertThat(r.exitCode()).as(r.describe()).isNotZero();
            assertThat(r.stderr()).as(r.describe()).contains("The device isn't completion timestamp capable");
        }
    }
}
