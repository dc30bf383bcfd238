package io.rdmatrace.trace.store;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.store.PageToucher;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.store.TraceWriter;
import io.rdmatrace.trace.model.Verb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import net.openhft.chronicle.core.io.ReferenceOwner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer's page toucher: its thread runs while the writer does, ends with it, changes no byte,
 * and maps the pages ahead of the appends (in the appender's own mapping) before the appends reach them.
 */
class PageToucherTest {

    private static SessionInfo session(String host) {
        return new SessionInfo("test", host, "test", "none", "unit", Map.of(), Attrs.EMPTY, List.of(), List.of());
    }

    private static long touchers() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("rdmatrace-trace-touch") && t.isAlive()).count();
    }

    private static void awaitNoTouchers() throws InterruptedException {
        for (int i = 0; i < 500 && touchers() > 0; i++) { // a bound, not a speed check
            Thread.sleep(10);
        }
    }

    @Test
    void eventsOverManyPages_readBackInOrder_andBothCloses_endTheThread(@TempDir Path out) throws Exception {
        awaitNoTouchers(); // writers of other tests
        Attrs in = Attrs.builder().put(Attr.QP_NUM, 0x11).put(Attr.MESSAGE, "x".repeat(150)).build();
        try (TraceWriter w = TraceWriter.create(out, session("a"))) {
            assertThat(touchers()).isEqualTo(1);
            for (int i = 0; i < 3000; i++) { // ~200 bytes each: ~150 pages
                w.call(Verb.IBV_POST_SEND, i, 0, 0, i, in, Attrs.EMPTY);
            }
        }
        TraceWriter cut = TraceWriter.create(out, session("b"));
        cut.call(Verb.IBV_POST_SEND, 1, 0, 0, 1, in, Attrs.EMPTY);
        cut.closeTruncated();
        awaitNoTouchers();
        assertThat(touchers()).isZero();

        TraceReader.Result r = TraceReader.readAll(out.resolve("a"));
        assertThat(r.outcome().isClean()).as(r.outcome().detail()).isTrue();
        List<CallEvent> calls = r.events().stream().filter(e -> e instanceof CallEvent).map(e -> (CallEvent) e).toList();
        assertThat(calls).hasSize(3000);
        for (int i = 0; i < calls.size(); i++) {
            assertThat(calls.get(i).handle()).isEqualTo(i);
            assertThat(calls.get(i).in()).isEqualTo(in);
        }
    }

    @Test
    void pagesAheadOfTheAppends_areMappedBeforeTheAppendsReachThem(@TempDir Path out) throws Exception {
        Attrs in = Attrs.builder().put(Attr.QP_NUM, 0x11).put(Attr.MESSAGE, "x".repeat(150)).build();
        ReferenceOwner owner = ReferenceOwner.temporary("test");
        try (TraceWriter w = TraceWriter.create(out, session("a"))) {
            for (int i = 0; i < 200; i++) { // ~40 KiB: past the first signal step
                w.call(Verb.IBV_POST_SEND, i, 0, 0, i, in, Attrs.EMPTY);
            }
            PageToucher t = w.toucher();
            PageToucher.Ahead a = w.aheadOfAppends(owner);
            try {
                long first = (a.position() + PageToucher.PAGE_BYTES - 1) & -PageToucher.PAGE_BYTES;
                long last = a.position() + PageToucher.LEAD - PageToucher.PAGE_BYTES;
                // The writer signals only when its appends cross a step, so the toucher's last run may have
                // seen an earlier position than the last append's; one more signal makes a run that sees it.
                t.signal();
                for (int i = 0; i < 1000 && (t.seenPosition() != a.position() || t.touchedTo() <= last); i++) {
                    Thread.sleep(10); // a bound, not a speed check
                }
                assertThat(t.touchedTo()).as("the toucher's reach").isGreaterThan(last);
                try (RandomAccessFile pagemap = new RandomAccessFile("/proc/self/pagemap", "r")) {
                    for (long page = first; page <= last; page += PageToucher.PAGE_BYTES) {
                        assertThat(mapped(pagemap, a.store().addressForRead(page))).as("page at %d", page).isTrue();
                    }
                    // the control: a page far past the reach, which nothing has written or touched
                    assertThat(mapped(pagemap, a.store().addressForRead(last + 64 * PageToucher.LEAD))).isFalse();
                }
            } finally {
                a.store().release(owner);
            }
        }
        assertThat(TraceReader.readAll(out.resolve("a")).events()).hasSize(1 + 200 + 1);
    }

    /** Whether the page at {@code address} is in this process's page table (bit 63 of its /proc/self/pagemap entry). */
    private static boolean mapped(RandomAccessFile pagemap, long address) throws IOException {
        byte[] entry = new byte[Long.BYTES]; // read whole: the file refuses reads of part of an entry
        pagemap.seek(address / PageToucher.PAGE_BYTES * Long.BYTES);
        pagemap.readFully(entry);
        return ByteBuffer.wrap(entry).order(ByteOrder.LITTLE_ENDIAN).getLong() < 0;
    }
}
