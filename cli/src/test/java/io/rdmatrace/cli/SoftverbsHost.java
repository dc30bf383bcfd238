package io.rdmatrace.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@link CaptureWorker} JVM whose softverbs device has a given personality
 * ({@code SOFTVERBS_DEVICES=hostB@127.0.0.2:quirk=caps-pow2}), and the two-host capture run on a
 * pair of them. Every wait is bounded by {@link #RUN_LIMIT}; the process is killed on close.
 */
final class SoftverbsHost implements AutoCloseable {
    static final Duration RUN_LIMIT = Duration.ofSeconds(90);
    private static final Pattern LISTENING = Pattern.compile("listening on [0-9.]+:(\\d+)");
    private static final String READY = "@@READY";

    private final String host;
    private final String ip;
    private final Process process;
    private final Writer stdin;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    /**
     * Starts the JVM with one softverbs device {@code host@ip} plus {@code personality} (e.g.
     * {@code :quirk=caps-pow2}, or empty), which is also the host id of its captures.
     */
    SoftverbsHost(String host, String ip, String personality) throws IOException {
        this.host = host;
        this.ip = ip;
        String device = host + "@" + ip + personality;
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
                "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-XX:TieredStopAtLevel=1", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp", System.getProperty("java.class.path"), CaptureWorker.class.getName()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("SOFTVERBS_DEVICES", device);
        process = pb.start();
        stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException e) {
                lines.add("reader failed: " + e);
            }
        }, "softverbs-host-" + host);
        reader.setDaemon(true);
        reader.start();
    }

    /** Waits until the worker reads commands. */
    SoftverbsHost ready() throws IOException {
        long deadline = System.nanoTime() + RUN_LIMIT.toNanos();
        while (!next(deadline).equals(READY)) {
            // JVM start-up output
        }
        return this;
    }

    /**
     * One capture: {@code a} listens, {@code b} connects; both write under {@code out}.
     *
     * @return the two sides' output, each ending with its exit code line
     */
    static String capture(Path out, SoftverbsHost a, SoftverbsHost b, List<String> args, List<String> bArgs)
            throws IOException {
        long deadline = System.nanoTime() + RUN_LIMIT.toNanos();
        List<String> ca = new ArrayList<>(List.of("capture", "--soft", "--host-id", a.host, "--out", out.toString(),
                "--listen", a.ip + ":0"));
        ca.addAll(args);
        a.send(ca);
        StringBuilder aOut = new StringBuilder();
        String port = null;
        while (port == null) {
            String line = a.next(deadline);
            aOut.append(line).append('\n');
            Matcher m = LISTENING.matcher(line);
            if (m.find()) {
                port = m.group(1);
            } else if (line.startsWith(CaptureWorker.EXIT_MARK)) {
                throw new IOException(a.host + " ended before listening:\n" + aOut);
            }
        }
        List<String> cb = new ArrayList<>(List.of("capture", "--soft", "--host-id", b.host, "--out", out.toString(),
                "--connect", a.ip + ":" + port));
        cb.addAll(args);
        cb.addAll(bArgs);
        b.send(cb);
        String bOut = b.untilExit(new StringBuilder(), deadline);
        return a.untilExit(aOut, deadline) + bOut;
    }

    private void send(List<String> args) throws IOException {
        stdin.write(String.join("\t", args) + "\n");
        stdin.flush();
    }

    private String untilExit(StringBuilder out, long deadline) throws IOException {
        while (true) {
            String line = next(deadline);
            out.append('[').append(host).append("] ").append(line).append('\n');
            if (line.startsWith(CaptureWorker.EXIT_MARK)) {
                return out.toString();
            }
        }
    }

    private String next(long deadline) throws IOException {
        try {
            String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new IOException(host + ": no output within " + RUN_LIMIT.toSeconds() + " s");
            }
            return line;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    @Override
    public void close() {
        try {
            stdin.close();
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (IOException | InterruptedException e) {
            process.destroyForcibly();
        }
    }
}
