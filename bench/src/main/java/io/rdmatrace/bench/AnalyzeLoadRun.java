package io.rdmatrace.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import io.rdmatrace.analyzer.Analysis;
import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.analyzer.rule.RuleCatalog;
import io.rdmatrace.analyzer.rule.RuleOutcome;
import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.trace.store.TraceSet;
import io.rdmatrace.trace.synth.SyntheticTrace;

/**
 * The analyzer's phases on a large generated trace, with a per-phase and per-rule breakdown
 * (JMH's {@link AnalyzeBench} gives the same totals with warm-up and statistics):
 * <pre>
 * java $FLAGS -cp bench/target/benchmarks.jar io.rdmatrace.bench.AnalyzeLoadRun DIR [QP_PAIRS [DATA_EVENTS_PER_HOST [RUNS]]]
 * </pre>
 * DIR is reused when it already holds a trace (generating 10 million events takes a while).
 */
public final class AnalyzeLoadRun {
    private AnalyzeLoadRun() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: AnalyzeLoadRun DIR [QP_PAIRS [DATA_EVENTS_PER_HOST [RUNS]]]");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        int qpPairs = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        int dataEvents = args.length > 2 ? Integer.parseInt(args[2]) : 5_000_000;
        int runs = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        TraceSet set = ensureTrace(dir, qpPairs, dataEvents);
        for (int run = 1; run <= runs; run++) {
            try (Analysis analysis = Analysis.open(List.of(set.root()))) {
                LoadReport load = analysis.load();
                long t0 = System.nanoTime();
                analysis.finish();
                long derive = System.nanoTime() - t0;
                AnalysisResult result = analysis.analyze(RuleCatalog.builtin());
                System.out.printf(Locale.ROOT, "run %d: %,d events loaded in %.2f s = %,.0f events/s; views %.2f s; "
                                + "%d rules %.2f s; %d findings%n", run, load.events(), load.elapsedNanos() / 1e9,
                        load.events() / (load.elapsedNanos() / 1e9), derive / 1e9, result.outcomes().size(),
                        result.ruleNanos() / 1e9, result.findings().size());
                if (run == runs) {
                    result.outcomes().stream().sorted(Comparator.comparingLong(RuleOutcome::elapsedNanos).reversed())
                            .forEach(o -> System.out.printf(Locale.ROOT, "  %-28s %8.1f ms %6d findings%s%n", o.rule().id(),
                                    o.elapsedNanos() / 1e6, o.findings().size(), o.failed() ? " FAILED " + o.problem() : ""));
                }
            }
        }
    }

    static TraceSet ensureTrace(Path dir, int qpPairs, int dataEvents) throws TraceException, java.io.IOException {
        if (Files.isDirectory(dir)) {
            try {
                return TraceSet.discover(dir);
            } catch (TraceException e) {
                // empty or foreign: generate below
            }
        }
        long t0 = System.nanoTime();
        TraceSet set = SyntheticTrace.write(SyntheticTrace.Spec.of(dir, qpPairs, dataEvents));
        System.out.printf(Locale.ROOT, "generated %d QP pairs, %,d data events per host under %s in %.1f s%n", qpPairs,
                dataEvents, dir, (System.nanoTime() - t0) / 1e9);
        return set;
    }
}
