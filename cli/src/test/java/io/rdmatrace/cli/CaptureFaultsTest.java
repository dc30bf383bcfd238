package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.trace.model.EndEvent;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.store.ReadOutcome;
import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.trace.store.TraceLayout;
import io.rdmatrace.trace.store.TraceReader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A capture stopped by its environment: Ctrl-C closes the trace with END and a FAIL mark and
 * tells the peer; a trace that can no longer be written (the kernel's SIGBUS on the mapped queue
 * file, exactly what a full disk gives) stops the capture with its step table, "no space left on
 * OUT (N events kept)" and exit 2, leaves those N events readable, and tells the peer.
 */
class CaptureFaultsTest {
    private static final long LIMIT_MS = 60_000;
    /** hostA sleeps this long between the exchange and RTR: the fault lands inside it. */
    private static final String DELAY_MS = "4000";

    @TempDir
    Path out;

    /** A running agent and everything it printed. */
    private record Agent(Process process, List<String> lines) {
        String text() {
            synchronized (lines) {
                return String.join("\n", lines);
            }
        }
    }

    @Test
    void ctrlC_closesTheTraceWithEndAndAFailMark_andThePeerIsTold() throws Exception {
        Agent[] agents = startPair();
        Agent a = agents[0];
        Agent b = agents[1];
        try {
            awaitExchange(out.resolve("hostA"));
            Process kill = new ProcessBuilder("kill", "-INT", Long.toString(a.process().pid())).start();
            assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(a.process().waitFor(LIMIT_MS, TimeUnit.MILLISECONDS)).as("hostA stops on SIGINT").isTrue();

            TraceReader.Result ra = TraceReader.readAll(out.resolve("hostA"));
            assertThat(ra.outcome().status()).as(ra.outcome().detail()).isEqualTo(ReadOutcome.Status.CLEAN);
            assertThat(ra.events().get(ra.events().size() - 1)).isInstanceOf(EndEvent.class);
            assertThat(ra.events()).anyMatch(e -> e instanceof MarkEvent m && m.verdict() == MarkEvent.Verdict.FAIL
                    && m.text().contains("stopped by a signal"));

            assertThat(b.process().waitFor(LIMIT_MS, TimeUnit.MILLISECONDS)).as("hostB ends promptly").isTrue();
            assertThat(b.process().exitValue()).as(b.text()).isEqualTo(ExitCode.FAILURE);
            assertThat(b.text()).contains("hostA was stopped by a signal");
        } finally {
            a.process().destroyForcibly();
            b.process().destroyForcibly();
        }
    }

    @Test
    void traceFileCannotGrow_stopsCleanlyWithExit2_keepsTheEventsReadable_andThePeerIsTold() throws Exception {
        // 300 messages each way: far more than the last page of the cut file holds
        Agent[] agents = startPair("--iterations", "300");
        Agent a = agents[0];
        Agent b = agents[1];
        try {
            Path folder = out.resolve("hostA");
            awaitExchange(folder);
            // cut the mapped file just past its data: the agent's next page of writes gets SIGBUS, as on a full disk
            Path data;
            try (java.util.stream.Stream<Path> files = Files.list(folder)) {
                data = files.filter(p -> p.toString().endsWith(TraceLayout.QUEUE_FILE_SUFFIX)).findFirst().orElseThrow();
            }
            long end = endOfData(data);
            try (RandomAccessFile f = new RandomAccessFile(data.toFile(), "rw")) {
                f.setLength((end + 4095) & ~4095L);
            }
            assertThat(a.process().waitFor(LIMIT_MS, TimeUnit.MILLISECONDS)).as("hostA stops").isTrue();
            assertThat(a.process().exitValue()).as(a.text()).isEqualTo(ExitCode.USAGE);
            Matcher kept = Pattern.compile("rdmatrace capture: no space left on " + Pattern.quote(out.toString())
                    + " \\((\\d+) events kept\\)").matcher(a.text());
            assertThat(kept.find()).as(a.text()).isTrue();
            assertThat(a.text()).contains("FAIL  no space left on").doesNotContain("InternalError").doesNotContain("\tat ");

            TraceReader.Result ra = TraceReader.readAll(folder);
            assertThat(ra.outcome().status()).as(ra.outcome().detail()).isEqualTo(ReadOutcome.Status.TRUNCATED);
            assertThat((long) ra.events().size()).isEqualTo(Long.parseLong(kept.group(1)));

            assertThat(b.process().waitFor(LIMIT_MS, TimeUnit.MILLISECONDS)).as("hostB ends promptly").isTrue();
            assertThat(b.process().exitValue()).as(b.text()).isEqualTo(ExitCode.FAILURE);
            assertThat(b.text()).contains("no space left on");
        } finally {
            a.process().destroyForcibly();
            b.process().destroyForcibly();
        }
    }

