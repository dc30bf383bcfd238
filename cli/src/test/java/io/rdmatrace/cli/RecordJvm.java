package io.rdmatrace.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * `rdmatrace record ...` in a JVM of its own, so each side gets its own environment (its softverbs
 * device), with stdout/stderr in files; every wait is bounded and an overrun is killed by pid.
 */
final class RecordJvm implements AutoCloseable {
    static final Duration LIMIT = Duration.ofSeconds(60);
    private final Process process;
    private final Path stdout;
    private final Path stderr;

    private RecordJvm(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /** Two distinct loopback addresses 127.x.y.1 / 127.x.y.2 no other test uses at the same time. */
    static RecordJvm start(String label, Map<String, String> env, Path work, List<String> args) throws IOException {
        return start(label, env, work, args, List.of());
    }

    /** As {@link #start(String, Map, Path, List)}, the JVM run by {@code prefix} (e.g. env --default-signal=INT). */
    static RecordJvm start(String label, Map<String, String> env, Path work, List<String> args, List<String> prefix)
            throws IOException {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.addAll(command(args));
        return launch(label, env, work, cmd);
    }

    /** `rdmatrace VERB ARGS` in a JVM of its own, its output in {@code work/VERB.out} and {@code .err}. */
    static RecordJvm verb(String verb, Map<String, String> env, Path work, List<String> args) throws IOException {
        return launch(verb, env, work, command(verb, args));
    }

    private static RecordJvm launch(String label, Map<String, String> env, Path work, List<String> cmd) throws IOException {
        Path out = work.resolve(label + ".out");
        Path err = work.resolve(label + ".err");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(work.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile());
        pb.environment().putAll(env);
        return new RecordJvm(pb.start(), out, err);
    }

    /** The command line of a JVM running {@code rdmatrace record ARGS} from this test's class path. */
    static List<String> command(List<String> args) {
        return command("record", args);
    }

    private static List<String> command(String verb, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of("--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
                "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-Dchronicle.analytics.disable=true",
                "-Dchronicle.announcer.disable=true", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), verb));
        cmd.addAll(args);
        return cmd;
    }

    Process process() {
        return process;
    }

    /** Exit code, or fails the wait (killing the JVM) past {@link #LIMIT}. */
    int await() throws InterruptedException {
        if (!process.waitFor(LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            process.waitFor(5, TimeUnit.SECONDS);
            throw new AssertionError("record JVM overran " + LIMIT + ":\n" + describe());
        }
        return process.exitValue();
    }

    String stdout() {
        return read(stdout);
    }

    String stderr() {
        return read(stderr);
    }

    String describe() {
        return "--- stdout ---\n" + stdout() + "--- stderr ---\n" + stderr();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }

    static int freeTcpPort() {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(0));
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** True once some process listens on TCP {@code port} (/proc/net/tcp{,6}). */
    static boolean listening(int port) {
        String hex = String.format(Locale.ROOT, ":%04X ", port);
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            try {
                for (String line : Files.readAllLines(Path.of(table))) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length > 3 && (f[1] + " ").endsWith(hex) && f[3].equals("0A")) {
                        return true;
                    }
                }
            } catch (IOException e) {
                // no IPv6 table: the other decides
            }
        }
        return false;
    }

    /** Waits (bounded) until {@code port} is listened on or the JVM ended. */
    void awaitListening(int port) throws InterruptedException {
        long end = System.nanoTime() + LIMIT.toNanos();
        while (System.nanoTime() < end && process.isAlive() && !listening(port)) {
            Thread.sleep(20);
        }
        if (!listening(port)) {
            throw new AssertionError("nothing listens on TCP " + port + ":\n" + describe());
        }
    }

    private static String read(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p) : "";
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}
