package io.rdmatrace.cli;

import io.rdmatrace.trace.store.TraceLayout;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * `rdmatrace demo`: two hosts on softverbs in two processes (hostA@127.0.0.1 listens, hostB@127.0.0.2
 * connects), a clean capture into OUT/, then `rdmatrace analyze OUT` when the analyzer is there.
 */
@Command(name = "demo",
        description = "Run a two-host capture on the bundled softverbs (two processes, two devices: hostA@127.0.0.1 "
                + "listens, hostB@127.0.0.2 connects) into OUT/, then analyze it. Exit 0 when the capture is clean "
                + "and the analysis finds nothing at or above its default --fail-on.",
        footer = {"", "Example usage:",
                "  rdmatrace demo",
                "  rdmatrace demo --out /tmp/t --host-b-args='--advertise-psn -1 --retry-cnt 2'   (a PSN fault)"})
final class DemoCommand implements Callable<Integer> {
    static final String HOST_A = "hostA";
    static final String HOST_B = "hostB";
    private static final Pattern LISTENING = Pattern.compile("listening on ([0-9.]+):(\\d+)");
    /** Flags the child JVMs need (the jar manifest covers `java -jar`, but children run with -cp). */
    private static final List<String> JVM_FLAGS = List.of("--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
            "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--enable-native-access=ALL-UNNAMED", "-Dchronicle.analytics.disable=true", "-Dchronicle.announcer.disable=true",
            "-XX:TieredStopAtLevel=1");
    /** JDK 24+ warns about sun.misc.Unsafe (Chronicle, jffi) unless told; older JDKs reject the flag. */
    private static final int UNSAFE_FLAG_SINCE = 24;

