package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.model.Verb;

/** `rdmatrace watch`: findings of recordings that still run, each once; its ends and its exit codes. */
class WatchCommandTest {

    /**
     * The hang issue 28 asks for: a UC pingpong whose ends set path MTUs 1024 and 4096 on 9000-byte links
     * hangs both programs. watch, started before either record, names the mismatch while both still
     * hang, and ends by itself once both are stopped. ~15 s.
     */
    @Test
    void twoHostHang_theMismatchIsPrintedOnceWhileBothHang_andWatchEndsWithTheTraces(@TempDir Path work) throws Exception {
        Path tool = InstalledPrograms.require("ibv_uc_pingpong");
        LoopbackPair ips = LoopbackPair.random();
        String port = Integer.toString(RecordJvm.freeTcpPort());
        Path out = work.resolve("trace");
        List<String> a = new ArrayList<>(List.of("--soft", "--grace", "2", "--out", out.toString(), "--host-id", "a", "--",
                tool.toString(), "-d", "wa", "-p", port, "-g", "3", "-m", "1024", "-n", "5"));
        List<String> b = new ArrayList<>(List.of("--soft", "--grace", "2", "--out", out.toString(), "--host-id", "b", "--",
                tool.toString(), "-d", "wb", "-p", port, "-g", "3", "-m", "4096", "-n", "5", ips.a()));
        try (RecordJvm watch = RecordJvm.verb("watch", Map.of(), work, List.of("--interval", "0.5", out.toString()));
                RecordJvm server = RecordJvm.start("a", Map.of("SOFTVERBS_DEVICES", "wa@" + ips.a() + ":mtu=9000"), work, a)) {
            server.awaitListening(Integer.parseInt(port));
            try (RecordJvm client = RecordJvm.start("b", Map.of("SOFTVERBS_DEVICES", "wb@" + ips.b() + ":mtu=9000"), work, b)) {
                long seenAt = awaitLine(watch, "ERROR path-mtu-mismatch on b");
                assertThat(server.process().isAlive()).as("the server still hangs").isTrue();
                assertThat(client.process().isAlive()).as("the client still hangs").isTrue();
                server.process().destroy(); // SIGTERM: record passes it on and closes the trace
                client.process().destroy();
                server.await();
                client.await();
                int code = watch.await();
                String said = watch.stdout();
                assertThat(code).as(watch.describe()).isEqualTo(ExitCode.FAILURE);
                assertThat(said).contains(" waiting for " + out + " to appear")
                        .containsPattern("(?m) a: trace still recording$").containsPattern("(?m) b: trace still recording$")
                        .containsPattern("(?m) a: trace complete, .*SIGTERM")
                        .contains("Every host's trace has ended: 2 host(s); ")
                        .contains("Root cause (path-mtu-mismatch): ")
                        .contains("The whole report: rdmatrace analyze " + out);
                assertThat(count(said, "ERROR path-mtu-mismatch on b")).as(said).isEqualTo(1);
                // from the moment the later of the two ends set its path MTU (modify to RTR) to the line
                long visible = Math.max(rtrWallMillis(out.resolve("a")), rtrWallMillis(out.resolve("b")));
                System.out.printf("watch: path-mtu-mismatch printed %d ms after both ends set their path MTU%n",
                        seenAt - visible);
                assertThat(seenAt - visible).as("ms from visible to printed (goal: within 5 s)").isLessThan(30_000);
            }
        }
    }

    /** A finished capture is one round: every finding once, the summary, analyze's exit code. */
    @Test
    void finishedTraces_oneRound_everyFindingOnce_exitAsAnalyze() {
        Path sample = Path.of("..").toAbsolutePath().normalize().resolve("sample-traces").resolve("path-mtu-one-side");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(new PrintWriter(out), new PrintWriter(err), "watch", "--verbose", sample.toString());
        assertThat(err.toString()).containsPattern("^rdmatrace watch: round 1: \\d+ events of 2 host\\(s\\) analyzed in \\d+ ms\n$");
        String said = out.toString();
        assertThat(code).as(said).isEqualTo(ExitCode.FAILURE);
        assertThat(said).containsPattern("(?m)^\\d\\d:\\d\\d:\\d\\d hostA: trace complete$")
                .contains("Every host's trace has ended: 2 host(s); ").contains("Root cause (path-mtu-exceeds-active): ");
        // each once, causes before their consequences
        assertThat(count(said, "ERROR path-mtu-mismatch on hostA")).isEqualTo(1);
        assertThat(count(said, "ERROR path-mtu-exceeds-active on hostA")).isEqualTo(1);
        assertThat(said.indexOf("path-mtu-exceeds-active on")).isLessThan(said.indexOf("completion-error on hostA"));
        StringWriter never = new StringWriter();
        assertThat(Main.execute(new PrintWriter(never), new PrintWriter(new StringWriter()), "watch", "--fail-on", "never",
                sample.toString())).isEqualTo(ExitCode.OK);
    }

    /** SIGTERM ends watch at its next pause, cleanly: before any trace appeared, that is exit 2 and says so. */
    @Test
    void sigterm_beforeAnyTraceAppeared_exit2NamingTheSignal(@TempDir Path work) throws Exception {
        Path missing = work.resolve("not-yet");
        try (RecordJvm watch = RecordJvm.verb("watch", Map.of(), work, List.of(missing.toString()))) {
            awaitLine(watch, "waiting for " + missing + " to appear");
            watch.process().destroy();
            assertThat(watch.await()).as(watch.describe()).isEqualTo(ExitCode.USAGE);
            assertThat(watch.stderr()).contains("stopped by SIGTERM before any trace appeared in " + missing)
                    .doesNotContain("Exception");
        }
    }

    @Test
    void usage_badIntervalOrNoFolder_exit2() {
        StringWriter err = new StringWriter();
        assertThat(Main.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), "watch", "--interval", "0", "x"))
                .isEqualTo(ExitCode.USAGE);
        assertThat(err.toString()).contains("--interval must be between 0.1 and 3600 seconds, not 0.0");
        assertThat(Main.execute(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), "watch"))
                .isEqualTo(ExitCode.USAGE);
    }

    /** Polls watch's output (bounded) for {@code text}; the wall-clock millis it was first seen. */
    private static long awaitLine(RecordJvm watch, String text) throws InterruptedException {
        for (int i = 0; i < 1200; i++) {
            if (watch.stdout().contains(text)) {
                return System.currentTimeMillis();
            }
            if (!watch.process().isAlive()) {
                break;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("watch never printed '" + text + "':\n" + watch.describe());
    }

    /** Wall clock of the host's second ibv_modify_qp (INIT, then RTR: where the pingpongs set the path MTU). */
    private static long rtrWallMillis(Path host) throws Exception {
        return TraceReader.readAll(host).events().stream()
                .filter(e -> e instanceof CallEvent c && c.verb() == Verb.IBV_MODIFY_QP)
                .skip(1).findFirst().orElseThrow().header().wallNanos() / 1_000_000;
    }

    private static int count(String text, String needle) {
        Matcher m = Pattern.compile(Pattern.quote(needle)).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }


    @Test
    void linesAreStampedWithSeconds_evenAtAWholeMinute() {
        assertThat(WatchCommand.clock(java.time.LocalTime.of(0, 18))).isEqualTo("00:18:00");
        assertThat(WatchCommand.clock(java.time.LocalTime.of(23, 5, 7, 999_000_000))).isEqualTo("23:05:07");
    }
}
