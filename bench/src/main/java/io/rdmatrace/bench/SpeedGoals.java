package io.rdmatrace.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.trace.store.TraceSet;
import io.rdmatrace.trace.synth.SyntheticTrace;

/**
 * The speed goals of issue 13, each as a ratio against a baseline measured in the same run,
 * alternating, so a shared machine's load hits both sides alike:
 * <pre>
 * java -cp bench/target/benchmarks.jar io.rdmatrace.bench.SpeedGoals [--rows 1,2,3,5,6,7] [--runs N] [--work DIR]
 * </pre>
 * <ol>
 *   <li>{@code rdmatrace analyze} of a two-host bring-up (~130 events) / {@code rdmatrace --version}</li>
 *   <li>analyze of a 1,000-QP bring-up (~20k events) / analyze of the two-host bring-up</li>
 *   <li>analyze of 10M events / DuckDB loading the same tables from Parquet (in this JVM)</li>
 *   <li>analyze of 30M events / of 10M: time, and peak memory per event (not in the default rows:
 *       ~2 GB of trace and several GB of memory; ask with {@code --rows 4})</li>
 *   <li>recorder per event p50 ({@code CaptureRecorderBench.modifyQp}) / a raw Chronicle append of the
 *       same message ({@code TraceAppendBench.rawChronicleBaseline}), JMH, one fork each per round, up to 3 rounds</li>
 *   <li>recorded / bare 1,000-QP bring-up ({@link CaptureBringUpPair}, alternating in one JVM)</li>
 *   <li>JNI {@code query_qp} into a reused answer buffer over the same call looped in C
 *       ({@code JniOverheadBench}, p50 difference; also the query answered as an immutable {@code QpQuery})</li>
 * </ol>
 * Rows 1–4 run the {@code rdmatrace} launcher of the checkout this jar was built in (its JVM flags and
 * caches are part of what a user waits for). Traces are generated once under the work folder
 * (default {@code $TMPDIR/rdmatrace-speed}) and reused.
 */
public final class SpeedGoals {
    private static final long ANALYZE_TIMEOUT_SECONDS = 1800;

    private final Path launcher;
    private final Path work;
    private final int runs;
    private final List<String> table = new ArrayList<>();

    private SpeedGoals(Path launcher, Path work, int runs) {
        this.launcher = launcher;
        this.work = work;
        this.runs = runs;
    }

