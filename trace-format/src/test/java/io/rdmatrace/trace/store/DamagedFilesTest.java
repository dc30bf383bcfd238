package io.rdmatrace.trace.store;

import io.rdmatrace.trace.EdgeFixture;

import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.store.ReadOutcome;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.trace.store.TraceLayout;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.store.TraceWriter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Files Chronicle would map blindly (truncated, damaged queue header or index, missing metadata):
 * the reader checks them first, reads what is there by framing the files itself, and says what
 * was wrong; it never lets Chronicle fault on them.
 */
class DamagedFilesTest {

    private static final int MARKS = 3000;

    @TempDir
    Path out;

    private Path trace(String host) throws Exception {
        try (TraceWriter w = TraceWriter.create(out, EdgeFixture.session(host))) {
            for (int i = 0; i < MARKS; i++) {
                w.mark("S", MarkEvent.Verdict.INFO, "mark " + i);
            }
        }
        return out.resolve(host);
    }

    private static Path dataFile(Path dir) {
        List<Path> files = TraceLayout.queueFiles(dir);
        assertThat(files).hasSize(1);
        return files.get(0);
    }

    private static void truncate(Path file, long size) throws Exception {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(size);
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 256, 4096, 65536})
    void truncatedBeforeTheFirstEvent_isDamagedNamingTheFile(long size) throws Exception {
        Path dir = trace("t" + size);
        truncate(dataFile(dir), size);
        TraceException e = catchThrowableOfType(TraceException.class, () -> TraceReader.open(dir));
        assertThat(e.problem()).isEqualTo(TraceException.Problem.DAMAGED);
        assertThat(e.getMessage()).contains(dir.toString()).contains("is " + size + " bytes").contains("truncated")
                .doesNotContain("\n");
    }

    @Test
    void truncatedInsideTheEvents_readsEveryWholeEventAsTruncated() throws Exception {
        Path dir = trace("mid");
        truncate(dataFile(dir), 131072);
        TraceReader.Result r = TraceReader.readAll(dir);
        assertThat(r.outcome().status()).isEqualTo(ReadOutcome.Status.TRUNCATED);
        assertThat(r.events().size()).isBetween(1000, MARKS);
        for (int i = 1; i < r.events().size(); i++) {
            assertThat(((MarkEvent) r.events().get(i)).text()).isEqualTo("mark " + (i - 1));
        }
        assertThat(r.outcome().detail()).contains("read without Chronicle's index").contains("131072 bytes");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 7, 14, 42, 98, 112, 140, 175, 189, 203})
    void flippedQueueHeaderByte_stillReadsEveryEvent(int offset) throws Exception {
        Path dir = trace("f" + offset);
        try (RandomAccessFile f = new RandomAccessFile(dataFile(dir).toFile(), "rw")) {
            f.seek(offset);
            int b = f.read();
            f.seek(offset);
            f.write(b ^ 0x5a);
        }
        try (TraceReader r = TraceReader.open(dir)) {
            List<TraceEvent> events = new java.util.ArrayList<>();
            ReadOutcome o = r.forEachRemaining(events::add);
            assertThat(o.status()).as(o.detail()).isEqualTo(ReadOutcome.Status.CLEAN);
            assertThat(events).hasSize(MARKS + 2);
            assertThat(r.damage()).as("what was wrong is said").isNotNull();
            assertThat(o.detail()).contains("read without Chronicle's index");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"deleted", "empty", "cut"})
    void missingOrDamagedMetadata_isRebuiltFromTheDataFiles(String how) throws Exception {
        Path dir = trace("m-" + how);
        Path meta = dir.resolve("metadata.cq4t");
        switch (how) {
            case "deleted" -> Files.delete(meta);
            case "empty" -> Files.write(meta, new byte[0]);
            default -> truncate(meta, 100);
        }
        TraceReader.Result r = TraceReader.readAll(dir);
        assertThat(r.outcome().status()).isEqualTo(ReadOutcome.Status.CLEAN);
        assertThat(r.events()).hasSize(MARKS + 2);
        assertThat(r.outcome().detail()).contains("metadata.cq4t");
        assertThat(Files.exists(meta)).as("the reader writes nothing").isEqualTo(!how.equals("deleted"));
    }

    @Test
    void soundFiles_areReadThroughChronicle() throws Exception {
        Path dir = trace("sound");
        try (TraceReader r = TraceReader.open(dir)) {
            assertThat(r.forEachRemaining(e -> { }).status()).isEqualTo(ReadOutcome.Status.CLEAN);
            assertThat(r.damage()).isNull();
        }
    }
}
