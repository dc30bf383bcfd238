package io.rdmatrace.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.trace.store.TraceSet;
import io.rdmatrace.trace.synth.RecordedProgramTrace;
import io.rdmatrace.trace.synth.SyntheticTrace;

/**
 * The speed goals of issues 33 (the default) and 13, each as a ratio against a baseline measured in the
 * same run, alternating, so a shared machine's load hits both sides alike:
 * <pre>
 * java -cp bench/target/benchmarks.jar io.rdmatrace.bench.SpeedGoals [--goals 33|13] [--rows 1,2,...] [--runs N] [--work DIR]
 * </pre>
 * Issue 33's table ({@code --goals 33}):
 * <ol>
 *   <li>{@code rdmatrace analyze} of a two-host bring-up / {@code rdmatrace --version} (≤ 2.5×)</li>
 *   <li>analyze of 10M events / DuckDB loading the same tables from Parquet (≤ 1.3×)</li>
 *   <li>recorded / bare 1,000-QP capture bring-up (≤ 1.10×)</li>
 *   <li>analyze of one recorded job of 64 ibv_rc_pingpong pairs (128 processes, made by the recorded-program
 *       generator: {@code RecordedProgramTrace}) / analyze of one such pair (≤ 2.5×)</li>
 *   <li>analyze of a synthetic recorded job of 1,000 processes ({@link JobScaleRun}'s) with its peak
 *       memory, against the goal of 15 s and 2 GB; its ratio is over the one pair of row 4</li>
 * </ol>
 * Issue 13's table ({@code --goals 13}):
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
 * The analyze rows run the {@code rdmatrace} launcher of the checkout this jar was built in (its JVM flags
 * and caches are part of what a user waits for). Traces are generated once under the work folder
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

    /** Rows per table when --rows is not given (issue 13's row 4 runs only when asked). */
    private static final List<Integer> DEFAULT_ROWS_13 = List.of(1, 2, 3, 5, 6, 7);
    private static final List<Integer> DEFAULT_ROWS_33 = List.of(1, 2, 3, 4, 5);

    public static void main(String[] args) throws Exception {
        Set<Integer> rows = new LinkedHashSet<>();
        int table = 33;
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
                            rows.add(number(row.strip()));
                        }
                    }
                    case "--runs" -> {
                        runs = number(need(args[i], value));
                        if (runs < 1) {
                            throw new IllegalArgumentException("--runs must be at least 1");
                        }
                    }
                    case "--goals" -> {
                        table = number(need(args[i], value));
                        if (table != 13 && table != 33) {
                            throw new IllegalArgumentException("--goals is 33 (issue 33's table) or 13 (issue 13's)");
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
            System.err.println("usage: SpeedGoals [--goals 33|13] [--rows 1,2,...] [--runs N] [--work DIR] [--launcher PATH]");
            System.exit(2);
        }
        int last = table == 13 ? 7 : 5;
        if (rows.isEmpty()) {
            rows.addAll(table == 13 ? DEFAULT_ROWS_13 : DEFAULT_ROWS_33);
        }
        for (int r : rows) {
            if (r < 1 || r > last) {
                System.err.println("SpeedGoals: no row " + r + " in issue " + table + "'s table (rows are 1-" + last + ")");
                System.exit(2);
            }
        }
        boolean launches = table == 13 ? rows.stream().anyMatch(r -> r <= 4) : rows.stream().anyMatch(r -> r != 3);
        if (launches && (launcher == null || !Files.isExecutable(launcher))) {
            System.err.println("SpeedGoals: no rdmatrace launcher found next to this jar; give --launcher PATH");
            System.exit(2);
        }
        Files.createDirectories(work);
        SpeedGoals goals = new SpeedGoals(launcher, work, runs);
        System.out.printf(Locale.ROOT, "SpeedGoals: issue %d's goals; %d processors, load average at start %s; "
                + "%d alternating runs per ratio%n", table, Runtime.getRuntime().availableProcessors(), loadAverage(), runs);
        for (int row : rows) {
            if (table == 13) {
                goals.issue13(row);
            } else {
                goals.issue33(row);
            }
        }
        System.out.printf(Locale.ROOT, "%nload average at end %s%n", loadAverage());
        System.out.println("| measure | measured | baseline | ratio | goal |");
        System.out.println("|---|---|---|---|---|");
        goals.table.forEach(System.out::println);
    }

    private void issue13(int row) throws Exception {
        switch (row) {
            case 1 -> bringUpOverVersion("≤ 3×");
            case 2 -> manyQpsOverBringUp();
            case 3 -> largeOverParquet("≤ 1.5×");
            case 4 -> thirtyOverTen();
            case 5 -> add(JmhGoals.recorderOverChronicle(Math.max(1, Math.min(runs, 3)))); // ~25 s a round
            case 6 -> add(JmhGoals.recordedOverBare(runs));
            case 7 -> JmhGoals.jniOverC().forEach(this::add);
            default -> throw new IllegalStateException("row " + row + " passed the option check");
        }
    }

    private void issue33(int row) throws Exception {
        switch (row) {
            case 1 -> bringUpOverVersion("≤ 2.5×");
            case 2 -> largeOverParquet("≤ 1.3×");
            case 3 -> add(JmhGoals.recordedOverBare(runs));
            case 4 -> jobOverPair();
            case 5 -> largeJob();
            default -> throw new IllegalStateException("row " + row + " passed the option check");
        }
    }

    void add(String row) {
        table.add(row);
        System.out.println(row);
    }

    private void bringUpOverVersion(String goal) throws Exception {
        Path two = trace("bringup-2host", 1, 30);
        ProcessRun.Pair p = alternate(analyze(two), List.of(launcher.toString(), "--version"), "row1");
        add(row("analyze 2-host bring-up / `rdmatrace --version`", seconds(p.medianA()), seconds(p.medianB()), p.ratio(),
                goal));
    }

    private void manyQpsOverBringUp() throws Exception {
        Path two = trace("bringup-2host", 1, 30);
        Path many = trace("bringup-1000qp", 1000, 0);
        ProcessRun.Pair p = alternate(analyze(many), analyze(two), "row2");
        add(row("analyze 1,000-QP bring-up (20k events) / analyze 2-host bring-up", seconds(p.medianA()),
                seconds(p.medianB()), p.ratio(), "≤ 1.5×"));
    }

    private void largeOverParquet(String goal) throws Exception {
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
                seconds(p.medianB()), p.ratio(), goal));
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

    /**
     * Issue 33's row 4: one recorded job of 64 ibv_rc_pingpong pairs, the servers on one machine and the
     * clients on another ({@code a.PID}, {@code b.PID}: 128 processes, as one {@code record} of them would
     * name them), against one such pair; {@link #PINGPONG_ROUNDS} round trips each, ibv_rc_pingpong's default.
     */
    private void jobOverPair() throws Exception {
        Path job = recordedJob("job-64-pairs", 64);
        Path pair = recordedJob("job-1-pair", 1);
        ProcessRun.Pair p = alternate(analyze(job), analyze(pair), "row33-4");
        add(row("analyze a recorded job of 64 ibv_rc_pingpong pairs / of 1 pair", seconds(p.medianA()),
                seconds(p.medianB()), p.ratio(), "≤ 2.5×"));
    }

    /**
     * Issue 33's row 5: {@link JobScaleRun}'s job (1,000 processes on 125 hosts, 8 RC QPs each, 100 ping-pongs
     * per connection), analyzed by the launcher in a process of its own: wall time and peak memory against the
     * goal; the ratio is over the analysis of one pair (row 4's baseline). At most two runs: each is long.
     */
    private void largeJob() throws Exception {
        Path job = work.resolve("job-1000-processes");
        if (!Files.isDirectory(job) || !Files.exists(work.resolve("job-1000-processes.done"))) {
            ParquetBaseline.delete(job);
            System.out.printf(Locale.ROOT, "generating %s (1,000 processes, 125 hosts, 8 QPs each, 100 rounds)...%n", job);
            RecordedProgramTrace.write(JobScaleRun.job(job, 125, 8, 8, 100));
            Files.writeString(work.resolve("job-1000-processes.done"), "");
        }
        Path pair = recordedJob("job-1-pair", 1);
        Path log = work.resolve("row33-5.log");
        Path jobLog = work.resolve("row33-5-job.log");
        Files.deleteIfExists(log);
        Files.deleteIfExists(jobLog);
        checked(ProcessRun.of(analyze(pair), log, ANALYZE_TIMEOUT_SECONDS), log); // warm-up: caches, CDS archive
        List<Double> a = new ArrayList<>();
        List<Double> b = new ArrayList<>();
        long peakKb = 0;
        for (int i = 0; i < Math.max(1, Math.min(runs, 2)); i++) {
            ProcessRun big = checked(ProcessRun.of(analyze(job), jobLog, ANALYZE_TIMEOUT_SECONDS), jobLog);
            a.add(big.wallNanos() / 1e9);
            peakKb = Math.max(peakKb, big.peakKb());
            b.add(checked(ProcessRun.of(analyze(pair), log, ANALYZE_TIMEOUT_SECONDS), log).wallNanos() / 1e9);
        }
        ProcessRun.Pair p = new ProcessRun.Pair(a, b);
        add(String.format(Locale.ROOT, "| analyze a job of 1,000 processes (%s) / of 1 pair | %s, %.2f GB peak RSS | %s | "
                        + "%.2f× | ≤ 15 s, ≤ 2 GB |", eventsOf(jobLog), seconds(p.medianA()), peakKb / 1048576.0,
                seconds(p.medianB()), p.ratio()));
    }

    /** The event count the log's first report states, as "4.9M events" ("? events" when none says). */
    private static String eventsOf(Path log) {
        try {
            return String.format(Locale.ROOT, "%.1fM events", eventsLoaded(log) / 1e6);
        } catch (IOException e) {
            return "? events";
        }
    }

    static final int PINGPONG_ROUNDS = 1000;

    /** A recorded job of {@code pairs} ping-pong pairs: servers a.PID, clients b.PID, generated once. */
    private Path recordedJob(String name, int pairs) throws IOException, TraceException {
        Path dir = work.resolve(name);
        Path done = work.resolve(name + ".done");
        if (Files.isDirectory(dir) && Files.exists(done)) {
            return dir;
        }
        ParquetBaseline.delete(dir);
        System.out.printf(Locale.ROOT, "generating %s (%d recorded ping-pong pairs)...%n", dir, pairs);
        List<String> hosts = new ArrayList<>();
        List<RecordedProgramTrace.Connection> links = new ArrayList<>();
        for (int i = 0; i < pairs; i++) {
            String server = "a." + (5000 + 2 * i);
            String client = "b." + (5001 + 2 * i);
            hosts.add(server);
            hosts.add(client);
            links.add(new RecordedProgramTrace.Connection(client, server));
        }
        Map<String, Long> skew = new LinkedHashMap<>();
        hosts.stream().filter(h -> h.startsWith("b.")).forEach(h -> skew.put(h, 3_000_000L)); // b's clock 3 ms ahead
        RecordedProgramTrace.write(new RecordedProgramTrace.Spec(dir, hosts, links, PINGPONG_ROUNDS, skew,
                RecordedProgramTrace.Fault.NONE));
        Files.writeString(done, "");
        return dir;
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
