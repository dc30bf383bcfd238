package io.rdmatrace.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * The recorder and JNI rows of {@link SpeedGoals}, from the existing JMH benchmarks (run here
 * with their own forks and flags, the p50 of SampleTime) and from {@link CaptureBringUpPair}.
 */
final class JmhGoals {
    private static final int BRINGUP_QPS = 1000;
    private static final int BRINGUP_WARMUP_ROUNDS = 2;

    private JmhGoals() {
    }

    /**
     * CaptureRecorderBench.modifyQp p50 / TraceAppendBench.rawChronicleBaseline p50 (the same INIT→RTR
     * message), over {@code rounds} rounds of one fork each: the raw append's own p50 moved 421–691 ns
     * between single forks on a quiet machine, so one round's ratio said little. Medians of each side
     * and the median of the rounds' ratios.
     */
    static String recorderOverChronicle(int rounds) throws RunnerException {
        List<Double> recorder = new ArrayList<>();
        List<Double> raw = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            Map<String, Double> p50 = p50("CaptureRecorderBench\\.modifyQp$|TraceAppendBench\\.rawChronicleBaseline$");
            recorder.add(p50.get("modifyQp"));
            raw.add(p50.get("rawChronicleBaseline"));
        }
        ProcessRun.Pair p = new ProcessRun.Pair(recorder, raw);
        return SpeedGoals.row("recorder per event p50 (modify_qp) / raw Chronicle append", ns(p.medianA()), ns(p.medianB()),
                p.ratio(), "≤ 1.5× (≤ 400 ns)");
    }

    /**
     * JniOverheadBench: api_queryQpInto p50 − c_queryQp p50 (the same ibv_query_qp looped in C), the
     * goal's row; then api_queryQp's (the answer as an immutable QpQuery) against the same C loop.
     */
    static List<String> jniOverC() throws RunnerException {
        Map<String, Double> p50 = p50("JniOverheadBench\\.(api_queryQp|api_queryQpInto|c_queryQp)$");
        double into = p50.get("api_queryQpInto");
        double record = p50.get("api_queryQp");
        double c = p50.get("c_queryQp");
        return List.of(
                String.format(Locale.ROOT, "| JNI `query_qp` into a reused buffer over C | %s | %s | +%.0f ns | ≤ 150 ns |",
                        ns(into), ns(c), into - c),
                String.format(Locale.ROOT, "| JNI `query_qp` as a `QpQuery` over C | %s | %s | +%.0f ns | |",
                        ns(record), ns(c), record - c));
    }

    /** A 1,000-QP bring-up recorded / bare, alternating in one JVM after warm-up rounds (medians of each). */
    static String recordedOverBare(int rounds) throws Exception {
        List<Double> recorded = new ArrayList<>();
        List<Double> bare = new ArrayList<>();
        try (CaptureBringUpPair pair = new CaptureBringUpPair()) {
            for (int i = 0; i < BRINGUP_WARMUP_ROUNDS; i++) {
                pair.run(BRINGUP_QPS, true);
                pair.run(BRINGUP_QPS, false);
            }
            for (int i = 0; i < rounds; i++) {
                boolean recordFirst = i % 2 == 0; // alternate the order too
                double first = pair.run(BRINGUP_QPS, recordFirst) / 1e9;
                double second = pair.run(BRINGUP_QPS, !recordFirst) / 1e9;
                (recordFirst ? recorded : bare).add(first);
                (recordFirst ? bare : recorded).add(second);
            }
        }
        ProcessRun.Pair p = new ProcessRun.Pair(recorded, bare);
        return SpeedGoals.row("recorded / bare 1,000-QP bring-up", SpeedGoals.seconds(p.medianA()),
                SpeedGoals.seconds(p.medianB()), p.ratio(), "≤ 1.10×");
    }

    /** Runs the benchmarks {@code include} matches; method name → p50 in ns. */
    private static Map<String, Double> p50(String include) throws RunnerException {
        Collection<RunResult> results = new Runner(new OptionsBuilder().include(include).build()).run();
        Map<String, Double> p50 = new HashMap<>();
        for (RunResult result : results) {
            String benchmark = result.getParams().getBenchmark();
            p50.put(benchmark.substring(benchmark.lastIndexOf('.') + 1),
                    result.getPrimaryResult().getStatistics().getPercentile(50));
        }
        return p50;
    }

    private static String ns(double nanos) {
        return String.format(Locale.ROOT, "%.0f ns", nanos);
    }
}
