package io.rdmatrace.softverbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Unmodified Debian ibv_rc_pingpong / ibv_ud_pingpong between two processes on two softverbs
 * devices finish all their iterations with exit code 0 (issue 3, "Done when").
 */
class PingpongTest {
    private static final int ITERATIONS = 100;

    static Stream<Arguments> variants() {
        return Stream.of(
                Arguments.of(Pingpong.Kind.RC, List.of()),                      // 4096 B: 4 packets at path MTU 1024
                Arguments.of(Pingpong.Kind.RC, List.of("-s", "8192")),          // 8 packets per message
                Arguments.of(Pingpong.Kind.RC, List.of("-s", "1")),             // one byte, 3 bytes of pad
                Arguments.of(Pingpong.Kind.RC, List.of("-e")),                  // completion channel + events
                Arguments.of(Pingpong.Kind.RC, List.of("-e", "-s", "8192")),
                Arguments.of(Pingpong.Kind.UD, List.of()),                      // 1024 B = the active MTU
                Arguments.of(Pingpong.Kind.UD, List.of("-e")));
    }

    @ParameterizedTest(name = "{0} pingpong {1}")
    @MethodSource("variants")
    void pingpong_completes(Pingpong.Kind kind, List<String> options, @TempDir Path work) {
        Pingpong.Run run = Pingpong.run(kind, options, ITERATIONS, work);

        Pingpong.assertCompleted(run, ITERATIONS);
        assertThat(run.server().stdout() + run.client().stdout()).doesNotContain("invalid data");
        assertThat(run.server().stderr() + run.client().stderr()).as(run.describe())
                .doesNotContain("Failed status", "Couldn't", "parse WC failed");
    }
}
