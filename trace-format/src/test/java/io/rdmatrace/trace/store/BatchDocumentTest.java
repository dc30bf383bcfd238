package io.rdmatrace.trace.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rdmatrace.trace.EdgeFixture;
import io.rdmatrace.trace.codec.BatchDocument;
import io.rdmatrace.trace.codec.ByteSink;
import io.rdmatrace.trace.codec.EventEncoder;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.EventKind;
import io.rdmatrace.trace.model.FormatVersion;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.model.Verb;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Batch documents (format 2.0): several events in one Chronicle document, read back as if each were alone. */
class BatchDocumentTest {

    @TempDir
    Path out;

    private static long call(TraceWriter w, int i) {
        return w.call(Verb.IBV_MODIFY_QP, 0x5600_0000L + i, 0, 0, 1000 + i,
                Attrs.builder().put(Attr.QP_STATE, 2).put(Attr.RQ_PSN, i).build(), Attrs.EMPTY);
    }

    /** Every data document of the queue, as Chronicle's tailer returns them: the kind byte of each. */
    private static List<Integer> documentKinds(Path dir) {
        List<Integer> kinds = new ArrayList<>();
        try (ChronicleSource s = ChronicleSource.open(dir)) {
            while (s.next() >= 0) {
                kinds.add(s.buffer()[0] & 0xFF);
            }
        }
        return kinds;
    }

    @Test
    void batchedEvents_readBackInOrder_asTheSameEvents_inFewerDocuments() throws Exception {
        int n = 3000; // ~25 bytes each: several batches of 16 KiB
        try (TraceWriter w = TraceWriter.create(out, EdgeFixture.session("a"))) {
            w.beginBatch();
            for (int i = 0; i < n; i++) {
                assertThat(call(w, i)).isEqualTo(1 + i);
            }
            w.endBatch();
            w.mark("after", MarkEvent.Verdict.INFO, "a document of its own");
        }
        TraceReader.Result r = TraceReader.readAll(out.resolve("a"));
        assertThat(r.outcome().status()).isEqualTo(ReadOutcome.Status.CLEAN);
        assertThat(r.events()).hasSize(1 + n + 2);
        for (int i = 0; i < r.events().size(); i++) {
            assertThat(r.events().get(i).seq()).isEqualTo(i);
        }
        for (int i = 0; i < n; i++) {
            CallEvent c = (CallEvent) r.events().get(1 + i);
            assertThat(c.handle()).isEqualTo(0x5600_0000L + i);
            assertThat(c.durationNanos()).isEqualTo(1000 + i);
            assertThat(c.in().get(Attr.RQ_PSN, -1)).isEqualTo(i);
        }
        assertThat(((MarkEvent) r.events().get(1 + n)).text()).isEqualTo("a document of its own");
        assertThat(r.events().get(r.events().size() - 1).kind()).isEqualTo(EventKind.END);

        List<Integer> kinds = documentKinds(out.resolve("a"));
        long batches = kinds.stream().filter(k -> k == BatchDocument.KIND).count();
        assertThat(kinds.get(0)).isEqualTo(EventKind.SESSION.code());
        assertThat(batches).isBetween(2L, (long) n / 100);
        // SESSION, the batches, the MARK and the END: nothing else
        assertThat(kinds).hasSize((int) batches + 3);
    }

    @Test
    void gatheredEvents_countOnceWritten_andALoneEventIsAPlainDocument() throws Exception {
        try (TraceWriter w = TraceWriter.create(out, EdgeFixture.session("a"))) {
            w.beginBatch();
            call(w, 0);
            call(w, 1);
            assertThat(w.eventsWritten()).isEqualTo(1); // the SESSION; the two wait in memory
            w.endBatch();
            assertThat(w.eventsWritten()).isEqualTo(3);
            w.beginBatch();
            w.endBatch(); // nothing gathered: nothing written
            w.beginBatch();
            call(w, 2);
            w.endBatch();
            assertThat(w.eventsWritten()).isEqualTo(4);
        }
        assertThat(documentKinds(out.resolve("a"))).containsExactly(EventKind.SESSION.code(), BatchDocument.KIND,
                EventKind.CALL.code(), EventKind.END.code());
    }

    @Test
    void closeWithoutEnd_writesTheGatheredEventsFirst() throws Exception {
        TraceWriter w = TraceWriter.create(out, EdgeFixture.session("a"));
        w.beginBatch();
        for (int i = 0; i < 5; i++) {
            call(w, i);
        }
        w.closeTruncated();
        TraceReader.Result r = TraceReader.readAll(out.resolve("a"));
        assertThat(r.outcome().status()).isEqualTo(ReadOutcome.Status.TRUNCATED); // no END, and no live writer
        assertThat(r.events()).hasSize(6);
    }

