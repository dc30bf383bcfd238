package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.trace.model.EndEvent;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.store.ReadOutcome;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.trace.store.TraceReader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 of an agent in the middle of a capture: its trace reads up to the last event written and
 * reports TRUNCATED; the surviving peer notices at once and closes a complete trace of its own.
 */
class CaptureKillTest {
    private static final long LIMIT_MS = 60_000;

    private static Process launch(String host, String ip, List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
                "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "capture", "--soft", "--host-id", host));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("SOFTVERBS_DEVICES", host + "@" + ip);
        return pb.start();
    }

    private static BlockingQueue<String> lines(Process p) {
        BlockingQueue<String> q = new LinkedBlockingQueue<>();
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    q.add(line);
                }
            } catch (IOException e) {
                q.add("@@" + e);
            }
        });
        t.setDaemon(true);
        t.start();
        return q;
    }

    /** Waits (bounded) until the live trace of {@code host} has received the peer's PARAMS. */
    private static void awaitExchange(Path folder) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LIMIT_MS);
        while (System.nanoTime() < deadline) {
            if (Files.isDirectory(folder)) {
                try {
                    TraceReader.Result r = TraceReader.readAll(folder);
                    boolean got = r.events().stream().anyMatch(e -> e instanceof OobEvent o
                            && o.oobKind() == OobEvent.Kind.PARAMS && o.direction() == OobEvent.Direction.RECEIVED);
                    if (got) {
                        return;
                    }
                } catch (TraceException e) {
                    // not written far enough yet
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the listener never received the peer's PARAMS");
    }

    @Test
    void kill9MidCapture_leavesATruncatedButReadableTrace(@TempDir Path out) throws Exception {
        // hostA sleeps 30 s between the exchange and RTR (--delay-rtr): the kill lands in the middle
        LoopbackPair ips = LoopbackPair.random();
        Process a = launch("hostA", ips.a(), List.of("--listen", "127.0.0.1:0", "--out", out.toString(), "--delay-rtr", "30000"));
        Process b = null;
        try {
            BlockingQueue<String> aLines = lines(a);
            String port = null;
            while (port == null) {
                String line = aLines.poll(LIMIT_MS, TimeUnit.MILLISECONDS);
                assertThat(line).as("hostA output before it listened").isNotNull();
                Matcher m = Pattern.compile("listening on [0-9.]+:(\\d+)").matcher(line);
                port = m.find() ? m.group(1) : null;
            }
            b = launch("hostB", ips.b(), List.of("--connect", "127.0.0.1:" + port, "--out", out.toString(),
                    "--oob-timeout-ms", "20000", "--cq-timeout-ms", "2000"));
            BlockingQueue<String> bLines = lines(b);
            awaitExchange(out.resolve("hostA"));
            a.destroyForcibly(); // SIGKILL
            assertThat(a.waitFor(10, TimeUnit.SECONDS)).isTrue();

            TraceReader.Result ra = TraceReader.readAll(out.resolve("hostA"));
            assertThat(ra.outcome().status()).isEqualTo(ReadOutcome.Status.TRUNCATED);
            List<TraceEvent> events = ra.events();
            assertThat(events).noneMatch(e -> e instanceof EndEvent);
            for (int i = 0; i < events.size(); i++) {
                assertThat(events.get(i).seq()).as("event %d is read in order, none missing", i).isEqualTo(i);
            }
            assertThat(events).anyMatch(e -> e instanceof MarkEvent m && m.step().equals("TC02") && m.verdict() == MarkEvent.Verdict.PASS);
            assertThat(events).anyMatch(e -> e instanceof OobEvent o && o.oobKind() == OobEvent.Kind.PARAMS
                    && o.direction() == OobEvent.Direction.SENT);

            // hostB was waiting at the barrier: the dead connection ends it promptly, with a clean trace
            assertThat(b.waitFor(LIMIT_MS, TimeUnit.MILLISECONDS)).isTrue();
            assertThat(b.exitValue()).isEqualTo(ExitCode.FAILURE);
            TraceReader.Result rb = TraceReader.readAll(out.resolve("hostB"));
            assertThat(rb.outcome().isClean()).as(rb.outcome().detail()).isTrue();
            assertThat(rb.events()).anyMatch(e -> e instanceof MarkEvent m && m.step().equals("TC03")
                    && m.verdict() == MarkEvent.Verdict.FAIL && m.text().contains("closed"));
            assertThat(bLines).anyMatch(l -> l.contains("TC03") && l.contains("FAIL"));
        } finally {
            a.destroyForcibly();
            if (b != null) {
                b.destroyForcibly();
            }
        }
    }
}
