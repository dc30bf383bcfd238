package io.rdmatrace.bench;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.store.ReadOutcome;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.store.TraceWriter;
import io.rdmatrace.trace.model.Verb;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Read rate of a trace: open, decode every event into the model, reach the END. The score is
 * events per second. The trace holds {@link #EVENTS} CALL events with 10 attributes each.
 *
 * <pre>java -jar bench/target/benchmarks.jar TraceReadBench</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {JvmFlags.OPENS_REFLECT, JvmFlags.EXPORTS_NIO_CH, JvmFlags.OPENS_LANG,
    JvmFlags.EXPORTS_JAVAC, JvmFlags.EXPORTS_REF, JvmFlags.OPENS_NIO, JvmFlags.NO_ANALYTICS, JvmFlags.NO_BANNER})
public class TraceReadBench {

    static final int EVENTS = 1_000_000;

    private Path dir;
    private Path host;

    @Setup(Level.Trial)
    public void write() throws IOException {
        dir = Files.createTempDirectory("rdmatrace-read-bench");
        try (TraceWriter w = TraceAppendBench.writer(dir)) {
            host = w.folder();
            for (int k = 0; k < EVENTS - 2; k++) {
                Attrs in = Attrs.builder().put(Attr.QP, 0x5600_0020_0000L).put(Attr.ATTR_MASK, 0x129181)
                        .put(Attr.QP_STATE, 2).put(Attr.PATH_MTU, 3).put(Attr.DEST_QP_NUM, 0x100011)
                        .put(Attr.RQ_PSN, k & 0xFFFFFF).put(Attr.MIN_RNR_TIMER, 12).build();
                Attrs out = Attrs.builder().put(Attr.QP_STATE, 2).put(Attr.CUR_QP_STATE, 2).put(Attr.SQ_PSN, k).build();
                w.call(Verb.IBV_MODIFY_QP, 0x5600_0020_0000L, 0, 0, k, in, out);
            }
        }
    }

    @TearDown(Level.Trial)
    public void delete() throws IOException {
        TraceAppendBench.deleteTree(dir);
    }

    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public long readAll() throws IOException {
        long sum = 0;
        try (TraceReader r = TraceReader.open(host)) {
            TraceEvent e;
            while ((e = r.next()) != null) {
                sum += e.seq();
            }
            if (r.outcome().status() != ReadOutcome.Status.CLEAN || r.eventsRead() != EVENTS) {
                throw new IllegalStateException("unexpected outcome " + r.outcome());
            }
        }
        return sum;
    }
}
