package io.rdmatrace.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.rdmatrace.analyzer.Analysis;
import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.analyzer.rule.RuleCatalog;
import io.rdmatrace.analyzer.rule.RuleOutcome;
import io.rdmatrace.trace.store.TraceSet;
import io.rdmatrace.trace.synth.RecordedProgramTrace;
import io.rdmatrace.trace.synth.RecordedProgramTrace.Connection;

/**
 * A recorded job at scale (issue 33's last row): MACHINES hosts running PROCS processes each
 * ({@code node007.4001}, ...), every process with QPS RC QPs to processes on other hosts, ROUNDS
 * ping-pong messages per connection, each host's clock skewed; then one analysis with the built-in
 * rules, timed by phase, with the process's peak RSS:
 * <pre>
 * java $FLAGS -cp bench/target/benchmarks.jar io.rdmatrace.bench.JobScaleRun DIR [MACHINES [PROCS [QPS [ROUNDS]]]]
 * </pre>
 * Defaults 125 × 8 processes, 8 QPs, 100 rounds (1,000 processes, 4,000 connections). DIR is reused
 * when it already holds a trace; generate once, then run the analysis in fresh JVMs.
 */
public final class JobScaleRun {
    private JobScaleRun() {
    }

    /** The job's processes and connections: process i is the client of i + k·PROCS for k = 1..QPS/2. */
    static RecordedProgramTrace.Spec job(Path dir, int machines, int procs, int qps, int rounds) {
        if (machines < 2 || procs < 1 || qps < 2 || qps % 2 != 0 || rounds < 1) {
            throw new IllegalArgumentException("need ≥ 2 machines, ≥ 1 process each, an even QPS ≥ 2, ≥ 1 round");
        }
        int n = machines * procs;
        List<String> hosts = new ArrayList<>(n);
        Map<String, Long> skew = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            int machine = i / procs;
            String host = String.format(Locale.ROOT, "node%03d.%d", machine, 4000 + i);
            hosts.add(host);
            // each machine's clock off by up to ±5 ms, the same for its processes
            skew.put(host, ((machine * 37L) % 11 - 5) * 1_000_000L);
        }
        List<Connection> links = new ArrayList<>(n * qps / 2);
        for (int i = 0; i < n; i++) {
            for (int k = 1; k <= qps / 2; k++) {
                links.add(new Connection(hosts.get(i), hosts.get((i + k * procs) % n)));
            }
        }
        return new RecordedProgramTrace.Spec(dir, hosts, links, rounds, skew, RecordedProgramTrace.Fault.NONE);
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: JobScaleRun DIR [MACHINES [PROCS [QPS [ROUNDS]]]]");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        int machines = args.length > 1 ? Integer.parseInt(args[1]) : 125;
        int procs = args.length > 2 ? Integer.parseInt(args[2]) : 8;
        int qps = args.length > 3 ? Integer.parseInt(args[3]) : 8;
        int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 100;
        if (!Files.isDirectory(dir)) {
            long t0 = System.nanoTime();
            TraceSet set = RecordedProgramTrace.write(job(dir, machines, procs, qps, rounds));
            System.out.printf(Locale.ROOT, "generated %d processes on %d hosts, %d QPs each, %d rounds, under %s in %.1f s%n",
                    set.hosts().size(), machines, qps, rounds, dir, (System.nanoTime() - t0) / 1e9);
            return;
        }
        long t0 = System.nanoTime();
        try (Analysis analysis = Analysis.open(List.of(dir))) {
            LoadReport load = analysis.load();
            long t1 = System.nanoTime();
            analysis.finish();
            long t2 = System.nanoTime();
            AnalysisResult result = analysis.analyze(RuleCatalog.builtin());
            long t3 = System.nanoTime();
            System.out.printf(Locale.ROOT, "%,d events of %d hosts: load %.2f s, views %.2f s, %d rules %.2f s, total %.2f s; "
                            + "%d findings; peak RSS %d MB%n", load.events(), load.hosts().size(), (t1 - t0) / 1e9,
                    (t2 - t1) / 1e9, result.outcomes().size(), (t3 - t2) / 1e9, (t3 - t0) / 1e9,
                    result.findings().size(), peakRssKb() / 1024);
            result.outcomes().stream().sorted(Comparator.comparingLong(RuleOutcome::elapsedNanos).reversed()).limit(10)
                    .forEach(o -> System.out.printf(Locale.ROOT, "  %-28s %8.1f ms %6d findings%s%n", o.rule().id(),
                            o.elapsedNanos() / 1e6, o.findings().size(), o.failed() ? " FAILED " + o.problem() : ""));
        }
    }

    /** VmHWM of this process, kB (0 where /proc has none). */
    static long peakRssKb() throws java.io.IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return 0;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return 0;
    }
}
