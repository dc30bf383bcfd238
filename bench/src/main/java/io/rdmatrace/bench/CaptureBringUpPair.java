package io.rdmatrace.bench;

import io.rdmatrace.capture.config.CaptureConfig;
import io.rdmatrace.capture.config.Op;
import io.rdmatrace.capture.config.PeerLink;
import io.rdmatrace.capture.config.QpKnobs;
import io.rdmatrace.capture.config.Transport;
import io.rdmatrace.capture.config.Workload;
import io.rdmatrace.capture.oob.OobRole;
import io.rdmatrace.capture.run.CaptureAgent;
import io.rdmatrace.capture.run.CaptureReport;
import io.rdmatrace.verbs.Verbs;
import io.rdmatrace.verbs.VerbsLibrary;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Two capture agents in this JVM — hostA listens on softverbs device "ca", hostB connects from "cb"
 * (loopback addresses private to this process) — running a whole `capture --qps N` bring-up, with or
 * without recording. Shared by {@link CaptureBringUpBench} and {@link CaptureBringUpCompare}.
 */
final class CaptureBringUpPair implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("listening on [0-9.]+:(\\d+)");

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Verbs holder;
    private final String net;
    /** CPU time of the last run's two capture threads (hostA's, hostB's): the bring-up's critical path. */
    private volatile long lastCaptureCpuNanos;

    CaptureBringUpPair() {
        // the softverbs device config is process-wide; this handle keeps it for the agents' own opens
        holder = Verbs.open(VerbsLibrary.bundledSoftverbs());
        long pid = ProcessHandle.current().pid();
        net = "127." + (150 + (int) (pid % 50)) + "." + (int) ((pid / 50) % 250 + 1);
        holder.configureSoftverbs("ca@" + net + ".1,cb@" + net + ".2");
    }

    /** One bring-up of {@code qps} RC QPs (64-byte SEND each way), traces under a temporary folder deleted after. */
    long run(int qps, boolean record) throws Exception {
        Path out = Files.createTempDirectory("rdmatrace-bringup");
        try {
            long start = System.nanoTime();
            CompletableFuture<String> port = new CompletableFuture<>();
            AtomicLong hostACpu = new AtomicLong();
            CompletableFuture<CaptureReport> listener = CompletableFuture.supplyAsync(() -> {
                long cpu0 = THREADS.getCurrentThreadCpuTime();
                try {
                    return agent(config(out, qps, "hostA", "ca", OobRole.LISTEN, net + ".1:0"), record, line -> {
                        Matcher m = LISTENING.matcher(line);
                        if (m.find()) {
                            port.complete(m.group(1));
                        }
                    }).run();
                } catch (Exception e) {
                    port.completeExceptionally(e);
                    throw new IllegalStateException(e);
                } finally {
                    hostACpu.set(THREADS.getCurrentThreadCpuTime() - cpu0);
                }
            });
            String p = port.get(60, TimeUnit.SECONDS);
            long cpu0 = THREADS.getCurrentThreadCpuTime();
            CaptureReport b = agent(config(out, qps, "hostB", "cb", OobRole.CONNECT, net + ".1:" + p), record, line -> {
            }).run();
            long hostBCpu = THREADS.getCurrentThreadCpuTime() - cpu0;
            CaptureReport a = listener.get(120, TimeUnit.SECONDS);
            long nanos = System.nanoTime() - start;
            lastCaptureCpuNanos = hostACpu.get() + hostBCpu;
            if (!a.passed() || !b.passed()) {
                throw new IllegalStateException("bring-up failed: " + a.results() + " / " + b.results());
            }
            return nanos;
        } finally {
            delete(out);
        }
    }

    /** CPU time of the last {@link #run}'s two capture threads together. */
    long lastCaptureCpuNanos() {
        return lastCaptureCpuNanos;
    }

    private static CaptureConfig config(Path out, int qps, String host, String device, OobRole role, String endpoint) {
        PeerLink link = new PeerLink(role, endpoint, Optional.empty(), true, Duration.ofSeconds(60), Duration.ofSeconds(60));
        return new CaptureConfig(host, out, device, 1, link, new Workload(Transport.RC, qps, 64, 1, Op.SEND),
                QpKnobs.defaults(), null, Duration.ofSeconds(30), Map.of(), "bench");
    }

    private static CaptureAgent agent(CaptureConfig c, boolean record, Consumer<String> progress) {
        CaptureAgent a = new CaptureAgent(c, VerbsLibrary.bundledSoftverbs(), "bench", progress);
        return record ? a : a.withoutRecording();
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @Override
    public void close() {
        holder.close();
    }
}
