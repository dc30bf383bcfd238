package io.rdmatrace.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.rdmatrace.trace.synth.EdgeFixture;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer started from a {@link TraceOpening} (the capture agent's) appends on a thread of its own:
 * the SESSION does not wait for the queue's open, events recorded meanwhile reach the trace in order,
 * a killed process keeps what the thread appended, and a failed open is reported.
 */
class BackgroundAppendsTest {

    @TempDir
    Path out;

    @Test
    void eventsRecordedWhileTheQueueOpens_areInTheTraceInOrder() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean openDone = new AtomicBoolean();
        TraceOpening o = TraceOpening.begin(out, "h", dir -> {
            try {
                release.await(10, TimeUnit.SECONDS); // bounded: a start() that waits fails below, not hangs
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            openDone.set(true);
            return TraceLayout.openForWrite(dir);
        });
        TraceWriter w = o.start(EdgeFixture.session("h"));
        for (int i = 0; i < 1000; i++) {
            w.mark("S" + i, MarkEvent.Verdict.INFO, "before the open");
        }
        assertThat(openDone).as("the SESSION and 1,000 events were recorded while the open was held").isFalse();
        assertThat(w.eventsWritten()).isEqualTo(1001);
        Thread opener = new Thread(() -> {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            release.countDown();
        });
        opener.start();
        // more than fit in flight: the recording thread waits for the open instead of losing any
        int more = BackgroundAppends.CAPACITY + 100;
        for (int i = 1000; i < 1000 + more; i++) {
            w.mark("S" + i, MarkEvent.Verdict.INFO, "after");
        }
        w.close();
        opener.join();

        TraceReader.Result r = TraceReader.readAll(out.resolve("h"));
        assertThat(r.outcome().status()).as(r.outcome().detail()).isEqualTo(ReadOutcome.Status.CLEAN);
        List<TraceEvent> events = r.events();
        assertThat(events).hasSize(1 + 1000 + more + 1);
        assertThat(events.get(0).kind()).isEqualTo(EventKind.SESSION);
        for (int i = 0; i < events.size(); i++) {
            assertThat(events.get(i).seq()).isEqualTo(i);
        }
        for (int i = 1; i < events.size() - 1; i++) {
            assertThat(((MarkEvent) events.get(i)).step()).isEqualTo("S" + (i - 1));
        }
        assertThat(events.get(events.size() - 1).kind()).isEqualTo(EventKind.END);
        // time stamps follow the recording, not the appends: never backwards
        for (int i = 1; i < events.size(); i++) {
            assertThat(events.get(i).header().monoNanos()).isGreaterThanOrEqualTo(events.get(i - 1).header().monoNanos());
        }
    }

    @Test
    void start_startsNoThread_theOpeningsThreadAppends() throws Exception {
        TraceOpening o = TraceOpening.begin(out, "h");
        java.util.Set<Thread> before = Thread.getAllStackTraces().keySet();
        TraceWriter w = o.start(EdgeFixture.session("h"));
        java.util.Set<Thread> after = new java.util.HashSet<>(Thread.getAllStackTraces().keySet());
        after.removeAll(before);
        // a thread's start waits until it first runs: on a busy machine that was the SESSION's cost
        assertThat(after).extracting(Thread::getName).noneMatch(n -> n.startsWith("rdmatrace"));
        w.mark("S", MarkEvent.Verdict.INFO, "one");
        w.close();
        assertThat(TraceReader.readAll(out.resolve("h")).events()).extracting(TraceEvent::kind)
                .containsExactly(EventKind.SESSION, EventKind.MARK, EventKind.END);
    }

    @Test
    void aQueueThatCannotOpen_failsTheWriter_andLeavesNoFolder() throws Exception {
        TraceOpening o = TraceOpening.begin(out, "h", dir -> {
            throw new IllegalStateException("no queue here");
        });
        TraceWriter w = o.start(EdgeFixture.session("h"));
        Throwable e = catchThrowable(() -> {
            for (int i = 0; i < 1_000_000; i++) { // the failure comes back at a later call, at the latest the close
                w.mark("S", MarkEvent.Verdict.INFO, "x");
                Thread.sleep(i < 100 ? 1 : 0);
            }
            w.close();
        });
        assertThat(e).isNotNull();
        assertThat(e).hasStackTraceContaining("no queue here");
        w.closeTruncated(); // what the recorder does after a failure: no second throw
        w.close();
        assertThat(out.resolve("h")).doesNotExist();
    }

    @Test
    void killMinus9_keepsEverythingAppendedBefore_inOrder() throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("--add-") || a.startsWith("--enable-native-access") || a.startsWith("-Dchronicle")) {
                cmd.add(a);
            }
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), BackgroundWriterChild.class.getName(),
                out.toString(), "victim"));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Path folder = out.resolve("victim");
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            assertThat(r.readLine()).isEqualTo("handed 20000");
            // no close, no flush call: the thread appends on its own, within milliseconds
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (count(folder) < 20_001) {
                assertThat(System.nanoTime()).as("the 20,000 events handed over reach the file").isLessThan(deadline);
                Thread.sleep(20);
            }
            p.destroyForcibly(); // SIGKILL: no shutdown hooks, no close()
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            p.destroyForcibly();
        }
        try (TraceReader reader = TraceReader.open(folder)) {
            long n = 0;
            TraceEvent e;
            while ((e = reader.next()) != null) {
                assertThat(e.seq()).isEqualTo(n);
                if (e instanceof CallEvent c) {
                    assertThat(c.durationNanos()).isEqualTo(n - 1); // the child's loop counter: payload intact
                }
                n++;
            }
            assertThat(reader.outcome().status()).isEqualTo(ReadOutcome.Status.TRUNCATED);
            assertThat(n).isGreaterThanOrEqualTo(20_001);
        }
    }

    /** Events readable in the live trace now (0 before the queue exists). */
    private static long count(Path folder) {
        try (TraceReader reader = TraceReader.open(folder)) {
            long n = 0;
            while (reader.next() != null) {
                n++;
            }
            return n;
        } catch (TraceException | RuntimeException e) {
            return 0;
        }
    }
}
