package io.rdmatrace.bench;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.rdmatrace.analyzer.Analysis;
import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.rule.RuleCatalog;
import io.rdmatrace.analyzer.rule.RuleSet;
import io.rdmatrace.trace.store.TraceSet;

/**
 * The analyzer on a large generated two-host trace (the trace module's SyntheticTrace): {@code load}
 * is Chronicle → Arrow → DuckDB for every event (events/s = events / time), {@code views} computes
 * the documented relations, {@code rules} runs every built-in rule. Goals: load ≥ 2M events/s,
 * all rules &lt; 5 s for 1,000 QP pairs and 10M events. The trace is generated once into {@code dir}
 * (reused on later runs). {@link AnalyzeLoadRun} prints the same phases with a per-rule breakdown.
 * <pre>java -jar bench/target/benchmarks.jar AnalyzeBench -p dir=/tmp/rdmatrace-bench-10m</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = {JvmFlags.OPENS_REFLECT, JvmFlags.EXPORTS_NIO_CH, JvmFlags.OPENS_LANG,
    JvmFlags.EXPORTS_JAVAC, JvmFlags.EXPORTS_REF, JvmFlags.OPENS_NIO, JvmFlags.NO_ANALYTICS, JvmFlags.NO_BANNER,
    "-Dorg.jooq.no-logo=true", "-Dorg.jooq.no-tips=true",
    "-Darrow.allocation.manager.type=Unsafe", "-Xmx8g"})
public class AnalyzeBench {

    @Param({"/tmp/rdmatrace-bench-10m"})
    String dir;

    @Param({"1000"})
    int qpPairs;

    /** Data-path events per host (post/poll/completion); two hosts make twice as many. */
    @Param({"5000000"})
    int dataEventsPerHost;

    TraceSet traces;
    RuleSet rules;

    @Setup(Level.Trial)
    public void trace() throws Exception {
        traces = AnalyzeLoadRun.ensureTrace(Path.of(dir), qpPairs, dataEventsPerHost);
        rules = RuleCatalog.builtin();
    }

    /** A session loaded (and, for the rules, with its views computed) before each measured call. */
    @State(Scope.Thread)
    public static class Loaded {
        Analysis analysis;

        @Setup(Level.Invocation)
        public void load(AnalyzeBench bench) throws SQLException {
            analysis = Analysis.open(List.of(bench.traces.root()));
        }

        @TearDown(Level.Invocation)
        public void close() throws SQLException {
            analysis.close();
        }
    }

    /** A session loaded with views computed before each measured call. */
    @State(Scope.Thread)
    public static class Derived extends Loaded {
        @Setup(Level.Invocation)
        public void derive() throws SQLException {
            analysis.finish();
        }
    }

    @Benchmark
    public long load() throws SQLException {
        try (Analysis analysis = Analysis.open(List.of(traces.root()))) {
            return analysis.load().events();
        }
    }

    @Benchmark
    public void views(Loaded loaded) throws SQLException {
        loaded.analysis.finish();
    }

    @Benchmark
    public int rules(Derived derived) throws SQLException {
        AnalysisResult result = derived.analysis.analyze(rules);
        return result.findings().size();
    }
}
