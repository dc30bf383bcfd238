package io.rdmatrace.bench;

import io.rdmatrace.verbs.CallStatus;
import io.rdmatrace.verbs.CompletionBatch;
import io.rdmatrace.verbs.NativeLoops;
import io.rdmatrace.verbs.QpAttrMask;
import io.rdmatrace.verbs.QpQuery;
import io.rdmatrace.verbs.QpQueryBuffer;
import io.rdmatrace.verbs.QueuePair;
import io.rdmatrace.verbs.SendBatch;
import io.rdmatrace.verbs.SendFlag;
import io.rdmatrace.verbs.WrOpcode;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
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
 * JNI overhead per verbs call on softverbs: each verb through the Java API ({@code api_*})
 * against the same verb looped in C ({@code c_*}, mean per call, no JNI crossing). The overhead
 * is api − c; goal: under 150 ns. {@code cTimed_*} loops the verb in C with the two
 * clock_gettime reads the binding makes around every call, so api − cTimed is the JNI crossing
 * and Java wrapper alone, and cTimed − c the price of timing each call. SampleTime mode: read
 * the p0.50 rows; on a busy machine the mean is dominated by descheduled samples.
 * <ul>
 *   <li>queryQp: ibv_query_qp of every attribute. {@code api_queryQp} returns an immutable
 *       {@link QpQuery} (the QP_ATTR block copied out, decoded on first use: 5 objects, 584 bytes);
 *       {@code api_queryQpInto} answers into a reused {@link QpQueryBuffer} (no allocation);
 *       {@code jni_queryQp} is the JNI entry point alone (crossing + C timing, no result).</li>
 *   <li>reqNotify: ibv_req_notify_cq, an inline data-path helper (ctx->ops) that costs a lock.</li>
 *   <li>pollEmpty: ibv_poll_cq on an empty CQ; softverbs yields the CPU when it finds nothing,
 *       so this mostly measures sched_yield.</li>
 *   <li>writePoll: post a signaled 64-byte RDMA WRITE and poll until its completion, a round
 *       trip through softverbs' thread and UDP loopback; the tear-down prints how much of it was
 *       spent inside libibverbs (C-measured), the rest is Java + JNI + waiting.</li>
 * </ul>
 * <pre>java -jar bench/target/benchmarks.jar JniOverheadBench -f 1 -wi 3 -i 5</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class JniOverheadBench {
    private static final int C_LOOP = 1000;
    private static final int C_ROUND_TRIPS = 50;
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);

    private JniLoopbackPair pair;
    private QueuePair qp;
    private SendBatch write;
    private CompletionBatch wcs;
    private QpAttrMask all;
    private QpQueryBuffer answer;
    private long insideNanos;
    private long calls;
    private long roundTrips;

    @Setup
    public void setUp() {
        pair = new JniLoopbackPair();
        qp = pair.a.qp;
        all = QueuePair.ALL_ATTRIBUTES;
        answer = new QpQueryBuffer();
        wcs = new CompletionBatch(16);
        write = new SendBatch(1, 1);
        write.clear().add(1, WrOpcode.RDMA_WRITE, SendFlag.bits(SendFlag.SIGNALED)).sge(pair.a.mr, 0, 64)
                .rdma(pair.b.mr.address(), pair.b.mr.rkey());
    }

    @TearDown
    public void tearDown() {
        if (roundTrips > 0) {
            // the C-measured time inside libibverbs, to set against JMH's wall time of api_writePoll
            System.out.printf("%napi_writePoll: %d round trips, %.2f verbs calls each, %.0f ns of them inside"
                            + " libibverbs (C-measured) per round trip%n", roundTrips, (double) calls / roundTrips,
                    (double) insideNanos / roundTrips);
        }
        write.close();
        wcs.close();
        pair.close();
    }

    @Benchmark
    public QpQuery api_queryQp() {
        return qp.query(all);
    }

    @Benchmark
    public QpQueryBuffer api_queryQpInto() {
        if (qp.query(all, answer) != 0) {
            throw new IllegalStateException("ibv_query_qp failed: errno " + answer.errno());
        }
        return answer;
    }

    @Benchmark
    @OperationsPerInvocation(C_LOOP)
    public double c_queryQp() {
        return NativeLoops.queryQp(qp, all, C_LOOP, false);
    }

    @Benchmark
    @OperationsPerInvocation(C_LOOP)
    public double cTimed_queryQp() {
        return NativeLoops.queryQp(qp, all, C_LOOP, true);
    }

    @Benchmark
    public long jni_queryQp() {
        return NativeLoops.queryQpUndecoded(qp, all);
    }

    /**
     * A sample that does nothing: the clock reads JMH makes around every sample, which each
     * single-call api_/jni_ sample includes and the C loops (1,000 calls a sample) do not.
     */
    @Benchmark
    public long sampleFloor() {
        return calls;
    }

    @Benchmark
    public CallStatus api_reqNotify() {
        return pair.b.cq.reqNotify(false);
    }

    @Benchmark
    @OperationsPerInvocation(C_LOOP)
    public double c_reqNotify() {
        return NativeLoops.reqNotify(pair.b.cq, C_LOOP, false);
    }

    @Benchmark
    @OperationsPerInvocation(C_LOOP)
    public double cTimed_reqNotify() {
        return NativeLoops.reqNotify(pair.b.cq, C_LOOP, true);
    }

    @Benchmark
    public int api_pollEmpty() {
        return pair.b.cq.poll(wcs);
    }

    @Benchmark
    @OperationsPerInvocation(C_LOOP)
    public double c_pollEmpty() {
        return NativeLoops.pollCq(pair.b.cq, C_LOOP);
    }

    @Benchmark
    public int api_writePoll() {
        if (qp.postSend(write) != 0) {
            throw new IllegalStateException("post_send failed: " + write.status());
        }
        insideNanos += write.durationNanos();
        calls++;
        long deadline = System.nanoTime() + WAIT_NANOS;
        int n;
        while ((n = pair.a.cq.poll(wcs)) == 0) {
            insideNanos += wcs.durationNanos();
            calls++;
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no completion within 5 s");
            }
        }
        insideNanos += wcs.durationNanos();
        calls++;
        roundTrips++;
        if (n < 0 || wcs.statusValue(0) != 0) {
            throw new IllegalStateException("completion failed: " + wcs.get(0));
        }
        return n;
    }

    @Benchmark
    @OperationsPerInvocation(C_ROUND_TRIPS)
    public double c_writePoll() {
        double mean = NativeLoops.sendPoll(qp, pair.a.cq, WrOpcode.RDMA_WRITE, pair.a.mr, 64, pair.b.mr.address(),
                pair.b.mr.rkey(), C_ROUND_TRIPS, WAIT_NANOS);
        if (mean < 0) {
            throw new IllegalStateException("C round trip failed");
        }
        return mean;
    }
}
