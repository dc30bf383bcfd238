package io.rdmatrace.trace;

import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.store.ReadOutcome;
import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.trace.store.TraceLayout;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.store.TraceWriter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One writer per host folder: a second one is refused at once, a killed one's lock never blocks. */
class WriterLockTest {

    @TempDir
    Path out;

    @Test
    void secondWriterInThisProcess_isRefusedAtOnce_andTheFirstTraceStaysClean() throws Exception {
        try (TraceWriter first = TraceWriter.create(out, EdgeFixture.session("h"))) {
            first.mark("S", MarkEvent.Verdict.INFO, "one");
            TraceException e = catchThrowableOfType(TraceException.class,
                    () -> TraceWriter.create(out, EdgeFixture.session("h")));
            assertThat(e.problem()).isEqualTo(TraceException.Problem.LOCKED);
            assertThat(e.getMessage()).contains("being written by another capture")
                    .contains("pid " + ProcessHandle.current().pid()).doesNotContain("\n");
            first.mark("S", MarkEvent.Verdict.INFO, "two");
        }
        TraceReader.Result r = TraceReader.readAll(out.resolve("h"));
        assertThat(r.outcome().status()).isEqualTo(ReadOutcome.Status.CLEAN);
        assertThat(r.events()).hasSize(4); // SESSION, two marks, END: nothing interleaved
        assertThat(Files.readString(out.resolve("h").resolve(TraceLayout.WRITER_LOCK_FILE))).isEmpty();
    }

    @Test
    void staleLockFileOfADeadWriter_isTakenOver() throws Exception {
        Path dir = Files.createDirectories(out.resolve("h"));
        Files.writeString(dir.resolve(TraceLayout.WRITER_LOCK_FILE), "pid 999999999 on host gone\n");
        try (TraceWriter w = TraceWriter.create(out, EdgeFixture.session("h"))) {
            assertThat(Files.readString(dir.resolve(TraceLayout.WRITER_LOCK_FILE)))
                    .isEqualTo("pid " + ProcessHandle.current().pid() + " on host " + hostName() + "\n");
        }
        assertThat(TraceReader.readAll(dir).outcome().status()).isEqualTo(ReadOutcome.Status.CLEAN);
    }

    @Test
    void writerInAnotherProcess_refusesUsWhileAlive_andAfterKill9OnlyTheOldTraceRemains() throws Exception {
        Process child = ChildJvm.start(LockHolderChild.class, out.toString(), "h");
        try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line = r.readLine();
            assertThat(line).as("child started").startsWith("ready pid ");
            long pid = child.pid();
            TraceException live = catchThrowableOfType(TraceException.class,
                    () -> TraceWriter.create(out, EdgeFixture.session("h")));
            assertThat(live.problem()).isEqualTo(TraceException.Problem.LOCKED);
            assertThat(live.getMessage()).contains("pid " + pid);

            child.destroyForcibly(); // SIGKILL: the OS releases the fcntl lock, the pid text stays
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            TraceException after = catchThrowableOfType(TraceException.class,
                    () -> TraceWriter.create(out, EdgeFixture.session("h")));
            assertThat(after.problem()).isEqualTo(TraceException.Problem.ALREADY_EXISTS);
            assertThat(after.getMessage()).contains("left by a capture that was killed: pid " + pid);
        } finally {
            child.destroyForcibly();
        }
        TraceReader.Result r = TraceReader.readAll(out.resolve("h"));
        assertThat(r.outcome().status()).isEqualTo(ReadOutcome.Status.TRUNCATED);
        assertThat(r.events()).hasSize(2);
    }


    private static String hostName() throws Exception {
        return Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
    }
}
