package io.rdmatrace.bench;

import io.rdmatrace.capture.oob.OobMessage;
import io.rdmatrace.capture.oob.QpParams;
import io.rdmatrace.capture.record.Recorder;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.verbs.CallStatus;
import io.rdmatrace.verbs.QpAttr;
import io.rdmatrace.verbs.QpQuery;
import io.rdmatrace.verbs.QpQueryBuffer;
import io.rdmatrace.verbs.QueuePair;
import io.rdmatrace.verbs.SendBatch;
import io.rdmatrace.verbs.SendFlag;
import io.rdmatrace.verbs.VerbCall;
import io.rdmatrace.verbs.WrOpcode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the capture recorder costs per event: the listener callback after a verb returned, through
 * mapping to trace attributes, to the Chronicle append (a real queue on disk). Goal: p50 ≤ 300 ns,
 * p99 ≤ 5 µs on a 2-core machine. Each iteration writes a fresh trace that is deleted afterwards.
 * <ul>
 *   <li>modifyQp: an INIT→RTR ibv_modify_qp (mask 0x129181: 7 fields, the AV's 11) — a typical control call</li>
 *   <li>queryQp: the ibv_query_qp after it (every field, ~45 attributes) — the largest event</li>
 *   <li>queryQpBuffer: the same answer handed over in a reused {@link QpQueryBuffer}, as a capture queries</li>
 *   <li>postSend: an ibv_post_send of one signalled SEND (the data path: read from the reusable batch)</li>
 *   <li>oobParams: one out-of-band PARAMS message</li>
 *   <li>mark: a scenario mark (the smallest event)</li>
 * </ul>
 * <pre>java -jar bench/target/benchmarks.jar CaptureRecorderBench -f 1 -wi 3 -i 5</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {JvmFlags.OPENS_REFLECT, JvmFlags.EXPORTS_NIO_CH, JvmFlags.OPENS_LANG,
    JvmFlags.EXPORTS_JAVAC, JvmFlags.EXPORTS_REF, JvmFlags.OPENS_NIO, JvmFlags.NO_ANALYTICS, JvmFlags.NO_BANNER})
public class CaptureRecorderBench {
    private JniLoopbackPair pair;
    private QueuePair qp;
    private SendBatch send;
    private VerbCall.ModifyQp modify;
    private VerbCall.QueryQp query;
    private QpQueryBuffer answers;
    private OobMessage.Params params;
    private Path dir;
    private Recorder recorder;

    @Setup(Level.Trial)
    public void setUp() {
        pair = new JniLoopbackPair();
        qp = pair.a.qp;
        send = new SendBatch(1, 1);
        send.clear().add(7, WrOpcode.SEND, SendFlag.bits(SendFlag.SIGNALED)).sge(pair.a.mr, 0, 64);
        QpAttr.Builder rtr = QpAttr.builder().qpState(io.rdmatrace.verbs.QpState.RTR).pathMtu(io.rdmatrace.verbs.Mtu.MTU_1024)
                .destQpNum(0x12).rqPsn(0x123456).maxDestRdAtomic(1).minRnrTimer(12)
                .ahAttr(io.rdmatrace.verbs.AhAttr.roce(pair.b.gid, pair.a.gidIndex, 1));
        CallStatus ok = new CallStatus(0, 0, "", 1500);
        modify = new VerbCall.ModifyQp(qp.handle(), qp.qpNum(), rtr.build(), rtr.mask(), ok);
        QpQuery answer = qp.query();
        query = new VerbCall.QueryQp(qp.handle(), qp.qpNum(), QueuePair.ALL_ATTRIBUTES, answer, ok);
        answers = new QpQueryBuffer();
        qp.query(QueuePair.ALL_ATTRIBUTES, answers);
        params = new OobMessage.Params(new QpParams(0, qp.qpNum(), 0, pair.a.gid.raw(), pair.a.gidIndex, 0x123456, 3,
                pair.a.mr.address(), pair.a.mr.rkey(), pair.a.mr.length(), 0, 2));
    }

    @Setup(Level.Iteration)
    public void newTrace() throws Exception {
        dir = Files.createTempDirectory("rdmatrace-recorder-bench");
        recorder = new Recorder();
        recorder.start(dir, new SessionInfo("bench", "bench", "bench", "softverbs", "bench", Map.of(), Attrs.EMPTY,
                List.of(), List.of()));
    }

    @TearDown(Level.Iteration)
    public void dropTrace() throws IOException {
        recorder.close();
        if (recorder.failure() != null) {
            throw new IllegalStateException("recording failed", recorder.failure());
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        send.close();
        pair.close();
    }

    @Benchmark
    public void modifyQp() {
        recorder.onCall(null, modify);
    }

    @Benchmark
    public void queryQp() {
        recorder.onCall(null, query);
    }

    @Benchmark
    public void queryQpBuffer() {
        recorder.onQueryQp(qp, answers);
    }

    @Benchmark
    public void postSend() {
        recorder.onPostSend(qp, send);
    }

    @Benchmark
    public void oobParams() {
        recorder.sent("127.0.0.2:7471", params);
    }

    @Benchmark
    public void mark() {
        recorder.mark("TC04", MarkEvent.Verdict.INFO, "send each way with pattern check");
    }
}
