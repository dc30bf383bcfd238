package io.rdmatrace.capture.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One replaying host in a JVM of its own: same Java, same class path, the JVM flags Chronicle
 * needs. Its output is copied to a log file; a line starting with a given prefix can be awaited
 * (the listening host's port). Only this class's own process is ever killed, by its handle.
 */
final class ChildJvm implements AutoCloseable {
    /** Flags the trace writer needs on JDK 17+ (from the build's argLine); added when this JVM lacks them. */
    private static final List<String> REQUIRED_FLAGS = List.of(
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
            "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--enable-native-access=ALL-UNNAMED", "-Dchronicle.analytics.disable=true",
            "-Dchronicle.announcer.disable=true");
    /** Small and quick to start: a replaying host needs little heap and no peak compilation. */
    private static final List<String> LIGHT = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    private final Process process;
    private final Path log;
    private final CompletableFuture<String> awaited = new CompletableFuture<>();
    private final Thread pump;

    private ChildJvm(Process process, Path log, String awaitPrefix) {
        this.process = process;
        this.log = log;
        this.pump = new Thread(() -> copy(awaitPrefix), "replay-child-output");
        this.pump.setDaemon(true);
        this.pump.start();
    }

    /** Starts {@code mainClass} with {@code args}; output goes to {@code log}. */
    static ChildJvm start(Class<?> mainClass, List<String> args, Path log, String awaitPrefix) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(flags());
        cmd.addAll(LIGHT);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(mainClass.getName());
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        return new ChildJvm(p, log, awaitPrefix);
    }

    /** This JVM's module and -D flags (they hold e.g. the native library settings), plus any required one missing. */
    private static List<String> flags() {
        List<String> flags = new ArrayList<>();
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-opens") || arg.startsWith("--add-exports") || arg.startsWith("--enable-native-access")
                    || arg.startsWith("--sun-misc-unsafe-memory-access") || (arg.startsWith("-D") && !arg.startsWith("-Dsurefire"))) {
                flags.add(arg);
            }
        }
        for (String required : REQUIRED_FLAGS) {
            if (!flags.contains(required)) {
                flags.add(required);
            }
        }
        return flags;
    }

    private void copy(String awaitPrefix) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
             Writer out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                out.write(line);
                out.write(System.lineSeparator());
                out.flush();
                if (awaitPrefix != null && line.startsWith(awaitPrefix)) {
                    awaited.complete(line.substring(awaitPrefix.length()).trim());
                }
            }
        } catch (IOException e) {
            awaited.completeExceptionally(e);
        }
        awaited.complete(null); // the process ended without saying it
    }

    /** The rest of the awaited line, or null if the process ended (or the wait ran out) first. */
    String awaitLine(long timeoutMs) {
        try {
            return awaited.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            return null;
        }
    }

    /** Waits for the exit; kills the process when it outlives the wait. Returns the exit code, or -1 if killed. */
    int waitFor(long timeoutMs) throws InterruptedException {
        if (!process.waitFor(timeoutMs, TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            process.waitFor(5, TimeUnit.SECONDS);
            pump.join(2000);
            return -1;
        }
        pump.join(2000);
        return process.exitValue();
    }

    /** The file its output goes to. */
    Path log() {
        return log;
    }

    /** The last lines of its output, for an error message. */
    String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join(System.lineSeparator(), all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
