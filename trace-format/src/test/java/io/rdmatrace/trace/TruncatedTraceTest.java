package io.rdmatrace.trace;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.store.ReadOutcome;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceReader;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TruncatedTraceTest {

    @TempDir
    Path out;

    @Test
    void killMinus9WhileWriting_readsAllCompleteEventsAsTruncated() throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // the same --add-opens/-D flags this test JVM got from surefire's argLine
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("--add-") || a.startsWith("--enable-native-access") || a.startsWith("-Dchronicle")) {
                cmd.add(a);
            }
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(WriterChild.class.getName());
        cmd.add(out.toString());
        cmd.add("victim");
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        long lastReported = -1;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            String line;
            // wait (bounded) until the child has written at least 20,000 events, then SIGKILL it mid-stream
            while (System.nanoTime() < deadline && (line = r.readLine()) != null) {
                if (line.startsWith("seq ")) {
                    lastReported = Long.parseLong(line.substring(4));
                    if (lastReported >= 20_000) {
                        break;
                    }
                }
            }
            p.destroyForcibly(); // SIGKILL on Linux: no shutdown hooks, no close()
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("child died").isTrue();
        } finally {
            p.destroyForcibly();
        }
        assertThat(lastReported).as("child reported progress").isGreaterThanOrEqualTo(20_000);
        assertThat(p.exitValue()).isEqualTo(137);

        try (TraceReader reader = TraceReader.open(out.resolve("victim"))) {
            long n = 0;
            long lastSeq = -1;
            TraceEvent e;
            while ((e = reader.next()) != null) {
                assertThat(e.seq()).isEqualTo(n);
                if (e instanceof CallEvent c) {
                    assertThat(c.durationNanos()).isEqualTo(n - 1); // the loop counter: payload intact
                    assertThat(c.in().get(Attr.RQ_PSN, -1)).isEqualTo(0xabcdef);
                }
                lastSeq = e.seq();
                n++;
            }
            ReadOutcome o = reader.outcome();
            assertThat(o.status()).as(o.detail()).isEqualTo(ReadOutcome.Status.TRUNCATED);
            assertThat(o.eventsRead()).isEqualTo(n);
            assertThat(lastSeq).isGreaterThanOrEqualTo(lastReported);
            assertThat(o.detail()).contains("no END event");
        }
    }
}
