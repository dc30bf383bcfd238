package io.rdmatrace.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The writer's page toucher: its thread runs while the writer does, ends with it, and changes no byte. */
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
}
