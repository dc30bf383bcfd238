package io.rdmatrace.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One whole command run as a child process: its wall time, its peak resident memory and its exit
 * code. The peak is the largest VmHWM (the kernel's high-water mark of resident memory) of the
 * process and its descendants, polled while it runs; the launcher script execs java, so the
 * JVM is the process itself or its child. Output goes to a file (the caller's), never to this
 * console.
 *
 * @param wallNanos from start to exit
 * @param peakKb    the largest VmHWM seen, in KiB (0 when /proc could not be read)
 * @param exitCode  the command's exit status
 */
record ProcessRun(long wallNanos, long peakKb, int exitCode) {
    private static final long POLL_MILLIS = 20;

    /** Runs {@code command}, appending its output to {@code log}; fails if it runs past {@code timeoutSeconds}. */
    static ProcessRun of(List<String> command, Path log, long timeoutSeconds) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        long start = System.nanoTime();
        Process process = builder.start();
        long deadline = start + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        long peak = 0;
        while (!process.waitFor(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
            peak = Math.max(peak, peakKb(process.toHandle()));
            if (System.nanoTime() > deadline) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + " ran longer than " + timeoutSeconds + " s; see " + log);
            }
        }
        return new ProcessRun(System.nanoTime() - start, peak, process.exitValue());
    }

    private static long peakKb(ProcessHandle process) {
        long peak = vmHwmKb(process.pid());
        for (ProcessHandle child : process.descendants().toList()) {
            peak = Math.max(peak, vmHwmKb(child.pid()));
        }
        return peak;
    }

    private static long vmHwmKb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            // the process ended between the listing and the read
        }
        return 0;
    }

    /** Medians and the median of the pairwise ratios of two series measured in turn (A B A B ...). */
    record Pair(List<Double> a, List<Double> b) {
        double medianA() {
            return median(a);
        }

        double medianB() {
            return median(b);
        }

        /** The median of a[i] / b[i]: each pair ran at about the same machine load. */
        double ratio() {
            List<Double> ratios = new ArrayList<>();
            for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
                ratios.add(a.get(i) / b.get(i));
            }
            return median(ratios);
        }
    }

    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        return n == 0 ? Double.NaN : n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
