package io.rdmatrace.trace.store;

import io.rdmatrace.trace.EdgeFixture;

import io.rdmatrace.trace.model.EventKind;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.store.ReadOutcome;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.trace.store.TraceLayout;
import io.rdmatrace.trace.store.TraceOpening;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.store.TraceWriter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A folder claimed at once, its queue opened in the background, the SESSION written later; an unused opening undone. */
class TraceOpeningTest {

    @TempDir
    Path out;

    @Test
    void begunThenStarted_isTheSameCleanTraceAsCreate() throws Exception {
        TraceOpening o = TraceOpening.begin(out, "h");
        assertThat(o.folder()).isEqualTo(out.resolve("h"));
        try (TraceWriter w = o.start(EdgeFixture.session("h"))) {
            assertThat(w.folder()).isEqualTo(out.resolve("h"));
            w.mark("S", MarkEvent.Verdict.INFO, "one");
        }
        o.close(); // started: nothing to undo, the trace stays
        TraceReader.Result r = TraceReader.readAll(out.resolve("h"));
        assertThat(r.outcome().status()).isEqualTo(ReadOutcome.Status.CLEAN);
        assertThat(r.events()).extracting(TraceEvent::kind)
                .containsExactly(EventKind.SESSION, EventKind.MARK, EventKind.END);
        assertThat(r.events().get(0).header().seq()).isZero();
        assertThat(Files.readString(out.resolve("h").resolve(TraceLayout.WRITER_LOCK_FILE))).isEmpty();
    }

    @Test
    void whileOpening_theFolderIsLockedAgainstAnotherWriter() throws Exception {
        try (TraceOpening o = TraceOpening.begin(out, "h")) {
            TraceException e = catchThrowableOfType(TraceException.class,
                    () -> TraceWriter.create(out, EdgeFixture.session("h")));
            assertThat(e.problem()).isEqualTo(TraceException.Problem.LOCKED);
            assertThat(e.getMessage()).contains("pid " + ProcessHandle.current().pid());
            TraceException again = catchThrowableOfType(TraceException.class, () -> TraceOpening.begin(out, "h"));
            assertThat(again.problem()).isEqualTo(TraceException.Problem.LOCKED);
        }
    }

    @Test
    void folderHoldingATrace_orABadHostId_isRefusedAtBegin() throws Exception {
        try (TraceWriter w = TraceWriter.create(out, EdgeFixture.session("h"))) {
            w.mark("S", MarkEvent.Verdict.INFO, "one");
        }
        TraceException e = catchThrowableOfType(TraceException.class, () -> TraceOpening.begin(out, "h"));
        assertThat(e.problem()).isEqualTo(TraceException.Problem.ALREADY_EXISTS);
        assertThat(e.getMessage()).contains("already holds a trace");
        assertThat(TraceReader.readAll(out.resolve("h")).events()).hasSize(3); // untouched
        TraceException bad = catchThrowableOfType(TraceException.class, () -> TraceOpening.begin(out, "a/b"));
        assertThat(bad.problem()).isEqualTo(TraceException.Problem.BAD_HOST_ID);
        assertThat(out.resolve("a")).doesNotExist();
    }

    @Test
    void closedUnused_removesTheFolderItMade_andTheNameCanBeUsedAgain() throws Exception {
        TraceOpening o = TraceOpening.begin(out, "h");
        o.close();
        o.close(); // idempotent
        assertThat(out.resolve("h")).doesNotExist();
        assertThatThrownBy(() -> o.start(EdgeFixture.session("h"))).isInstanceOf(IllegalStateException.class);
        try (TraceWriter w = TraceWriter.create(out, EdgeFixture.session("h"))) {
            w.mark("S", MarkEvent.Verdict.INFO, "one");
        }
        assertThat(TraceReader.readAll(out.resolve("h")).outcome().status()).isEqualTo(ReadOutcome.Status.CLEAN);
    }

    @Test
    void closedWhileTheOpenRuns_waitsForIt_closesTheQueue_andLeavesNoFolder() throws Exception {
        CountDownLatch opening = new CountDownLatch(1);
        CountDownLatch opened = new CountDownLatch(1);
        AtomicReference<SingleChronicleQueue> made = new AtomicReference<>();
        TraceOpening o = TraceOpening.begin(out, "h", dir -> {
            opening.countDown();
            try {
                Thread.sleep(200); // close() arrives while the open is under way
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            SingleChronicleQueue q = TraceLayout.openForWrite(dir);
            made.set(q);
            opened.countDown();
            return q;
        });
        assertThat(opening.await(10, TimeUnit.SECONDS)).isTrue();
        o.close();
        // close() returned only after the open: the queue it made is closed and nothing is left
        assertThat(opened.getCount()).isZero();
        assertThat(made.get().isClosed()).isTrue();
        assertThat(out.resolve("h")).doesNotExist();
    }

    @Test
    void closedBeforeTheOpenBegins_neverOpensTheQueue() throws Exception {
        AtomicInteger opens = new AtomicInteger();
        TraceOpening o = TraceOpening.claim(out, "h", dir -> {
            opens.incrementAndGet();
            return TraceLayout.openForWrite(dir);
        });
        o.close();
        assertThat(opens).hasValue(0);
        assertThat(out.resolve("h")).doesNotExist();
    }

    @Test
    void closedUnused_inAFolderThatExisted_keepsTheFolderAndWhatWasThere() throws Exception {
        Path dir = Files.createDirectories(out.resolve("h"));
        Files.writeString(dir.resolve("notes.txt"), "mine");
        Files.writeString(dir.resolve(TraceLayout.WRITER_LOCK_FILE), "pid 999999999 on host gone\n");
        TraceOpening.begin(out, "h").close();
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted().toList())
                    .isEqualTo(List.of(TraceLayout.WRITER_LOCK_FILE, "notes.txt"));
        }
        assertThat(Files.readString(dir.resolve(TraceLayout.WRITER_LOCK_FILE))).isEmpty(); // released
    }

    @Test
    void sessionOfAnotherHost_isRefused() throws Exception {
        try (TraceOpening o = TraceOpening.begin(out, "h")) {
            assertThatThrownBy(() -> o.start(EdgeFixture.session("other")))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("other");
        }
        assertThat(out.resolve("h")).doesNotExist();
    }
}
