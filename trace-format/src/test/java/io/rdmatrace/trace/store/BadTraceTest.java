package io.rdmatrace.trace.store;

import io.rdmatrace.trace.EdgeFixture;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.codec.ByteSink;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.EndEvent;
import io.rdmatrace.trace.codec.EventEncoder;
import io.rdmatrace.trace.model.EventKind;
import io.rdmatrace.trace.model.FormatVersion;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.store.ReadOutcome;
import io.rdmatrace.trace.model.TraceEnding;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.trace.store.TraceLayout;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.store.TraceWriter;
import io.rdmatrace.trace.model.Verb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Corrupt, foreign, empty and future-version traces: every one ends in a typed, explained outcome. */
class BadTraceTest {

    @TempDir
    Path out;

    private Path writeMarks(String host, int n) throws TraceException {
        try (TraceWriter w = TraceWriter.create(out, EdgeFixture.session(host))) {
            for (int i = 0; i < n; i++) {
                w.mark("S", MarkEvent.Verdict.INFO, String.format("MARKER-%04d", i));
            }
        }
        return out.resolve(host);
    }

    private static Path dataFile(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> files = s.filter(p -> p.toString().endsWith(".cq4")).collect(Collectors.toList());
            assertThat(files).hasSize(1);
            return files.get(0);
        }
    }

    private static int indexOf(byte[] hay, String needle) {
        byte[] n = needle.getBytes(StandardCharsets.UTF_8);
        outer:
        for (int i = 0; i + n.length <= hay.length; i++) {
            for (int j = 0; j < n.length; j++) {
                if (hay[i + j] != n[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @Test
    void flippedByteInsideAnEvent_isCorruptWithFileAndEverythingBefore() throws Exception {
        Path dir = writeMarks("flip", 100);
        Path file = dataFile(dir);
        byte[] bytes = Files.readAllBytes(file);
        int at = indexOf(bytes, "MARKER-0050");
        assertThat(at).isPositive();
        bytes[at + 8] ^= 0x01; // "MARKER-0050" → "MARKER-0040"-like text: decodes fine, only the check value sees it
        Files.write(file, bytes);

        TraceReader.Result r = TraceReader.readAll(dir);
        ReadOutcome o = r.outcome();
        assertThat(o.status()).isEqualTo(ReadOutcome.Status.CORRUPT);
        assertThat(o.file()).isEqualTo(file);
        assertThat(o.documentIndex()).isNotNegative();
        assertThat(o.detail()).contains(file.getFileName().toString()).contains("check value mismatch");
        assertThat(r.events()).hasSize(51); // SESSION + MARKER-0000..0049
        assertThat(((MarkEvent) r.events().get(50)).text()).isEqualTo("MARKER-0049");
    }

    @Test
    void overwrittenRun_isCorruptOrAtWorstTruncated_neverAnException() throws Exception {
        Path dir = writeMarks("smash", 200);
        Path file = dataFile(dir);
        byte[] bytes = Files.readAllBytes(file);
        int at = indexOf(bytes, "MARKER-0100");
        for (int i = at - 40; i < at + 40; i++) {
            bytes[i] = (byte) 0xA5;
        }
        Files.write(file, bytes);
        TraceReader.Result r = TraceReader.readAll(dir);
        assertThat(r.outcome().status()).as(r.outcome().detail()).isEqualTo(ReadOutcome.Status.CORRUPT);
        assertThat(r.events().size()).isBetween(90, 101);
    }

    @Test
    void zeroedEndOfOneEventAndNextHeader_isCorrupt() throws Exception {
        Path dir = writeMarks("hdr", 200);
        Path file = dataFile(dir);
        byte[] bytes = Files.readAllBytes(file);
        int at = indexOf(bytes, "MARKER-0100");
        for (int i = at - 60; i < at; i++) {
            bytes[i] = 0;
        }
        Files.write(file, bytes);
        TraceReader.Result r = TraceReader.readAll(dir);
        assertThat(r.outcome().status()).as(r.outcome().detail()).isEqualTo(ReadOutcome.Status.CORRUPT);
        assertThat(r.events()).hasSize(100);
    }

    @Test
    void zeroedChronicleHeaderWord_isCorruptNotASilentEnd() throws Exception {
        Path dir = writeMarks("hdr0", 200);
        Path file = dataFile(dir);
        byte[] bytes = Files.readAllBytes(file);
        int at = indexOf(bytes, "MARKER-0100");
        // the document of MARKER-0100 is seq 101: kind byte MARK then seq 101 as a one-byte stop-bit number
        int kindAt = at;
        while (!(bytes[kindAt] == EventKind.MARK.code() && bytes[kindAt + 1] == 101)) {
            kindAt--;
        }
        for (int i = kindAt - 4; i < kindAt; i++) {
            bytes[i] = 0; // Chronicle's 4-byte length/flags word of that document
        }
        Files.write(file, bytes);
        TraceReader.Result r = TraceReader.readAll(dir);
        assertThat(r.outcome().status()).as(r.outcome().detail()).isEqualTo(ReadOutcome.Status.CORRUPT);
        assertThat(r.events()).hasSize(101);
    }

    @Test
    void futureMajorVersion_isRefusedNamingFolderAndVersions() throws Exception {
        Path dir = out.resolve("future");
        try (SingleChronicleQueue q = TraceLayout.openForWrite(dir); ExcerptAppender a = q.createAppender();
             DocumentContext dc = a.writingDocument()) {
            ByteSink b = new ByteSink(64);
            int start = 0;
            EventEncoder.kind(b, EventKind.SESSION);
            EventEncoder.sessionPrefix(b, new FormatVersion(FormatVersion.FORMAT_MAJOR + 1, 3));
            b.utf8("a layout this build does not know");
            EventEncoder.seal(b, start);
            dc.wire().bytes().write(b.array(), 0, b.length());
        }
        TraceException e = catchThrowableOfType(TraceException.class, () -> TraceReader.open(dir));
        assertThat(e.problem()).isEqualTo(TraceException.Problem.UNSUPPORTED_VERSION);
        assertThat(e.getMessage()).contains(dir.toString()).contains((FormatVersion.FORMAT_MAJOR + 1) + ".3")
                .contains("formats 1.x to " + FormatVersion.FORMAT_MAJOR + ".x").contains("newer rdmatrace");
    }

    @Test
    void newerMinorVersion_isReadSkippingUnknownAttrsAndTrailingFields() throws Exception {
        Path dir = out.resolve("newer-minor");
        FormatVersion v = new FormatVersion(FormatVersion.FORMAT_MAJOR, FormatVersion.FORMAT_MINOR + 1);
        try (SingleChronicleQueue q = TraceLayout.openForWrite(dir); ExcerptAppender a = q.createAppender()) {
            try (DocumentContext dc = a.writingDocument()) {
                ByteSink b = new ByteSink(64);
                int start = 0;
                EventEncoder.kind(b, EventKind.SESSION);
                EventEncoder.sessionPrefix(b, v);
                EventEncoder.header(b, 0, 1, 2, 3, 4, "t");
                EventEncoder.session(b, EdgeFixture.session("newer-minor"));
                b.stop(12345); // a field added by the newer minor
                EventEncoder.seal(b, start);
                dc.wire().bytes().write(b.array(), 0, b.length());
            }
            try (DocumentContext dc = a.writingDocument()) {
                ByteSink b = new ByteSink(64);
                int start = 0;
                EventEncoder.kind(b, EventKind.CALL);
                EventEncoder.header(b, 1, 5, 6, 3, 4, "t");
                b.stop(Verb.IBV_MODIFY_QP.code()).stop(0x10).stop(0).stop(0)
                        .stop(77);
                b.stop(2); // in: a known and an unknown numeric attr
                b.stop(Attr.QP_STATE.code()).stop(3);
                b.stop(60_000).stop(42);
                b.stop(1); // one unknown text attr
                b.stop(60_001).utf8("new");
                EventEncoder.attrs(b, Attrs.EMPTY);
                EventEncoder.wrs(b, List.of()); // 1.1: no chain
                b.utf8("trailing field of a newer minor");
                EventEncoder.seal(b, start);
                dc.wire().bytes().write(b.array(), 0, b.length());
            }
        }
        TraceReader.Result r;
        long skipped;
        try (TraceReader reader = TraceReader.open(dir)) {
            List<TraceEvent> all = new java.util.ArrayList<>();
            ReadOutcome o = reader.forEachRemaining(all::add);
            r = new TraceReader.Result(reader.session(), all, o);
            skipped = reader.skippedUnknownAttrs();
        }
        assertThat(r.session().formatVersion()).isEqualTo(v);
        assertThat(r.outcome().status()).isEqualTo(ReadOutcome.Status.TRUNCATED); // no END written here
        assertThat(r.events()).hasSize(2);
        CallEvent c = (CallEvent) r.events().get(1);
        assertThat(c.in()).isEqualTo(Attrs.builder().put(Attr.QP_STATE, 3).build());
        assertThat(c.durationNanos()).isEqualTo(77);
        assertThat(skipped).isEqualTo(2);
    }

    @Test
    void endOfFormat13_readsAsUnstated() throws Exception {
        Path dir = out.resolve("v13");
        try (SingleChronicleQueue q = TraceLayout.openForWrite(dir); ExcerptAppender a = q.createAppender()) {
            try (DocumentContext dc = a.writingDocument()) {
                ByteSink b = new ByteSink(64);
                EventEncoder.kind(b, EventKind.SESSION);
                EventEncoder.sessionPrefix(b, new FormatVersion(1, 3));
                EventEncoder.header(b, 0, 1, 2, 3, 4, "t");
                EventEncoder.session(b, EdgeFixture.session("v13"));
                EventEncoder.seal(b, 0);
                dc.wire().bytes().write(b.array(), 0, b.length());
            }
            try (DocumentContext dc = a.writingDocument()) {
                ByteSink b = new ByteSink(64);
                EventEncoder.kind(b, EventKind.END);
                EventEncoder.header(b, 1, 5, 6, 3, 4, "t");
                b.stop(1); // a 1.3 END: the event count only
                EventEncoder.seal(b, 0);
                dc.wire().bytes().write(b.array(), 0, b.length());
            }
        }
        TraceReader.Result r = TraceReader.readAll(dir);
        assertThat(r.outcome().status()).isEqualTo(ReadOutcome.Status.CLEAN);
        assertThat(((EndEvent) r.events().get(1)).ending()).isEqualTo(TraceEnding.UNSTATED);
    }

    @Test
    void endWithAnUnknownEndingCode_isCorrupt() throws Exception {
        Path dir = out.resolve("badending");
        try (SingleChronicleQueue q = TraceLayout.openForWrite(dir); ExcerptAppender a = q.createAppender()) {
            try (DocumentContext dc = a.writingDocument()) {
                ByteSink b = new ByteSink(64);
                EventEncoder.kind(b, EventKind.SESSION);
                EventEncoder.sessionPrefix(b, FormatVersion.CURRENT);
                EventEncoder.header(b, 0, 1, 2, 3, 4, "t");
                EventEncoder.session(b, EdgeFixture.session("badending"));
                EventEncoder.seal(b, 0);
                dc.wire().bytes().write(b.array(), 0, b.length());
            }
            try (DocumentContext dc = a.writingDocument()) {
                ByteSink b = new ByteSink(64);
                EventEncoder.kind(b, EventKind.END);
                EventEncoder.header(b, 1, 5, 6, 3, 4, "t");
                b.stop(1).u8(99).stop(-1).stop(0).stop(0).utf8("");
                EventEncoder.seal(b, 0);
                dc.wire().bytes().write(b.array(), 0, b.length());
            }
        }
        TraceReader.Result r = TraceReader.readAll(dir);
        assertThat(r.outcome().status()).isEqualTo(ReadOutcome.Status.CORRUPT);
        assertThat(r.outcome().detail()).contains("unknown END ending code 99");
    }

    @Test
    void trailingBytesInCurrentVersion_areCorrupt() throws Exception {
        Path dir = out.resolve("trailing");
        try (SingleChronicleQueue q = TraceLayout.openForWrite(dir); ExcerptAppender a = q.createAppender()) {
            try (DocumentContext dc = a.writingDocument()) {
                ByteSink b = new ByteSink(64);
                int start = 0;
                EventEncoder.kind(b, EventKind.SESSION);
                EventEncoder.sessionPrefix(b, FormatVersion.CURRENT);
                EventEncoder.header(b, 0, 1, 2, 3, 4, "t");
                EventEncoder.session(b, EdgeFixture.session("trailing"));
                EventEncoder.seal(b, start);
                dc.wire().bytes().write(b.array(), 0, b.length());
            }
            try (DocumentContext dc = a.writingDocument()) {
                ByteSink b = new ByteSink(64);
                int start = 0;
                EventEncoder.kind(b, EventKind.END);
                EventEncoder.header(b, 1, 5, 6, 3, 4, "t");
                EventEncoder.end(b, 1, TraceEnding.UNSTATED);
                b.i64(99);
                EventEncoder.seal(b, start);
                dc.wire().bytes().write(b.array(), 0, b.length());
            }
        }
        TraceReader.Result r = TraceReader.readAll(dir);
        assertThat(r.outcome().status()).isEqualTo(ReadOutcome.Status.CORRUPT);
        assertThat(r.outcome().detail()).contains("8 unexpected bytes after a END event");
        assertThat(r.events()).hasSize(1);
    }

    @Test
    void foreignChronicleQueue_isNotATrace() throws Exception {
        Path dir = out.resolve("foreign-queue");
        try (SingleChronicleQueue q = TraceLayout.openForWrite(dir); ExcerptAppender a = q.createAppender()) {
            a.writeText("hello from another program");
        }
        TraceException e = catchThrowableOfType(TraceException.class, () -> TraceReader.open(dir));
        assertThat(e.problem()).isEqualTo(TraceException.Problem.NOT_A_TRACE);
        assertThat(e.getMessage()).contains(dir.toString()).contains("not an rdmatrace trace");
    }

    @Test
    void garbageQueueFile_isATypedError() throws Exception {
        Path dir = Files.createDirectories(out.resolve("garbage"));
        byte[] junk = new byte[100_000];
        new java.util.Random(1).nextBytes(junk);
        Files.write(dir.resolve("2026W01.cq4"), junk);
        TraceException e = catchThrowableOfType(TraceException.class, () -> TraceReader.open(dir));
        assertThat(e.problem()).isEqualTo(TraceException.Problem.NOT_A_QUEUE);
        assertThat(e.getMessage()).contains("2026W01.cq4").contains("not a Chronicle Queue data file");
        assertThat(dir.resolve(TraceLayout.METADATA_FILE)).as("reader created nothing").doesNotExist();
    }

    @Test
    void queueKilledBeforeItsSession_isNoSession() throws Exception {
        Path dir = out.resolve("no-session");
        try (SingleChronicleQueue q = TraceLayout.openForWrite(dir)) {
            assertThat(q.createAppender()).isNotNull(); // opened, nothing written (like a kill before the SESSION)
        }
        TraceException e = catchThrowableOfType(TraceException.class, () -> TraceReader.open(dir));
        assertThat(e.problem()).isEqualTo(TraceException.Problem.NO_SESSION);
        assertThat(e.getMessage()).contains("before writing its SESSION");
    }

    @Test
    void emptyFolder_missingFolder_file_foreignFiles_haveTypedErrors() throws Exception {
        Path empty = Files.createDirectories(out.resolve("empty"));
        assertThat(catchThrowableOfType(TraceException.class, () -> TraceReader.open(empty)).problem())
                .isEqualTo(TraceException.Problem.EMPTY);
        assertThat(catchThrowableOfType(TraceException.class, () -> TraceReader.open(out.resolve("nope"))).problem())
                .isEqualTo(TraceException.Problem.NOT_FOUND);
        Path file = Files.writeString(out.resolve("file.txt"), "x");
        assertThat(catchThrowableOfType(TraceException.class, () -> TraceReader.open(file)).problem())
                .isEqualTo(TraceException.Problem.NOT_A_DIRECTORY);
        Path foreign = Files.createDirectories(out.resolve("foreign"));
        Files.writeString(foreign.resolve("readme.txt"), "hello");
        Files.write(foreign.resolve("data.bin"), new byte[] {1, 2, 3});
        TraceException e = catchThrowableOfType(TraceException.class, () -> TraceReader.open(foreign));
        assertThat(e.problem()).isEqualTo(TraceException.Problem.NOT_A_QUEUE);
        assertThat(e.getMessage()).contains("readme.txt").contains("data.bin").contains("*.cq4");
    }

    @Test
    void parentFolderOpenedAsHost_saysItHoldsHostFolders() throws Exception {
        writeMarks("a", 1);
        TraceException e = catchThrowableOfType(TraceException.class, () -> TraceReader.open(out));
        assertThat(e.problem()).isEqualTo(TraceException.Problem.NOT_A_QUEUE);
        assertThat(e.getMessage()).contains("holds host folders");
    }

    @Test
    void writer_refusesExistingTraceAndBadHostIds_andWritesAfterClose() throws Exception {
        writeMarks("dup", 1);
        TraceException e = catchThrowableOfType(TraceException.class,
                () -> TraceWriter.create(out, EdgeFixture.session("dup")));
        assertThat(e.problem()).isEqualTo(TraceException.Problem.ALREADY_EXISTS);
        assertThat(e.getMessage()).contains("dup");
        for (String bad : new String[] {"", "..", "a/b", "x\ny", "c:d"}) {
            assertThat(catchThrowableOfType(TraceException.class,
                    () -> TraceWriter.create(out, EdgeFixture.session(bad))).problem())
                    .as("host id %s", bad).isEqualTo(TraceException.Problem.BAD_HOST_ID);
        }
        TraceWriter w = TraceWriter.create(out, EdgeFixture.session("closed"));
        w.close();
        w.close(); // idempotent
        assertThatThrownBy(() -> w.mark("S", MarkEvent.Verdict.INFO, "late")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThat(TraceReader.readAll(out.resolve("closed")).outcome().isClean()).isTrue();
    }
}
