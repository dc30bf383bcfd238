package io.rdmatrace.bench;

import io.rdmatrace.analyzer.diff.DiffInput;
import io.rdmatrace.analyzer.diff.DiffOptions;
import io.rdmatrace.analyzer.diff.DiffReport;
import io.rdmatrace.analyzer.diff.HostEvents;
import io.rdmatrace.analyzer.diff.TraceDiff;
import io.rdmatrace.analyzer.export.BundleWriter;
import io.rdmatrace.analyzer.export.Redactor;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.store.TraceSet;
import io.rdmatrace.trace.synth.SyntheticTrace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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

/**
 * The cost of `rdmatrace diff` and `rdmatrace export` on a two-host capture with
 * {@link #dataEvents} data-path events per host (4 QP pairs, synthetic, so no device is needed):
 * <ul>
 *   <li>{@code load}: one side of a diff: DuckDB, schema, load, views, read back as HostEvents;</li>
 *   <li>{@code compare}: aligning and comparing two loaded captures (the diff proper);</li>
 *   <li>{@code redact}: planning and applying the pseudonyms to both hosts' events in memory;</li>
 *   <li>{@code exportRedacted}: the whole `export --redact` (read, redact, load, rules, Parquet, zip).</li>
 * </ul>
 * Scores are milliseconds per operation.
 *
 * <pre>java -jar bench/target/benchmarks.jar DiffExportBench</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
@Fork(value = 1, jvmArgsAppend = {JvmFlags.OPENS_REFLECT, JvmFlags.EXPORTS_NIO_CH, JvmFlags.OPENS_LANG,
    JvmFlags.EXPORTS_JAVAC, JvmFlags.EXPORTS_REF, JvmFlags.OPENS_NIO, JvmFlags.NO_ANALYTICS, JvmFlags.NO_BANNER,
    "-Dorg.jooq.no-logo=true", "-Dorg.jooq.no-tips=true", "-Darrow.allocation.manager.type=Unsafe",
    "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"})
public class DiffExportBench {

    @Param({"6000", "60000"})
    int dataEvents;

    private Path dir;
    private Path a;
    private List<HostEvents> hostsA;
    private List<HostEvents> hostsB;
    private List<List<TraceEvent>> events;
    private int export;

    @Setup(Level.Trial)
    public void captures() throws Exception {
        dir = Files.createTempDirectory("rdmatrace-diff-bench");
        a = dir.resolve("a");
        Path b = dir.resolve("b");
        TraceSet set = SyntheticTrace.write(new SyntheticTrace.Spec(a, "host-a", "host-b", 4, dataEvents, 1,
                SyntheticTrace.Fault.NONE));
        SyntheticTrace.write(new SyntheticTrace.Spec(b, "host-a", "host-b", 4, dataEvents, 2,
                SyntheticTrace.Fault.PSN_OFF_BY_ONE));
        hostsA = DiffInput.read(a);
        hostsB = DiffInput.read(b);
        events = new ArrayList<>();
        for (Path host : set.hosts()) {
            events.add(TraceReader.readAll(host).events());
        }
    }

    @TearDown(Level.Trial)
    public void delete() throws IOException {
        TraceAppendBench.deleteTree(dir);
    }

    @Benchmark
    public List<HostEvents> load() throws Exception {
        return DiffInput.read(a);
    }

    @Benchmark
    public DiffReport compare() {
        return TraceDiff.compare("a", hostsA, "b", hostsB, DiffOptions.defaults());
    }

    @Benchmark
    public int redact() {
        Redactor r = Redactor.plan(events);
        int n = 0;
        for (List<TraceEvent> host : events) {
            n += r.redact(host).size();
        }
        return n;
    }

    @Benchmark
    public long exportRedacted() throws Exception {
        Path zip = dir.resolve("bundle-" + export++ + ".zip");
        long bytes = BundleWriter.export(a, zip, true, false, "bench").bytes();
        Files.delete(zip);
        return bytes;
    }
}