    private static int number(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a number: '" + text + "'");
        }
    }

    private static String need(String option, String value) {
        if (value == null) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }

    public static void main(String[] args) throws Exception {
        Set<Integer> rows = new LinkedHashSet<>(List.of(1, 2, 3, 5, 6, 7));
        int runs = 5;
        Path work = Path.of(System.getProperty("java.io.tmpdir"), "rdmatrace-speed");
        Path launcher = defaultLauncher();
        try {
            for (int i = 0; i < args.length; i++) {
                String value = i + 1 < args.length ? args[i + 1] : null;
                switch (args[i]) {
                    case "--rows" -> {
                        rows.clear();
                        for (String row : need(args[i], value).split(",")) {
                            int r = number(row.strip());
                            if (r < 1 || r > 7) {
                                throw new IllegalArgumentException("no row " + r + " (rows are 1-7)");
                            }
                            rows.add(r);
                        }
                    }
                    case "--runs" -> {
                        runs = number(need(args[i], value));
                        if (runs < 1) {
                            throw new IllegalArgumentException("--runs must be at least 1");
                        }
                    }
                    case "--work" -> work = Path.of(need(args[i], value));
                    case "--launcher" -> launcher = Path.of(need(args[i], value));
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
                i++;
            }
        } catch (IllegalArgumentException e) {
            System.err.println("SpeedGoals: " + e.getMessage());
            System.err.println("usage: SpeedGoals [--rows 1,2,3,4,5,6,7] [--runs N] [--work DIR] [--launcher PATH]");
            System.exit(2);
        }
        if (rows.stream().anyMatch(r -> r <= 4) && (launcher == null || !Files.isExecutable(launcher))) {
            System.err.println("SpeedGoals: no rdmatrace launcher found next to this jar; give --launcher PATH");
            System.exit(2);
        }
        Files.createDirectories(work);
        SpeedGoals goals = new SpeedGoals(launcher, work, runs);
        System.out.printf(Locale.ROOT, "SpeedGoals: %d processors, load average at start %s; %d alternating runs per ratio%n",
                Runtime.getRuntime().availableProcessors(), loadAverage(), runs);
        for (int row : rows) {
            switch (row) {
                case 1 -> goals.bringUpOverVersion();
                case 2 -> goals.manyQpsOverBringUp();
                case 3 -> goals.largeOverParquet();
                case 4 -> goals.thirtyOverTen();
                case 5 -> goals.add(JmhGoals.recorderOverChronicle(Math.max(1, Math.min(runs, 3)))); // ~25 s a round
                case 6 -> goals.add(JmhGoals.recordedOverBare(runs));
                case 7 -> JmhGoals.jniOverC().forEach(goals::add);
                default -> throw new IllegalStateException("row " + row + " passed the option check");
            }
        }
        System.out.printf(Locale.ROOT, "%nload average at end %s%n", loadAverage());
        System.out.println("| measure | measured | baseline | ratio | goal |");
        System.out.println("|---|---|---|---|---|");
        goals.table.forEach(System.out::println);
    }

    void add(String row) {
        table.add(row);
        System.out.println(row);
    }

    private void bringUpOverVersion() throws Exception {
        Path two = trace("bringup-2host", 1, 30);
        ProcessRun.Pair p = alternate(analyze(two), List.of(launcher.toString(), "--version"), "row1");
        add(row("analyze 2-host bring-up / `rdmatrace --version`", seconds(p.medianA()), seconds(p.medianB()), p.ratio(),
                "≤ 3×"));
    }

    private void manyQpsOverBringUp() throws Exception {
        Path two = trace("bringup-2host", 1, 30);
        Path many = trace("bringup-1000qp", 1000, 0);
        ProcessRun.Pair p = alternate(analyze(many), analyze(two), "row2");
        add(row("analyze 1,000-QP bring-up (20k events) / analyze 2-host bring-up", seconds(p.medianA()),
                seconds(p.medianB()), p.ratio(), "≤ 1.5×"));
    }

    private void largeOverParquet() throws Exception {
        Path large = trace("events-10m", 1000, 5_000_000);
        Path parquet = ParquetBaseline.export(large, work.resolve("events-10m-parquet"));
        int n = Math.max(1, Math.min(runs, 3)); // a run is tens of seconds
        List<Double> a = new ArrayList<>();
        List<Double> b = new ArrayList<>();
        Path log = work.resolve("row3.log");
        ProcessRun.of(analyze(large), log, ANALYZE_TIMEOUT_SECONDS); // warm-up (caches, page cache)
        ParquetBaseline.load(parquet);
        for (int i = 0; i < n; i++) {
            a.add(checked(ProcessRun.of(analyze(large), log, ANALYZE_TIMEOUT_SECONDS), log).wallNanos() / 1e9);
            b.add(ParquetBaseline.load(parquet) / 1e9);
        }
        ProcessRun.Pair p = new ProcessRun.Pair(a, b);
        add(row("analyze 10M events / DuckDB loading the same tables from Parquet", seconds(p.medianA()),
                seconds(p.medianB()), p.ratio(), "≤ 1.5×"));
    }

    private void thirtyOverTen() throws Exception {
        Path ten = trace("events-10m", 1000, 5_000_000);
        Path thirty = trace("events-30m", 1000, 15_000_000);
        Path log10 = work.resolve("row4-10m.log");
        Path log30 = work.resolve("row4-30m.log");
        Files.deleteIfExists(log10);
        Files.deleteIfExists(log30);
        // warm-up on a small trace: the first analyze of a new jar also writes its class-data archive
        Path warmUp = work.resolve("row4-warmup.log");
        checked(ProcessRun.of(analyze(trace("bringup-2host", 1, 30)), warmUp, ANALYZE_TIMEOUT_SECONDS), warmUp);
        // once each: a 30M analysis holds gigabytes; run it while nothing else big runs
        ProcessRun small = checked(ProcessRun.of(analyze(ten), log10, ANALYZE_TIMEOUT_SECONDS), log10);
        ProcessRun big = checked(ProcessRun.of(analyze(thirty), log30, ANALYZE_TIMEOUT_SECONDS), log30);
        long events10 = eventsLoaded(log10);
        long events30 = eventsLoaded(log30);
        add(row("analyze 30M events / 10M: time", seconds(big.wallNanos() / 1e9), seconds(small.wallNanos() / 1e9),
                (double) big.wallNanos() / small.wallNanos(), "≤ 3.2×"));
        add(String.format(Locale.ROOT, "| analyze 30M events: peak memory per event | %.0f B/event (%.2f GiB) | "
                        + "10M: %.0f B/event (%.2f GiB) | %.2f× | ≤ 100 B/event |",
                big.peakKb() * 1024.0 / events30, big.peakKb() / 1048576.0, small.peakKb() * 1024.0 / events10,
                small.peakKb() / 1048576.0, (double) big.peakKb() / small.peakKb()));
    }

    private ProcessRun.Pair alternate(List<String> a, List<String> b, String name) throws Exception {
        Path log = work.resolve(name + ".log");
        Files.deleteIfExists(log);
        checked(ProcessRun.of(a, log, ANALYZE_TIMEOUT_SECONDS), log); // warm-up: caches, CDS archive, page cache
        checked(ProcessRun.of(b, log, ANALYZE_TIMEOUT_SECONDS), log);
        List<Double> as = new ArrayList<>();
        List<Double> bs = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            as.add(checked(ProcessRun.of(a, log, ANALYZE_TIMEOUT_SECONDS), log).wallNanos() / 1e9);
            bs.add(checked(ProcessRun.of(b, log, ANALYZE_TIMEOUT_SECONDS), log).wallNanos() / 1e9);
        }
        return new ProcessRun.Pair(as, bs);
    }

    /** analyze exits 1 when it has findings, which a synthetic trace has (undersized CQs, leaks): 0 and 1 are runs. */
    private static ProcessRun checked(ProcessRun run, Path log) throws IOException {
        if (run.exitCode() != 0 && run.exitCode() != 1) {
            throw new IOException("command exited " + run.exitCode() + "; see " + log);
        }
        return run;
    }

    private List<String> analyze(Path trace) {
        return List.of(launcher.toString(), "analyze", trace.toString());
    }

    private Path trace(String name, int qpPairs, int dataEventsPerHost) throws IOException, TraceException {
        Path dir = work.resolve(name);
        if (Files.isDirectory(dir)) {
            try {
                return TraceSet.discover(dir).root();
            } catch (TraceException e) {
                // empty or half-written: write it again
                ParquetBaseline.delete(dir);
            }
        }
        System.out.printf(Locale.ROOT, "generating %s (%d QP pairs, %,d data events per host)...%n", dir, qpPairs,
                dataEventsPerHost);
        return SyntheticTrace.write(SyntheticTrace.Spec.of(dir, qpPairs, dataEventsPerHost)).root();
    }

    /** The event count analyze's text report states ("N events loaded in ..."). */
    private static long eventsLoaded(Path log) throws IOException {
        Matcher m = Pattern.compile("(\\d+) events loaded in").matcher(Files.readString(log));
        if (!m.find()) {
            throw new IOException(log + ": analyze did not say how many events it loaded");
        }
        return Long.parseLong(m.group(1));
    }

    static String row(String measure, String a, String b, double ratio, String goal) {
        return String.format(Locale.ROOT, "| %s | %s | %s | %.2f× | %s |", measure, a, b, ratio, goal);
    }

    static String seconds(double s) {
        return String.format(Locale.ROOT, "%.2f s", s);
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** bench/target/benchmarks.jar → the checkout's rdmatrace script, if this runs from a built checkout. */
    private static Path defaultLauncher() {
        try {
            Path jar = Path.of(SpeedGoals.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path root = jar.getParent() == null ? null : jar.getParent().getParent();
            root = root == null ? null : root.getParent();
            return root == null ? null : root.resolve("rdmatrace");
        } catch (java.net.URISyntaxException | RuntimeException e) {
            return null;
        }
    }
}
