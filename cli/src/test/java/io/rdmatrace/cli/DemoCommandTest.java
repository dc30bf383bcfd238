package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.trace.store.TraceReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `rdmatrace demo`: two real processes on softverbs, a clean capture, and care with existing folders. */
class DemoCommandTest {

    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void demo_capturesBothHostsCleanlyAndAnalyzes(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("trace");
        LoopbackPair ips = LoopbackPair.random();
        Run r = run("demo", "--out", out.toString(), "--addresses", ips.a() + "," + ips.b());
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("[hostA]").contains("[hostB]").contains("hostA exit 0, hostB exit 0")
                .contains("rdmatrace analyze " + out).contains("0 error(s), 0 warning(s)");
        // the Quick start's output, as the README shows it
        assertThat(ReadmeExamples.missing(ReadmeExamples.of("README.md").find("rdmatrace", "demo").shown(), r.out()))
                .as("README lines the demo did not print; it printed:%n%s", r.out()).isEmpty();
        for (String host : new String[] {"hostA", "hostB"}) {
            TraceReader.Result t = TraceReader.readAll(out.resolve(host));
            assertThat(t.outcome().isClean()).isTrue();
            assertThat(t.session().hostId()).isEqualTo(host);
        }
        // a second demo refuses to overwrite without --replace
        Run again = run("demo", "--out", out.toString(), "--no-analyze");
        assertThat(again.code()).isEqualTo(ExitCode.USAGE);
        assertThat(again.err()).contains("already exists").contains("--replace");
    }

    @Test
    void replace_neverDeletesFilesThatAreNotATrace(@TempDir Path out) throws Exception {
        Files.createDirectories(out.resolve("hostA"));
        Files.writeString(out.resolve("hostA/notes.txt"), "mine");
        Run r = run("demo", "--out", out.toString(), "--replace", "--no-analyze");
        assertThat(r.code()).isEqualTo(ExitCode.USAGE);
        assertThat(r.err()).contains("notes.txt").contains("not deleting");
        assertThat(out.resolve("hostA/notes.txt")).exists();
    }
}
