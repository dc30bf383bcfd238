package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.trace.synth.SyntheticTrace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One error taxonomy for every verb, as a table: the same condition gives the same exit code
 * (2 usage or unusable input, 1 findings or failure) and one line naming the problem, never a
 * stack trace; bad option and scenario values are refused before anything starts.
 */
class ExitCodeTableTest {
    @TempDir
    static Path dir;
    static Path clean;
    static Path fault;
    static Path empty;
    static Path missing;
    static Path manyRepeats;
    static Path negativeRepeats;

    @BeforeAll
    static void inputs() throws Exception {
        clean = dir.resolve("clean");
        SyntheticTrace.write(SyntheticTrace.Spec.of(clean, 1, 10));
        fault = dir.resolve("fault");
        SyntheticTrace.write(SyntheticTrace.Spec.of(fault, 1, 10).withFault(SyntheticTrace.Fault.PSN_OFF_BY_ONE));
        empty = Files.createDirectories(dir.resolve("empty"));
        missing = dir.resolve("missing");
        String scenario = MainTest.run("capture", "--listen", "7471", "--print-scenario").out();
        assertThat(scenario).contains("\"repeat\" : 1");
        manyRepeats = Files.writeString(dir.resolve("many.json"), scenario.replace("\"repeat\" : 1", "\"repeat\" : \"many\""));
        negativeRepeats = Files.writeString(dir.resolve("negative.json"), scenario.replace("\"repeat\" : 1", "\"repeat\" : -1"));
    }

    static Stream<Arguments> table() {
        List<Arguments> rows = new ArrayList<>();
        // bad values, refused before the device opens or the port listens
        String listen = "127.0.0.1:0";
        rows.add(row(2, "--gid-index", "capture", "--soft", "--listen", listen, "--out", "@out", "--gid-index", "99999"));
        rows.add(row(2, "path_mtu=abc", "capture", "--soft", "--listen", listen, "--out", "@out", "--modify-in-rts", "path_mtu=abc"));
        rows.add(row(2, "repeat must be a number", "capture", "--soft", "--listen", listen, "--out", "@out", "--scenario", "@many"));
        rows.add(row(2, "repeat must be at least 1", "capture", "--soft", "--listen", listen, "--out", "@out", "--scenario", "@negative"));
        rows.add(row(2, "/nonexistent/dir/x: its folder does not exist", "analyze", "-o", "/nonexistent/dir/x", "@clean"));
        rows.add(row(2, "--rules /nonexistent: no such folder", "analyze", "--rules", "/nonexistent", "@clean"));
        rows.add(row(2, "--rules /nonexistent: no such folder", "timeline", "--rules", "/nonexistent", "@clean", "-o", "@out/t.html"));
        // the same unusable input: 2 in every verb
        for (String input : List.of("@missing", "@empty")) {
            rows.add(row(2, "", "analyze", input));
            rows.add(row(2, "", "diff", input, "@clean"));
            rows.add(row(2, "", "diff", "@clean", input));
            rows.add(row(2, "", "timeline", input, "-o", "@out/t.html"));
            rows.add(row(2, "", "export", input, "-o", "@out/b.zip"));
            rows.add(row(2, "", "replay", input, "--soft", "--out", "@out/r"));
        }
        // findings and failures: 1
        rows.add(row(1, "", "analyze", "@fault"));
        rows.add(row(1, "", "diff", "@clean", "@fault"));
        // and success: 0
        rows.add(row(0, "", "analyze", "@clean"));
        return rows.stream();
    }

    private static Arguments row(int code, String says, String... args) {
        return Arguments.of(String.join(" ", args), code, says);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("table")
    void sameConditionSameExitCode(String line, int code, String says, @TempDir Path out) {
        String[] args = line.split(" ");
        for (int i = 0; i < args.length; i++) {
            args[i] = args[i].replace("@out", out.toString()).replace("@clean", clean.toString())
                    .replace("@fault", fault.toString()).replace("@empty", empty.toString())
                    .replace("@missing", missing.toString()).replace("@many", manyRepeats.toString())
                    .replace("@negative", negativeRepeats.toString());
        }
        MainTest.Run run = MainTest.run(args);
        assertThat(run.code()).as(line + "\n" + run.out() + run.err()).isEqualTo(code);
        assertThat(run.err()).as(line).doesNotContain("unexpected internal error").doesNotContain("\tat ");
        if (code == 2) {
            assertThat(run.err()).as(line).startsWith("rdmatrace " + args[0] + ": ").contains(says);
        }
        if (code == 2 && args[0].equals("capture")) {
            assertThat(out.resolve(CaptureCommand.HostName.local())).as("nothing started").doesNotExist();
            assertThat(run.out()).as("nothing started").doesNotContain("listening on");
        }
    }
}
