package io.rdmatrace.bench;

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
 * A whole `rdmatrace capture --qps N` bring-up of two agents (listener and connector on two softverbs
 * devices, two threads of this JVM): TC01–TC04 for every QP, with and without recording. Recording
 * adds the verbs listener and a trace per host; goal: at most 10% on top of the bare bring-up.
 * JMH runs the two variants in separate forks one after the other, so on a machine whose load drifts
 * prefer {@link CaptureBringUpCompare}, which alternates them.
 * <pre>java -jar bench/target/benchmarks.jar CaptureBringUpBench -f 1 -wi 6 -i 15</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 6)
@Measurement(iterations = 15)
@Fork(value = 1, jvmArgsAppend = {JvmFlags.OPENS_REFLECT, JvmFlags.EXPORTS_NIO_CH, JvmFlags.OPENS_LANG,
    JvmFlags.EXPORTS_JAVAC, JvmFlags.EXPORTS_REF, JvmFlags.OPENS_NIO, JvmFlags.NO_ANALYTICS, JvmFlags.NO_BANNER})
public class CaptureBringUpBench {

    @Param({"1000"})
    int qps;

    @Param({"true", "false"})
    boolean record;

    private CaptureBringUpPair pair;

    @Setup(Level.Trial)
    public void devices() {
        pair = new CaptureBringUpPair();
    }

    @TearDown(Level.Trial)
    public void close() {
        pair.close();
    }

    @Benchmark
    public long bringUp() throws Exception {
        return pair.run(qps, record);
    }
}
