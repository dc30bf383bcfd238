package io.rdmatrace.trace.store;

import io.rdmatrace.trace.EdgeFixture;
import io.rdmatrace.trace.ChildJvm;
import io.rdmatrace.trace.PacedWriterChild;

import io.rdmatrace.trace.store.LiveWriter;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.store.ReadOutcome;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.store.TraceWriter;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trace read while its writer still appends: RECORDING (not TRUNCATED, not CORRUPT) with every complete
 * event so far, through Chronicle's tailer of a queue another process appends to; TRUNCATED once the
 * writer is gone without an END, CLEAN once it closed.
 */
class LiveTraceTest {

    @TempDir
    Path out;

    @Test
    void writerInThisProcess_readsAsRecordingWithEveryEventSoFar_thenCleanAfterClose() throws Exception {
        Path dir = out.resolve("h");
        try (TraceWriter w = TraceWriter.create(out, EdgeFixture.session("h"))) {
            w.mark("S", MarkEvent.Verdict.INFO, "one");
            w.mark("S", MarkEvent.Verdict.INFO, "two");
            TraceReader.Result live = TraceReader.readAll(dir);
            assertThat(live.outcome().status()).as(live.outcome().detail()).isEqualTo(ReadOutcome.Status.RECORDING);
            assertThat(live.events()).hasSize(3);
            assertThat(live.outcome().detail()).contains("still recording").contains("pid " + ProcessHandle.current().pid());
            assertThat(LiveWriter.holder(dir)).isEqualTo(OptionalLong.of(ProcessHandle.current().pid()));

            w.mark("S", MarkEvent.Verdict.INFO, "three"); // reading released nothing: the writer goes on
            assertThat(TraceReader.readAll(dir).events()).hasSize(4);
        }
        TraceReader.Result done = TraceReader.readAll(dir);
        assertThat(done.outcome().status()).isEqualTo(ReadOutcome.Status.CLEAN);
        assertThat(done.events()).hasSize(5);
        assertThat(LiveWriter.holder(dir)).isEmpty();
    }

    @Test
    void writerAppendingInAnotherProcess_eachReadIsRecordingAndGapless_thenTruncatedAfterKill9() throws Exception {
        Path dir = out.resolve("h");
        Process child = ChildJvm.start(PacedWriterChild.class, out.toString(), "h");
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            long reported = awaitSeq(lines, 2000);
            long first = readLive(dir, reported, child.pid());
            long later = awaitSeq(lines, first + 2000);
            long second = readLive(dir, later, child.pid());
            assertThat(second).isGreaterThan(first);

            child.destroyForcibly();
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            child.destroyForcibly();
        }
        TraceReader.Result dead = TraceReader.readAll(dir);
        assertThat(dead.outcome().status()).as(dead.outcome().detail()).isEqualTo(ReadOutcome.Status.TRUNCATED);
        assertThat(dead.outcome().detail()).contains("no live writer");
        assertThat(LiveWriter.holder(dir)).isEmpty();
    }

    @Test
    void procLocksLines_holderMatchesDeviceAndInode_waitersAreNotHolders() {
        List<String> lines = List.of(
                "1: FLOCK  ADVISORY  WRITE 12003 fe:00:2146320 0 EOF",
                "2: POSIX  ADVISORY  WRITE 16144 fe:00:2156609 0 EOF",
                "2: -> POSIX  ADVISORY  WRITE 17000 fe:01:77 0 EOF",
                "3: OFDLCK ADVISORY  WRITE -1 08:11:99 0 EOF");
        assertThat(LiveWriter.holder(lines, 0xfe, 0, 2156609)).isEqualTo(OptionalLong.of(16144));
        assertThat(LiveWriter.holder(lines, 0xfe, 1, 2156609)).isEmpty();
        assertThat(LiveWriter.holder(lines, 0xfe, 1, 77)).isEmpty();
        assertThat(LiveWriter.holder(lines, 8, 0x11, 99)).isEqualTo(OptionalLong.of(-1));
    }

    /** Reads the live folder: RECORDING, seqs 0..n-1 without a gap, at least up to {@code atLeast}; returns n. */
    private static long readLive(Path dir, long atLeast, long writerPid) throws Exception {
        try (TraceReader reader = TraceReader.open(dir)) {
            long n = 0;
            TraceEvent e;
            while ((e = reader.next()) != null) {
                assertThat(e.seq()).isEqualTo(n);
                n++;
            }
            ReadOutcome o = reader.outcome();
            assertThat(o.status()).as(o.detail()).isEqualTo(ReadOutcome.Status.RECORDING);
            assertThat(o.detail()).contains("pid " + writerPid);
            assertThat(n - 1).isGreaterThanOrEqualTo(atLeast);
            return n;
        }
    }

    /** Waits for the child to report an appended seq of at least {@code seq}; returns it. */
    private static long awaitSeq(BufferedReader lines, long seq) throws Exception {
        String line;
        while ((line = lines.readLine()) != null) {
            if (line.startsWith("seq ") && Long.parseLong(line.substring(4)) >= seq) {
                return Long.parseLong(line.substring(4));
            }
        }
        throw new AssertionError("the writer child ended before seq " + seq);
    }
}