    @Test
    void endInsideABatch_isWrittenAfterTheGatheredEvents() throws Exception {
        try (TraceWriter w = TraceWriter.create(out, EdgeFixture.session("a"))) {
            w.beginBatch();
            call(w, 0);
            call(w, 1);
        } // close() while gathering: the two calls, then the END counting them
        TraceReader.Result r = TraceReader.readAll(out.resolve("a"));
        assertThat(r.outcome().status()).isEqualTo(ReadOutcome.Status.CLEAN);
        assertThat(r.events()).extracting(TraceEvent::kind).containsExactly(EventKind.SESSION, EventKind.CALL,
                EventKind.CALL, EventKind.END);
    }

    /** A 2.0 queue written by hand: the SESSION, then one document per entry of {@code documents}. */
    private Path handWritten(String host, FormatVersion v, List<byte[]> documents) {
        Path dir = out.resolve(host);
        try (SingleChronicleQueue q = TraceLayout.openForWrite(dir); ExcerptAppender a = q.createAppender()) {
            ByteSink b = new ByteSink(256);
            EventEncoder.kind(b, EventKind.SESSION);
            EventEncoder.sessionPrefix(b, v);
            EventEncoder.header(b, 0, 1, 2, 3, 4, "t");
            EventEncoder.session(b, EdgeFixture.session(host));
            EventEncoder.seal(b, 0);
            documents = new ArrayList<>(documents);
            documents.add(0, b.toByteArray());
            for (byte[] d : documents) {
                try (DocumentContext dc = a.writingDocument()) {
                    dc.wire().bytes().write(d, 0, d.length);
                }
            }
        }
        return dir;
    }

    private static byte[] mark(long seq, String text) {
        ByteSink b = new ByteSink(64);
        EventEncoder.kind(b, EventKind.MARK);
        EventEncoder.header(b, seq, 10 + seq, 20 + seq, 3, 4, "t");
        b.utf8("S").u8(1).utf8(text);
        EventEncoder.seal(b, 0);
        return b.toByteArray();
    }

    private static byte[] batchOf(byte[]... events) {
        ByteSink b = new ByteSink(256);
        BatchDocument.begin(b);
        for (byte[] e : events) {
            BatchDocument.add(b, e, e.length);
        }
        return b.toByteArray();
    }

    @Test
    void aChangedByteInABatchedEvent_endsTheReadThere_withTheEventsBeforeIt() throws Exception {
        byte[] third = mark(3, "THIRD");
        byte[] batch = batchOf(mark(1, "first"), mark(2, "second"), third, mark(4, "fourth"));
        String doc = new String(batch, StandardCharsets.ISO_8859_1);
        batch[doc.indexOf("THIRD")] = 'X';
        Path dir = handWritten("flipped", FormatVersion.CURRENT, List.of(batch));
        TraceReader.Result r = TraceReader.readAll(dir);
        assertThat(r.outcome().status()).isEqualTo(ReadOutcome.Status.CORRUPT);
        assertThat(r.events()).hasSize(3);
        assertThat(r.outcome().detail()).contains("event 3 of its batch").contains("check value mismatch");
    }

    @Test
    void aLengthRunningPastTheBatch_isCorrupt() throws Exception {
        byte[] batch = batchOf(mark(1, "first"), mark(2, "second"));
        byte[] cut = java.util.Arrays.copyOf(batch, batch.length - 3);
        Path dir = handWritten("cut", FormatVersion.CURRENT, List.of(cut));
        TraceReader.Result r = TraceReader.readAll(dir);
        assertThat(r.outcome().status()).isEqualTo(ReadOutcome.Status.CORRUPT);
        assertThat(r.events()).hasSize(2);
        assertThat(r.outcome().detail()).contains("event 2 of a batch document has length");
    }

    @Test
    void anEventAfterTheEndInsideABatch_isCorrupt() throws Exception {
        ByteSink end = new ByteSink(64);
        EventEncoder.kind(end, EventKind.END);
        EventEncoder.header(end, 2, 12, 22, 3, 4, "t");
        EventEncoder.end(end, 2, io.rdmatrace.trace.model.TraceEnding.FINISHED);
        EventEncoder.seal(end, 0);
        Path dir = handWritten("after-end", FormatVersion.CURRENT,
                List.of(batchOf(mark(1, "first"), end.toByteArray(), mark(3, "late"))));
        TraceReader.Result r = TraceReader.readAll(dir);
        assertThat(r.outcome().status()).isEqualTo(ReadOutcome.Status.CORRUPT);
        assertThat(r.outcome().detail()).contains("an event follows the END event");
    }

