package io.rdmatrace.trace;

import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.store.TraceWriter;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A consumer pulled from changing threads (DuckDB's Arrow stream) resets the check and reads on. */
class ReaderThreadingTest {

    @TempDir
    Path out;

    @Test
    void readingFromAnotherThread_withoutReset_isAProgrammingError_notCorruption() throws Exception {
        write(30);
        ExecutorService other = Executors.newSingleThreadExecutor();
        try (TraceReader r = TraceReader.open(out.resolve("t"))) {
            assertThat(r.next()).isNotNull(); // SESSION (decoded at open)
            assertThat(r.next()).isNotNull(); // first tailer read: main thread owns the tailer
            Future<Throwable> f = other.submit(() -> {
                try {
                    r.next();
                    return null;
                } catch (Throwable t) {
                    return t;
                }
            });
            Throwable t = f.get(30, TimeUnit.SECONDS);
            assertThat(t).isInstanceOf(IllegalStateException.class).hasMessageContaining("singleThreadedCheckReset");
            assertThat(r.outcome()).as("not classified as corrupt").isNull();
        } finally {
            other.shutdownNow();
        }
    }

    @Test
    void batchesFromChangingThreads_withReset_readEverything() throws Exception {
        write(100);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (TraceReader r = TraceReader.open(out.resolve("t"))) {
            List<TraceEvent> all = new ArrayList<>();
            for (int batch = 0; batch < 20 && r.outcome() == null; batch++) {
                Future<List<TraceEvent>> f = pool.submit(() -> {
                    r.singleThreadedCheckReset();
                    List<TraceEvent> sink = new ArrayList<>();
                    r.readBatch(sink, 7);
                    return sink;
                });
                all.addAll(f.get(30, TimeUnit.SECONDS));
            }
            assertThat(r.outcome().isClean()).isTrue();
            assertThat(all).hasSize(102);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void nextAfterClose_isAUsageError() throws Exception {
        write(3);
        TraceReader r = TraceReader.open(out.resolve("t"));
        r.next();
        r.close();
        org.assertj.core.api.Assertions.assertThatThrownBy(r::next).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    private void write(int n) throws TraceException {
        try (TraceWriter w = TraceWriter.create(out, EdgeFixture.session("t"))) {
            for (int i = 0; i < n; i++) {
                w.mark("S", MarkEvent.Verdict.INFO, "m" + i);
            }
        }
    }
}
