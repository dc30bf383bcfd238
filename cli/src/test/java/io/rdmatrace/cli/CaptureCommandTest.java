package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.capture.config.CaptureConfig;
import io.rdmatrace.capture.config.PsnChoice;
import io.rdmatrace.capture.scenario.ScenarioJson;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** `rdmatrace capture` options in-process: parsing, validation, the SESSION's override list, --print-scenario. */
class CaptureCommandTest {

    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(code, out.toString(), err.toString());
    }

    private static CaptureConfig config(String... args) {
        CaptureCommand cmd = new CaptureCommand();
        new CommandLine(cmd).parseArgs(args);
        return cmd.config();
    }

    @Test
    void overrides_listWhatWasGivenAndNeverTheToken() {
        CaptureConfig c = config("--connect", "hostA:7471", "--advertise-psn", "-1", "--retry-cnt", "2", "--out", "x",
                "--token", "s3cret", "--host-id", "hostB", "--no-grh");
        assertThat(c.overrides()).containsEntry("--advertise-psn", "-1").containsEntry("--retry-cnt", "2")
                .containsEntry("--no-grh", "true").containsEntry("--token", "(set)")
                .doesNotContainKeys("--out", "--host-id", "--connect");
        assertThat(c.commandLine()).contains("--token ***").doesNotContain("s3cret");
        assertThat(c.knobs().advertisePsn()).isEqualTo(new PsnChoice(PsnChoice.Kind.OFFSET, -1));
        assertThat(c.knobs().retryCnt()).isEqualTo(2);
        assertThat(c.knobs().grh()).isFalse();
        assertThat(c.hostId()).isEqualTo("hostB");
        assertThat(config("--listen", "1", "--dest-qpn", "0x999", "--sq-psn", "100").knobs().destQpn()).isEqualTo(0x999);
        assertThat(run("capture", "--listen", "0", "--dest-qpn", "0x1000000").err()).contains("--dest-qpn takes a 24-bit number");
        assertThat(c.traceDir()).isEqualTo(Path.of("x", "hostB"));
    }

    @Test
    void defaults_areACleanRcBringUp() {
        CaptureConfig c = config("--listen", "7471");
        assertThat(c.workload().size()).isEqualTo(4096);
        assertThat(c.knobs().timeout()).isEqualTo(14);
        assertThat(c.knobs().rnrRetry()).isEqualTo(7);
        assertThat(c.knobs().minRnrTimer()).isEqualTo(12);
        assertThat(c.link().barrier()).isTrue();
        assertThat(c.overrides()).isEmpty();
        assertThat(config("--listen", "7471", "--qp-type", "ud").workload().size()).isEqualTo(CaptureCommand.UD_DEFAULT_SIZE);
        assertThat(config("--listen", "7471", "--qp-type", "ud", "--size", "4096").workload().size()).isEqualTo(4096);
    }

    @Test
    void badValues_areUsageErrorsNamingTheOption() {
        Run r = run("capture", "--listen", "0", "--qp-type", "xx");
        assertThat(r.code()).isEqualTo(ExitCode.USAGE);
        assertThat(r.err()).contains("--qp-type must be one of rc, uc, ud");
        assertThat(run("capture", "--listen", "0", "--qp-type", "ud", "--op", "read").err()).contains("--op read is not possible on a UD QP");
        assertThat(run("capture", "--listen", "0", "--path-mtu", "1500").err()).contains("256, 512, 1024, 2048 or 4096");
        assertThat(run("capture", "--listen", "0", "--mr-access", "remote-wrte").err()).contains("remote-wrte");
        assertThat(run("capture", "--listen", "0", "--timeout", "40").err()).contains("--timeout must be in 0..31");
        assertThat(run("capture", "--listen", "0", "--connect", "h:1").code()).isEqualTo(ExitCode.USAGE);
        assertThat(run("capture").code()).isEqualTo(ExitCode.USAGE);
    }

    @Test
    void printScenario_isTheShippedBuiltIn() throws Exception {
        Run r = run("capture", "--listen", "0", "--print-scenario");
        assertThat(r.code()).isZero();
        try (InputStream in = ScenarioJson.class.getResourceAsStream("bringup.json")) {
            String shipped = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(ScenarioJson.parse(r.out())).isEqualTo(ScenarioJson.parse(shipped));
        }
        assertThat(run("capture", "--listen", "0", "--op", "write", "--print-scenario").out()).contains("\"written\"");
    }

    @Test
    void noLibibverbs_isAnEnvironmentError(@TempDir Path out) {
        Run r = run("capture", "--listen", "127.0.0.1:0", "--out", out.toString(), "--verbs-lib",
                out.resolve("missing/libibverbs.so.1").toString());
        assertThat(r.code()).isEqualTo(ExitCode.USAGE);
        assertThat(r.err()).startsWith("rdmatrace capture: ").contains("libibverbs.so.1");
        // the trace folder claimed (its queue opening) before the load failed is removed again
        assertThat(out.toFile().list()).isEmpty();
    }

    @Test
    void outFolderHoldingATrace_isRefusedBeforeLibibverbsLoads(@TempDir Path out) throws Exception {
        Path dir = Files.createDirectories(out.resolve("h"));
        Files.writeString(dir.resolve("2026W01.cq4"), "a trace");
        Run r = run("capture", "--listen", "127.0.0.1:0", "--out", out.toString(), "--host-id", "h", "--verbs-lib",
                out.resolve("missing/libibverbs.so.1").toString());
        assertThat(r.code()).isEqualTo(ExitCode.USAGE);
        assertThat(r.err()).startsWith("rdmatrace capture: ").contains("already holds a trace")
                .doesNotContain("libibverbs.so.1");
        assertThat(Files.readString(dir.resolve("2026W01.cq4"))).isEqualTo("a trace");
    }
}
