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
 * Two {@link CaptureWorker} JVMs on softverbs — hostA (listens) and hostB (connects) on a random {@link LoopbackPair} —
 * and a way to run one capture on each. Every wait is bounded; the workers are killed on close.
 */
final class CaptureHosts implements AutoCloseable {
    static final Duration RUN_LIMIT = Duration.ofSeconds(60);
    private static final Pattern LISTENING = Pattern.compile("listening on [0-9.]+:(\\d+)");

    /** What one side printed and returned. */
    record Side(int exit, String output) {
    }

    record Run(Side a, Side b) {
    }

    private final Worker a;
    private final Worker b;
    private final LoopbackPair ips;

    CaptureHosts() throws IOException {
        this("");
    }

    /** With {@code deviceKeys} (e.g. {@code mtu=4200}) added to both devices' SOFTVERBS_DEVICES entry. */
    CaptureHosts(String deviceKeys) throws IOException {
        ips = LoopbackPair.random();
        String keys = deviceKeys.isEmpty() ? "" : ":" + deviceKeys;
        a = new Worker("hostA", ips.a() + keys);
        b = new Worker("hostB", ips.b() + keys);
        a.awaitReady();
        b.awaitReady();
    }

    /** Runs `capture` on both: hostA with --listen 127.0.0.1:0 and {@code aArgs}, hostB with --connect and {@code bArgs}. */
    Run capture(Path out, List<String> aArgs, List<String> bArgs) throws IOException {
        return capture(out, aArgs, bArgs, "127.0.0.1");
    }

    /**
     * As {@link #capture(Path, List, List)} with the link on hostA's device address (--listen A:0,
     * --connect A:port): with --cm that address is also the rdma_cm address.
     */
    Run captureOnDeviceAddress(Path out, List<String> aArgs, List<String> bArgs) throws IOException {
        return capture(out, aArgs, bArgs, ips.a());
    }

    String addressA() {
        return ips.a();
    }

    private Run capture(Path out, List<String> aArgs, List<String> bArgs, String listenHost) throws IOException {
        List<String> ca = new ArrayList<>(List.of("capture", "--soft", "--host-id", "hostA", "--out", out.toString(),
                "--listen", listenHost + ":0"));
        ca.addAll(aArgs);
        a.send(ca);
        StringBuilder aOut = new StringBuilder();
        long deadline = System.nanoTime() + RUN_LIMIT.toNanos();
        String port = null;
        while (port == null) {
            String line = a.next(deadline);
            aOut.append(line).append('\n');
            Matcher m = LISTENING.matcher(line);
            if (m.find()) {
                port = m.group(1);
            } else if (line.startsWith(CaptureWorker.EXIT_MARK)) {
                return new Run(new Side(exitOf(line), aOut.toString()), new Side(-1, "(not started)"));
            }
        }
        List<String> cb = new ArrayList<>(List.of("capture", "--soft", "--host-id", "hostB", "--out", out.toString(),
                "--connect", listenHost + ":" + port));
        cb.addAll(bArgs);
        b.send(cb);
        Side sb = b.collect(new StringBuilder(), deadline);
        Side sa = a.collect(aOut, deadline);
        return new Run(sa, sb);
    }

    private static int exitOf(String line) {
        return Integer.parseInt(line.substring(CaptureWorker.EXIT_MARK.length()).trim());
    }

    @Override
    public void close() {
        a.close();
        b.close();
    }

    /** One worker process and a reader thread feeding its output lines to a queue. */
    private static final class Worker implements AutoCloseable {
        private final Process process;
        private final Writer stdin;
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final String host;

        Worker(String host, String ip) throws IOException {
            this.host = host;
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.addAll(List.of("--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
                    "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
                    "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
                    "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"));
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), CaptureWorker.class.getName()));
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
            pb.environment().put("SOFTVERBS_DEVICES", host + "@" + ip);
            process = pb.start();
            stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        lines.add(line);
                    }
                } catch (IOException e) {
                    lines.add("@@READER " + e);
                }
            }, "worker-" + host);
            reader.setDaemon(true);
            reader.start();
        }

        void awaitReady() throws IOException {
            long deadline = System.nanoTime() + RUN_LIMIT.toNanos();
            while (!next(deadline).equals("@@READY")) {
                // start-up noise (logging) before the worker is ready
            }
        }

        void send(List<String> args) throws IOException {
            stdin.write(String.join("\t", args) + "\n");
            stdin.flush();
        }

        String next(long deadline) throws IOException {
            try {
                String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (line == null) {
                    throw new IOException(host + " produced no output within " + RUN_LIMIT.toSeconds() + " s");
                }
                return line;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }

        Side collect(StringBuilder sb, long deadline) throws IOException {
            while (true) {
                String line = next(deadline);
                if (line.startsWith(CaptureWorker.EXIT_MARK)) {
                    return new Side(exitOf(line), sb.toString());
                }
                sb.append(line).append('\n');
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
}
