package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.junit.jupiter.api.Test;

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
}
