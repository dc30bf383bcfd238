package io.rdmatrace.bench;

import io.rdmatrace.capture.config.CaptureConfig;
import io.rdmatrace.capture.config.Op;
import io.rdmatrace.capture.config.PeerLink;
import io.rdmatrace.capture.config.QpKnobs;
import io.rdmatrace.capture.config.QpType;
import io.rdmatrace.capture.config.Workload;
import io.rdmatrace.capture.oob.OobRole;
import io.rdmatrace.capture.run.CaptureAgent;
import io.rdmatrace.capture.run.CaptureReport;
import io.rdmatrace.verbs.Verbs;
import io.rdmatrace.verbs.VerbsLibrary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A whole `rdmatrace capture --qps N` bring-up of two agents (listener and connector on two softverbs
 * devices, two threads of this JVM): TC01–TC04 for every QP, with and without recording. Recording
 * adds the verbs listener and a trace per host; goal: at most 10% on top of the bare bring-up.
 * <pre>java -jar bench/target/benchmarks.jar CaptureBringUpBench -f 1 -wi 2 -i 5</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {JvmFlags.OPENS_REFLECT, JvmFlags.EXPORTS_NIO_CH, JvmFlags.OPENS_LANG,
    JvmFlags.EXPORTS_JAVAC, JvmFlags.EXPORTS_REF, JvmFlags.OPENS_NIO, JvmFlags.NO_ANALYTICS, JvmFlags.NO_BANNER})
public class CaptureBringUpBench {
    private static final Pattern LISTENING = Pattern.compile("listening on [0-9.]+:(\\d+)");

    @Param({"1000"})
    int qps;

    @Param({"true", "false"})
    boolean record;

    private Verbs holder;
    private String net;
    private Path out;

    @Setup(Level.Trial)
    public void devices() {
        // two devices on loopback addresses private to this process; the config is process-wide
        holder = Verbs.open(VerbsLibrary.bundledSoftverbs());
        long pid = ProcessHandle.current().pid();
        net = "127." + (150 + (int) (pid % 50)) + "." + (int) ((pid / 50) % 250 + 1);
        holder.configureSoftverbs("ca@" + net + ".1,cb@" + net + ".2");
    }

    @Setup(Level.Invocation)
    public void newOut() throws IOException {
        out = Files.createTempDirectory("rdmatrace-bringup-bench");
    }

    @TearDown(Level.Invocation)
    public void dropOut() throws IOException {
        try (Stream<Path> files = Files.walk(out)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        holder.close();
    }

    private CaptureConfig config(String host, String device, OobRole role, String endpoint) {
        PeerLink link = new PeerLink(role, endpoint, Optional.empty(), true, Duration.ofSeconds(60), Duration.ofSeconds(60));
        return new CaptureConfig(host, out, device, 1, link, new Workload(QpType.RC, qps, 64, 1, Op.SEND), QpKnobs.defaults(),
                null, Duration.ofSeconds(30), Map.of(), "bench");
    }

    private CaptureAgent agent(CaptureConfig c, java.util.function.Consumer<String> progress) {
        CaptureAgent a = new CaptureAgent(c, VerbsLibrary.bundledSoftverbs(), "bench", progress);
        return record ? a : a.withoutRecording();
    }

    @Benchmark
    public long bringUp() throws Exception {
        CompletableFuture<String> port = new CompletableFuture<>();
        CompletableFuture<CaptureReport> listener = CompletableFuture.supplyAsync(() -> {
            try {
                return agent(config("hostA", "ca", OobRole.LISTEN, net + ".1:0"), line -> {
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) {
                        port.complete(m.group(1));
                    }
                }).run();
            } catch (Exception e) {
                port.completeExceptionally(e);
                throw new IllegalStateException(e);
            }
        });
        CaptureReport b = agent(config("hostB", "cb", OobRole.CONNECT, net + ".1:" + port.get(60, TimeUnit.SECONDS)), line -> {
        }).run();
        CaptureReport a = listener.get(120, TimeUnit.SECONDS);
        if (!a.passed() || !b.passed()) {
            throw new IllegalStateException("bring-up failed: " + a.results() + " / " + b.results());
        }
        return a.events() + b.events();
    }
}
