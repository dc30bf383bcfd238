package io.rdmatrace.softverbs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A process started by a test, with stdout and stderr going to files (so a chatty child never
 * blocks on a full pipe), waited for with a deadline and killed by its own pid when it overruns.
 */
final class ChildProcess implements AutoCloseable {
    private final String label;
    private final Process process;
    private final Path stdout;
    private final Path stderr;

    private ChildProcess(String label, Process process, Path stdout, Path stderr) {
        this.label = label;
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    static ChildProcess start(String label, List<String> command, Map<String, String> env, Path workDir) {
        try {
            Path out = workDir.resolve(label + ".out");
            Path err = workDir.resolve(label + ".err");
            ProcessBuilder pb = new ProcessBuilder(command)
                    .directory(workDir.toFile())
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            // a null value removes the variable the test JVM would otherwise pass down
            env.forEach((k, v) -> {
                if (v == null) {
                    pb.environment().remove(k);
                } else {
                    pb.environment().put(k, v);
                }
            });
            return new ChildProcess(label, pb.start(), out, err);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + label + ": " + command, e);
        }
    }

    /** The outcome of a finished (or killed) process. */
    record Result(String label, int exitCode, boolean timedOut, String stdout, String stderr) {
        /** Everything a failing assertion should show. */
        String describe() {
            return label + (timedOut ? " TIMED OUT (killed)" : " exit " + exitCode)
                    + "\n--- stdout ---\n" + stdout + "--- stderr ---\n" + stderr;
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    String stdoutSoFar() {
        return read(stdout);
    }

    /** Waits up to the deadline; on overrun kills this process (by its pid) and reports a timeout. */
    Result await(Duration deadline) {
        boolean finished;
        try {
            finished = process.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            finished = false;
        }
        if (!finished) {
            kill();
        }
        return new Result(label, finished ? process.exitValue() : -1, !finished, read(stdout), read(stderr));
    }

    /** Asks the process to stop (SIGTERM) and waits a bounded time before SIGKILL. */
    Result terminate(Duration grace) {
        if (process.isAlive()) {
            process.destroy();
        }
        return await(grace);
    }

    private void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
        }
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? new String(Files.readAllBytes(file), StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }
}