    @Test
    void fullDisk_oneSentenceAndExit2_theEventsBeforeItReadBack_truncated(@TempDir Path work) throws Exception {
        // a real 2 MB file system that fills: ~26,000 events, 4-8 s of messages
        try (SmallTmpfs disk = SmallTmpfs.mount(work.resolve("small"), "2m")) {
            Agent[] agents = startPair(disk.dir(), "--iterations", "20000");
            Agent a = agents[0];
            Agent b = agents[1];
            try {
                assertThat(a.process().waitFor(LIMIT_MS, TimeUnit.MILLISECONDS)).as("hostA stops").isTrue();
                assertThat(a.process().exitValue()).as(a.text()).isEqualTo(ExitCode.USAGE);
                Matcher kept = Pattern.compile("^rdmatrace capture: no space left on " + Pattern.quote(disk.dir().toString())
                        + " \\((\\d+) events kept\\)$", Pattern.MULTILINE).matcher(a.text());
                assertThat(kept.find()).as(a.text()).isTrue();
                assertThat(a.text()).doesNotContain("InternalError").doesNotContain("Exception").doesNotContain("\tat ")
                        .doesNotContain("disk~space~checker");

                // read where it was written, on the full disk itself
                TraceReader.Result ra = TraceReader.readAll(disk.dir().resolve("hostA"));
                assertThat(ra.outcome().status()).as(ra.outcome().detail()).isEqualTo(ReadOutcome.Status.TRUNCATED);
                assertThat((long) ra.events().size()).isEqualTo(Long.parseLong(kept.group(1))).isGreaterThan(10_000);
                assertThat(b.process().waitFor(LIMIT_MS, TimeUnit.MILLISECONDS)).as("hostB ends promptly").isTrue();
                assertThat(b.text()).contains("no space left on");
            } finally {
                a.process().destroyForcibly();
                b.process().destroyForcibly();
                a.process().waitFor(LIMIT_MS, TimeUnit.MILLISECONDS);
                b.process().waitFor(LIMIT_MS, TimeUnit.MILLISECONDS);
            }
        }
    }

    /** Offset after the last complete document of a Chronicle data file (its framing: 4-byte aligned length words). */
    private static long endOfData(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer w = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
            long at = 0;
            while (true) {
                w.clear();
                ch.read(w, at);
                int word = w.getInt(0);
                if (word == 0 || word < 0) {
                    return at;
                }
                at = (at + 4 + (word & 0x3fff_ffff) + 3) & ~3L;
            }
        }
    }

    private Agent[] startPair(String... extra) throws Exception {
        return startPair(out, extra);
    }

    /** hostA writes to {@code aOut}, hostB to this test's folder. */
    private Agent[] startPair(Path aOut, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("--listen", "127.0.0.1:0", "--out", aOut.toString(), "--delay-rtr", DELAY_MS));
        args.addAll(List.of(extra));
        LoopbackPair ips = LoopbackPair.random();
        Agent a = launch("hostA", ips.a(), args);
        String port = null;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LIMIT_MS);
        while (port == null && System.nanoTime() < deadline) {
            Matcher m = Pattern.compile("listening on [0-9.]+:(\\d+)").matcher(a.text());
            port = m.find() ? m.group(1) : null;
            Thread.sleep(50);
        }
        assertThat(port).as("hostA listened: " + a.text()).isNotNull();
        List<String> bArgs = new ArrayList<>(List.of("--connect", "127.0.0.1:" + port, "--out", out.toString(),
                "--oob-timeout-ms", "20000", "--cq-timeout-ms", "2000"));
        bArgs.addAll(List.of(extra));
        Agent b = launch("hostB", ips.b(), bArgs);
        return new Agent[] {a, b};
    }

    private static Agent launch(String host, String ip, List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
                "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "capture", "--soft", "--host-id", host));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("SOFTVERBS_DEVICES", host + "@" + ip);
        Process p = pb.start();
        List<String> lines = new ArrayList<>();
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    synchronized (lines) {
                        lines.add(line);
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        });
        t.setDaemon(true);
        t.start();
        return new Agent(p, lines);
    }

    /** Waits (bounded) until the live trace of {@code folder} has received the peer's PARAMS. */
    private static void awaitExchange(Path folder) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LIMIT_MS);
        while (System.nanoTime() < deadline) {
            if (Files.isDirectory(folder)) {
                try {
                    TraceReader.Result r = TraceReader.readAll(folder);
                    if (r.events().stream().anyMatch(e -> e instanceof OobEvent o && o.oobKind() == OobEvent.Kind.PARAMS
                            && o.direction() == OobEvent.Direction.RECEIVED)) {
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
}