    @Spec
    CommandSpec spec;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "trace", description = "Capture root (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--replace", description = "Delete earlier " + HOST_A + "/" + HOST_B + " traces in OUT first.")
    boolean replace;

    @Option(names = "--host-a-args", paramLabel = "ARGS", description = "Extra `capture` options for hostA (the listener).")
    String hostAArgs = "";

    @Option(names = "--host-b-args", paramLabel = "ARGS", description = "Extra `capture` options for hostB (the connector).")
    String hostBArgs = "";

    @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "90000", description = "Give up on the captures after this long.")
    long timeoutMs;

    @Option(names = "--no-analyze", description = "Only capture.")
    boolean noAnalyze;

    @Option(names = "--addresses", paramLabel = "IP_A,IP_B", defaultValue = "127.0.0.1,127.0.0.2", split = ",",
            description = "Loopback addresses of hostA's and hostB's softverbs devices (default: ${DEFAULT-VALUE}); "
                    + "a device owns UDP 4791 on its address, so pick others when something else runs softverbs there.")
    List<String> addresses;

    @Override
    public Integer call() throws Exception {
        PrintWriter o = spec.commandLine().getOut();
        if (addresses.size() != 2) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--addresses takes two addresses, IP_A,IP_B");
        }
        prepareOut();
        Process a = start(HOST_A, addresses.get(0), List.of("--listen", "127.0.0.1:0"), hostAArgs);
        try {
            BufferedReader aOut = new BufferedReader(new InputStreamReader(a.getInputStream(), StandardCharsets.UTF_8));
            String port = awaitPort(aOut, o);
            Process b = start(HOST_B, addresses.get(1), List.of("--connect", "127.0.0.1:" + port), hostBArgs);
            try {
                CompletableFuture<Void> aPump = pump(aOut, HOST_A, o);
                CompletableFuture<Void> bPump = pump(new BufferedReader(new InputStreamReader(b.getInputStream(),
                        StandardCharsets.UTF_8)), HOST_B, o);
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
                int aExit = await(a, deadline);
                int bExit = await(b, deadline);
                aPump.get(5, TimeUnit.SECONDS);
                bPump.get(5, TimeUnit.SECONDS);
                o.printf("rdmatrace demo: %s exit %d, %s exit %d; traces in %s%n", HOST_A, aExit, HOST_B, bExit, out);
                o.flush();
                if (aExit == ExitCode.USAGE || bExit == ExitCode.USAGE || aExit == ExitCode.INTERNAL || bExit == ExitCode.INTERNAL) {
                    throw new EnvironmentException("a capture could not run (see its output above)");
                }
                int captureExit = Math.max(aExit, bExit);
                return noAnalyze ? captureExit : analyze(o, captureExit);
            } finally {
                b.destroyForcibly();
            }
        } finally {
            a.destroyForcibly();
        }
    }

    /** Runs `analyze OUT` when that verb is registered; its exit code is the demo's. */
    private int analyze(PrintWriter o, int captureExit) {
        CommandLine parent = spec.parent() != null ? spec.parent().commandLine() : null;
        Map<String, CommandLine> verbs = parent != null ? parent.getSubcommands() : Map.of();
        CommandLine analyze = verbs.get("analyze");
        if (analyze == null) {
            o.println("rdmatrace demo: no analyze verb in this build; run it on " + out + " when it exists");
            return captureExit;
        }
        o.println("rdmatrace demo: rdmatrace analyze " + out);
        o.flush();
        return analyze.execute(out.toString());
    }

    private void prepareOut() throws IOException {
        for (String host : List.of(HOST_A, HOST_B)) {
            Path dir = out.resolve(host);
            if (!Files.exists(dir)) {
                continue;
            }
            if (!replace) {
                throw new EnvironmentException(dir + " already exists; pass --replace to overwrite the demo's traces, or --out DIR");
            }
            deleteTrace(dir);
        }
    }

    /** Deletes a host trace folder, refusing anything that is not a queue's files (never a user's data). */
    private static void deleteTrace(Path dir) throws IOException {
        List<Path> files;
        try (var s = Files.list(dir)) {
            files = s.toList();
        }
        for (Path f : files) {
            String n = f.getFileName().toString();
            if (!Files.isRegularFile(f) || !TraceLayout.isTraceFile(n)) {
                throw new EnvironmentException(dir + " holds " + n + ", which is not part of a trace; not deleting it");
            }
        }
        for (Path f : files) {
            Files.delete(f);
        }
        Files.delete(dir);
    }

    private Process start(String host, String ip, List<String> role, String extra) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(JVM_FLAGS);
        if (Runtime.version().feature() >= UNSAFE_FLAG_SINCE) {
            cmd.add("--sun-misc-unsafe-memory-access=allow");
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(Main.class.getName());
        cmd.add("capture");
        cmd.add("--soft");
        cmd.add("--host-id");
        cmd.add(host);
        cmd.add("--out");
        cmd.add(out.toString());
        cmd.addAll(role);
        if (!extra.isBlank()) {
            cmd.addAll(Arrays.asList(extra.trim().split("\\s+")));
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("SOFTVERBS_DEVICES", host + "@" + ip);
        return pb.start();
    }

    private String awaitPort(BufferedReader aOut, PrintWriter o) throws IOException {
        CompletableFuture<String> port = CompletableFuture.supplyAsync(() -> {
            try {
                for (String line; (line = aOut.readLine()) != null; ) {
                    o.println("[" + HOST_A + "] " + line);
                    o.flush();
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) {
                        return m.group(2);
                    }
                }
                return null;
            } catch (IOException e) {
                return null;
            }
        });
        try {
            String p = port.get(timeoutMs, TimeUnit.MILLISECONDS);
            if (p == null) {
                throw new EnvironmentException(HOST_A + " ended before it listened (see its output above)");
            }
            return p;
        } catch (java.util.concurrent.TimeoutException e) {
            throw new EnvironmentException(HOST_A + " did not start listening within " + timeoutMs + " ms");
        } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
            throw new EnvironmentException(HOST_A + " failed to start: " + e);
        }
    }

    private static CompletableFuture<Void> pump(BufferedReader in, String host, PrintWriter o) {
        return CompletableFuture.runAsync(() -> {
            try {
                for (String line; (line = in.readLine()) != null; ) {
                    synchronized (o) {
                        o.println("[" + host + "] " + line);
                        o.flush();
                    }
                }
            } catch (IOException e) {
                // the child is gone; its exit code tells the rest
            }
        });
    }

    private int await(Process p, long deadline) throws InterruptedException {
        long left = deadline - System.nanoTime();
        if (left <= 0 || !p.waitFor(left, TimeUnit.NANOSECONDS)) {
            p.destroyForcibly();
            throw new UserDataException("a capture did not finish within " + timeoutMs + " ms (killed it)");
        }
        return p.exitValue();
    }
}
