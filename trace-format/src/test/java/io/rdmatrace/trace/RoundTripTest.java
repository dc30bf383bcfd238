package io.rdmatrace.trace;

import io.rdmatrace.trace.model.AsyncEvent;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.CompletionEvent;
import io.rdmatrace.trace.model.CountersEvent;
import io.rdmatrace.trace.model.EndEvent;
import io.rdmatrace.trace.model.EventHeader;
import io.rdmatrace.trace.model.EventKind;
import io.rdmatrace.trace.model.FormatVersion;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.store.ReadOutcome;
import io.rdmatrace.trace.model.SessionEvent;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.model.TraceEnding;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.store.TraceWriter;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.model.Wc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RoundTripTest {

    @TempDir
    Path out;

    @Test
    void everyEventKindAndEdgeValue_readsBackEqual() throws Exception {
        List<TraceEvent> templates = EdgeFixture.events();
        SessionInfo info = EdgeFixture.session("host-a");
        long before = epochNanos();
        List<Long> seqs = new ArrayList<>();
        try (TraceWriter w = TraceWriter.create(out, info)) {
            assertThat(w.folder()).isEqualTo(out.resolve("host-a"));
            for (TraceEvent t : templates) {
                seqs.add(w.append(t));
            }
            assertThat(w.eventsWritten()).isEqualTo(1 + templates.size());
        }
        long after = epochNanos();

        TraceReader.Result r = TraceReader.readAll(out.resolve("host-a"));
        assertThat(r.outcome().status()).as(r.outcome().detail()).isEqualTo(ReadOutcome.Status.CLEAN);
        assertThat(r.outcome().eventsRead()).isEqualTo(templates.size() + 2);
        List<TraceEvent> events = r.events();
        assertThat(events).hasSize(templates.size() + 2);

        SessionEvent s = (SessionEvent) events.get(0);
        assertThat(s).isSameAs(r.session());
        assertThat(s.formatVersion()).isEqualTo(FormatVersion.CURRENT);
        assertThat(s.info()).isEqualTo(info);
        assertThat(s.overrides()).containsExactlyEntriesOf(info.overrides());
        assertThat(s.hostId()).isEqualTo("host-a");

        for (int i = 0; i < templates.size(); i++) {
            assertThat(Events.withoutHeader(events.get(i + 1))).as("event %d", i + 1)
                    .isEqualTo(Events.withoutHeader(templates.get(i)));
            assertThat(seqs.get(i)).isEqualTo(i + 1);
        }
        EndEvent end = (EndEvent) events.get(events.size() - 1);
        assertThat(end.eventCount()).isEqualTo(templates.size() + 1);

        long pid = ProcessHandle.current().pid();
        long prevMono = Long.MIN_VALUE;
        for (int i = 0; i < events.size(); i++) {
            EventHeader h = events.get(i).header();
            assertThat(h.seq()).isEqualTo(i);
            assertThat(h.pid()).isEqualTo(pid);
            assertThat(h.threadName()).isEqualTo(Thread.currentThread().getName());
            assertThat(h.threadId()).isEqualTo(Thread.currentThread().getId());
            assertThat(h.monoNanos()).isGreaterThanOrEqualTo(prevMono);
            assertThat(h.wallNanos()).isBetween(before - 1_000_000, after + 1_000_000);
            prevMono = h.monoNanos();
        }
    }

    @Test
    void eventWallTime_isTheWallClockWhenItWasAppended() throws Exception {
        // the queue takes milliseconds to open: a wall clock read apart from the monotonic one
        // would date every event that much too early
        try (TraceWriter w = TraceWriter.create(out, EdgeFixture.session("h"))) {
            long before = epochNanos();
            w.append(EdgeFixture.events().get(0));
            long after = epochNanos();
            CallEvent c = (CallEvent) TraceReader.readAll(out.resolve("h")).events().get(1);
            assertThat(c.header().wallNanos()).isBetween(before - 200_000, after + 200_000);
        }
    }

    @Test
    void edgeValues_renderAsDocumented() throws Exception {
        try (TraceWriter w = TraceWriter.create(out, EdgeFixture.session("h"))) {
            w.append(EdgeFixture.events().get(0));
        }
        CallEvent c = (CallEvent) TraceReader.readAll(out.resolve("h")).events().get(1);
        assertThat(c.in().rendered())
                .containsEntry("qp", "0xffff800000001000")
                .containsEntry("rq_psn", "0xffffff")
                .containsEntry("dest_qp_num", "0xffffff")
                .containsEntry("qp_state", "IBV_QPS_RTR")
                .containsEntry("path_mtu", "IBV_MTU_4096")
                .containsEntry("is_global", "true");
        assertThat(c.errnoName()).isEqualTo("EINVAL");
    }

    @Test
    void typedWriterMethods_roundTrip() throws Exception {
        Attrs in = Attrs.builder().put(Attr.PD, 0x5555_0000_1000L).put(Attr.ADDR, 0x7f00_0000_0000L)
                .put(Attr.LENGTH, 4096).put(Attr.ACCESS, 0x7).build();
        Attrs outAttrs = Attrs.builder().put(Attr.LKEY, 0x1234).put(Attr.RKEY, 0x5678).build();
        Wc wc = new Wc(7, 0, 0, 0, 4096, 0, 17, 0, 0, 0, 0, 0, 0);
        try (TraceWriter w = TraceWriter.create(out, EdgeFixture.session("typed"))) {
            assertThat(w.call(Verb.IBV_REG_MR, 0x5555_0000_2000L, 0, 0, 1500, in, outAttrs)).isEqualTo(1);
            assertThat(w.completion(0x99, wc)).isEqualTo(2);
            assertThat(w.async(4, 0x77, 17)).isEqualTo(3);
            assertThat(w.oob(OobEvent.Direction.RECEIVED, "peer", OobEvent.Kind.BARRIER, Attrs.EMPTY)).isEqualTo(4);
            assertThat(w.mark("TC01", MarkEvent.Verdict.PASS, "resources created")).isEqualTo(5);
            assertThat(w.counters("sv0", CountersEvent.Phase.END,
                    List.of(new CountersEvent.Counter("tx", 3)))).isEqualTo(6);
        }
        List<TraceEvent> ev = TraceReader.readAll(out.resolve("typed")).events();
        assertThat(ev).extracting(TraceEvent::kind).containsExactly(EventKind.SESSION, EventKind.CALL,
                EventKind.COMPLETION, EventKind.ASYNC_EVENT, EventKind.OOB, EventKind.MARK, EventKind.COUNTERS,
                EventKind.END);
        CallEvent c = (CallEvent) ev.get(1);
        assertThat(c.verb()).isEqualTo(Verb.IBV_REG_MR);
        assertThat(c.handle()).isEqualTo(0x5555_0000_2000L);
        assertThat(c.durationNanos()).isEqualTo(1500);
        assertThat(c.in()).isEqualTo(in);
        assertThat(c.out()).isEqualTo(outAttrs);
        assertThat(((CompletionEvent) ev.get(2)).wc()).isEqualTo(wc);
        AsyncEvent a = (AsyncEvent) ev.get(3);
        assertThat(a.eventTypeName()).isEqualTo("IBV_EVENT_COMM_EST");
        assertThat(a.elementKind()).isEqualTo(AsyncEvent.ElementKind.QP);
        assertThat(((MarkEvent) ev.get(5)).text()).isEqualTo("resources created");
    }

    @Test
    void concurrentWriters_getGaplessSeqInQueueOrder() throws Exception {
        int threads = 4;
        int perThread = 500;
        try (TraceWriter w = TraceWriter.create(out, EdgeFixture.session("mt"))) {
            List<Thread> ts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                Thread th = new Thread(() -> {
                    for (int i = 0; i < perThread; i++) {
                        w.mark("T" + id, MarkEvent.Verdict.INFO, Integer.toString(i));
                    }
                }, "writer-" + t);
                ts.add(th);
                th.start();
            }
            for (Thread th : ts) {
                th.join(60_000);
                assertThat(th.isAlive()).isFalse();
            }
        }
        TraceReader.Result r = TraceReader.readAll(out.resolve("mt"));
        assertThat(r.outcome().isClean()).isTrue();
        assertThat(r.events()).hasSize(threads * perThread + 2);
        int[] next = new int[threads];
        for (TraceEvent e : r.events()) {
            if (e instanceof MarkEvent m) {
                int id = Integer.parseInt(m.step().substring(1));
                assertThat(m.header().threadName()).isEqualTo("writer-" + id);
                assertThat(Integer.parseInt(m.text())).isEqualTo(next[id]++);
            }
        }
        assertThat(next).containsOnly(perThread);
    }

    @Test
    void readBatch_andIteration_agree() throws Exception {
        try (TraceWriter w = TraceWriter.create(out, EdgeFixture.session("b"))) {
            for (int i = 0; i < 100; i++) {
                w.mark("S", MarkEvent.Verdict.INFO, "m" + i);
            }
        }
        try (TraceReader r = TraceReader.open(out.resolve("b"))) {
            List<TraceEvent> sink = new ArrayList<>();
            assertThat(r.readBatch(sink, 40)).isEqualTo(40);
            assertThat(r.outcome()).isNull();
            assertThat(r.readBatch(sink, 40)).isEqualTo(40);
            assertThat(r.readBatch(sink, 40)).isEqualTo(22);
            assertThat(r.readBatch(sink, 40)).isZero();
            assertThat(r.outcome().status()).isEqualTo(ReadOutcome.Status.CLEAN);
            assertThat(r.eventsRead()).isEqualTo(102);
            assertThat(sink.get(0).kind()).isEqualTo(EventKind.SESSION);
            assertThat(r.next()).isNull();
        }
    }

    @Test
    void endSaysHowTheRecordingEnded() throws Exception {
        List<TraceEnding> endings = List.of(TraceEnding.FINISHED, TraceEnding.exited(1, "the program exited 1"),
                TraceEnding.killed(11, "killed by SIGSEGV"), TraceEnding.interrupted(15, -1, 9, "SIGKILL after 5 s"),
                TraceEnding.interrupted(1, 3, 0, ""));
        for (int i = 0; i < endings.size(); i++) {
            TraceWriter w = TraceWriter.create(out, EdgeFixture.session("end" + i));
            w.close(endings.get(i));
            w.close(TraceEnding.FINISHED); // idempotent: the first close's END stays
            TraceReader.Result r = TraceReader.readAll(out.resolve("end" + i));
            assertThat(r.outcome().status()).isEqualTo(ReadOutcome.Status.CLEAN);
            assertThat(r.events()).hasSize(2);
            assertThat(((EndEvent) r.events().get(1)).ending()).isEqualTo(endings.get(i));
        }
    }

    private static long epochNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
}
