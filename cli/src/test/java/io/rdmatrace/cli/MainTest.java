package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import io.rdmatrace.analyzer.AnalysisWarmUp;

class MainTest {

    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void noArguments_printsUsageAndSucceeds() {
        Run run = run();
        assertThat(run.code()).isEqualTo(ExitCode.OK);
        assertThat(run.out()).contains("Usage: rdmatrace").contains("Example usage:");
    }

    @Test
    void unknownVerb_isAUsageError() {
        Run run = run("frobnicate");
        assertThat(run.code()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).startsWith("rdmatrace: ").contains("frobnicate").contains("Usage:");
    }

    @Test
    void version_namesToolAndJava() {
        Run run = run("--version");
        assertThat(run.code()).isEqualTo(ExitCode.OK);
        assertThat(run.out()).startsWith("rdmatrace ").contains("Java " + Runtime.version().feature());
    }

    @Test
    void version_namesTheCommitAndTheBundledLibraries() throws Exception {
        String out = run("--version").out();
        // the build ran in a git checkout: the commit is the one HEAD names (plus -dirty when edited)
        Process git = new ProcessBuilder("git", "rev-parse", "--short=12", "HEAD").redirectErrorStream(true).start();
        String head = new String(git.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
        assertThat(git.waitFor()).isZero();
        assertThat(out.lines().findFirst().orElseThrow()).matches("rdmatrace \\S+ \\(commit [0-9a-f]{12}(-dirty)?\\)")
                .contains(head);
        String bundled = out.lines().filter(l -> l.startsWith("bundled: ")).findFirst().orElseThrow();
        for (String lib : java.util.List.of("Apache Arrow", "Chronicle Queue", "DuckDB JDBC", "SLF4J", "jOOQ", "picocli")) {
            assertThat(bundled).containsPattern(lib + " [0-9]+(\\.[0-9]+)+(,|$)");
        }
        assertThat(out).contains("native: softverbs and the tracing libibverbs.so.1");
    }

    @Test
    void everyVerb_answersHelpWithExamples() {
        for (String verb : Main.newCommandLine().getSubcommands().keySet()) {
            Run run = run(verb, "--help");
            assertThat(run.code()).as(verb + " --help").isEqualTo(ExitCode.OK);
            assertThat(run.out()).as(verb + " --help").contains("Usage: rdmatrace " + verb);
        }
    }

    @Test
    void errorTaxonomy_mapsExceptionsToExitCodes() {
        assertThat(ErrorHandlers.classify(new UserDataException("bad trace"))).isEqualTo(ExitCode.FAILURE);
        assertThat(ErrorHandlers.classify(new EnvironmentException("no device"))).isEqualTo(ExitCode.USAGE);
        assertThat(ErrorHandlers.classify(new IllegalStateException("bug"))).isEqualTo(ExitCode.INTERNAL);
    }

    @Test
    void loadsTraces_onlyForAVerbThatLoadsATrace_andNotForItsHelpOrListing() {
        assertThat(Main.loadsTraces("analyze", "trace/")).isTrue();
        assertThat(Main.loadsTraces("show", "trace/", "host-a#3")).isTrue();
        assertThat(Main.loadsTraces("timeline", "trace/", "-o", "t.html")).isTrue();
        assertThat(Main.loadsTraces("analyze")).isFalse();
        assertThat(Main.loadsTraces("analyze", "--list-rules")).isFalse();
        assertThat(Main.loadsTraces("analyze", "trace/", "--help")).isFalse();
        assertThat(Main.loadsTraces("show", "-h")).isFalse();
        assertThat(Main.loadsTraces("timeline", "--version")).isFalse();
        assertThat(Main.loadsTraces("capture", "--soft")).isFalse();
        assertThat(Main.loadsTraces("record", "--", "analyze", "trace/")).isFalse();
        assertThat(Main.loadsTraces()).isFalse();
    }

    @Test
    void analyze_withTheWarmUpBegunBeforeTheParse_writesTheSameReport() {
        String sample = Path.of("..").toAbsolutePath().normalize().resolve("sample-traces").resolve("dest-qpn-wrong").toString();
        Run plain = run("analyze", "--format", "json", "--fail-on", "never", sample);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(new PrintWriter(out), new PrintWriter(err), AnalysisWarmUp.start(),
                "analyze", "--format", "json", "--fail-on", "never", sample);
        assertThat(code).isEqualTo(plain.code()).isEqualTo(ExitCode.OK);
        assertThat(withoutTimings(out.toString())).isEqualTo(withoutTimings(plain.out()))
                .contains("dest-qpn-mismatch");
        assertThat(err.toString()).isEqualTo(plain.err());
    }

    /** A report's own durations differ from run to run. */
    private static String withoutTimings(String json) {
        return json.replaceAll("\"(\\w+_ms)\": *[0-9.]+", "\"$1\": 0");
    }
}
