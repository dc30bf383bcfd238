package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Ctrl-C typed in a terminal reaches the recorded program once: the terminal sends SIGINT to
 * the whole foreground process group (rdmatrace and the program), and rdmatrace does not pass a
 * second one on. The terminal is a pseudo-terminal made by script(1); the Ctrl-C is the ETX byte
 * written to it, turned into SIGINT by its line discipline.
 */
class RecordInterruptTest {

    @Test
    void ctrlCInATerminal_reachesTheProgramOnce(@TempDir Path work) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/script")), "script(1) (bsdutils) is missing");
        Path started = work.resolve("started");
        Path program = work.resolve("count-ints.sh");
        Files.writeString(program, String.join("\n", "#!/bin/bash", "n=0; trap 'n=$((n+1))' INT", "touch " + started,
                "for i in $(seq 30); do sleep 0.1; done", "echo INTS=$n", ""));
        assertThat(program.toFile().setExecutable(true)).isTrue();
        List<String> record = RecordJvm.command(List.of("--out", work.resolve("trace").toString(), "--", program.toString()));
        String line = record.stream().map(a -> "'" + a.replace("'", "'\\''") + "'").collect(Collectors.joining(" "));
        Path output = work.resolve("terminal.out");
        Process terminal = new ProcessBuilder("/usr/bin/script", "-qfec", line, "/dev/null").directory(work.toFile())
                .redirectOutput(output.toFile()).redirectErrorStream(true).start();
        try (OutputStream keys = terminal.getOutputStream()) {
            for (int i = 0; i < 600 && !Files.exists(started); i++) {
                Thread.sleep(50);
            }
            assertThat(started).as("the program started: %s", Files.readString(output)).exists();
            keys.write(3); // Ctrl-C
            keys.flush();
            assertThat(terminal.waitFor(60, TimeUnit.SECONDS)).as("script finished").isTrue();
        } finally {
            terminal.descendants().forEach(ProcessHandle::destroyForcibly);
            terminal.destroyForcibly();
        }
        assertThat(Files.readString(output, StandardCharsets.UTF_8)).contains("INTS=1").doesNotContain("INTS=2");
    }
}