    @Test
    void aBatchInA1xTrace_isAnUnknownKind() throws Exception {
        Path dir = handWritten("old", new FormatVersion(1, 4), List.of(mark(1, "plain"), batchOf(mark(2, "x"), mark(3, "y"))));
        TraceReader.Result r = TraceReader.readAll(dir);
        // its check value (over the whole document) or its kind byte: CORRUPT at the batch either way
        assertThat(r.outcome().status()).isEqualTo(ReadOutcome.Status.CORRUPT);
        assertThat(r.events()).hasSize(2);
        assertThat(r.outcome().detail()).contains("after seq 1 is corrupt");
    }

    @Test
    void aBatchTheFullDiskRefuses_isWrittenAnEventADocumentWhileThoseFit() throws Exception {
        Path disk = out.resolve("small");
        Files.createDirectories(disk);
        Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", disk.toString())
                .redirectErrorStream(true).start();
        boolean done = p.waitFor(30, TimeUnit.SECONDS);
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assumeTrue(done && p.exitValue() == 0, "cannot mount a 2 MiB tmpfs (mounting needs root): " + said);
        try {
            TraceWriter w = TraceWriter.create(disk, EdgeFixture.session("a"));
            TraceFullException full = null;
            int i = 0;
            try {
                while (i < 10_000_000) {
                    w.beginBatch();
                    for (int k = 0; k < 400; k++, i++) {
                        call(w, i);
                    }
                    w.endBatch();
                }
            } catch (TraceFullException e) {
                full = e;
            }
            assertThat(full).as("the 2 MiB disk fills").isNotNull();
            long kept = w.eventsWritten();
            assertThat(full.getMessage()).contains("(" + kept + " events written)");
            try {
                w.close(); // the END does not fit either; the queue and the folder's lock are let go all the same
            } catch (TraceFullException e) {
                assertThat(e.getMessage()).contains("(" + kept + " events written)");
            }
            TraceReader.Result r = TraceReader.readAll(disk.resolve("a"));
            assertThat(r.outcome().status()).isEqualTo(ReadOutcome.Status.TRUNCATED);
            assertThat((long) r.events().size()).isEqualTo(kept);
            // the last ones went in one by one: the events of the refused batch that fitted are there
            List<Integer> kinds = documentKinds(disk.resolve("a"));
            assertThat(kinds.get(kinds.size() - 1)).isEqualTo(EventKind.CALL.code());
        } finally {
            new ProcessBuilder("umount", disk.toString()).redirectErrorStream(true).start().waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void theBatchKindCode_isNoEventKind() {
        assertThat(EventKind.byCode(BatchDocument.KIND)).isNull();
    }


    @Test
    void aQueueFileCutShortUnderTheWriter_refusesTheNextBatch_insteadOfFaulting() throws Exception {
        TraceWriter w = TraceWriter.create(out, EdgeFixture.session("a"));
        w.beginBatch();
        for (int i = 0; i < 1000; i++) {
            call(w, i);
        }
        w.endBatch();
        long kept = w.eventsWritten();
        Path data = TraceLayout.queueFiles(out.resolve("a")).get(0);
        // cut the file a page past its data, as a full disk or a careless hand would: the next
        // batch would fault in the cut-off pages (Chronicle's CAS there is a SIGBUS that ends the JVM)
        long end = BatchDocumentTest.endOfData(data);
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(data.toFile(), "rw")) {
            f.setLength((end + 4095) & ~4095L);
        }
        TraceFullException refused = null;
        try {
            w.beginBatch();
            for (int i = 0; i < 1000; i++) {
                call(w, i);
            }
            w.endBatch();
        } catch (TraceFullException e) {
            refused = e;
        }
        assertThat(refused).isNotNull();
        assertThat(refused.getMessage()).contains("cut short under the writer").contains("(" + kept + " events written)");
        assertThat(w.eventsWritten()).isEqualTo(kept);
        w.close(); // no END into a cut file
        TraceReader.Result r = TraceReader.readAll(out.resolve("a"));
        assertThat(r.outcome().status()).isEqualTo(ReadOutcome.Status.TRUNCATED);
        assertThat((long) r.events().size()).isEqualTo(kept);
    }

    /** Offset after the last complete document of a Chronicle data file (its 4-byte aligned length words). */
    static long endOfData(Path file) throws java.io.IOException {
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.READ)) {
            java.nio.ByteBuffer word = java.nio.ByteBuffer.allocate(4).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            long at = 0;
            while (true) {
                word.clear();
                ch.read(word, at);
                int header = word.getInt(0);
                if (header == 0 || header < 0) {
                    return at;
                }
                at += (4 + (header & FramedFileSource.LENGTH_MASK) + 3) & ~3L;
            }
        }
    }
}
