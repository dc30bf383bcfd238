package io.rdmatrace.capture.record;

import io.rdmatrace.capture.oob.OobChannel;
import io.rdmatrace.capture.oob.OobException;
import io.rdmatrace.capture.oob.OobMessage;
import io.rdmatrace.capture.oob.OobObserver;
import io.rdmatrace.capture.wire.SoftverbsWireLog;
import io.rdmatrace.capture.wire.WireEvents;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CountersEvent;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.trace.store.TraceFullException;
import io.rdmatrace.trace.store.TraceLayout;
import io.rdmatrace.trace.store.TraceOpening;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.store.TraceWriter;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.model.Wc;
import io.rdmatrace.verbs.CmListener;
import io.rdmatrace.verbs.CompletionBatch;
import io.rdmatrace.verbs.CompletionQueue;
import io.rdmatrace.verbs.Context;
import io.rdmatrace.verbs.QpQueryBuffer;
import io.rdmatrace.verbs.QueuePair;
import io.rdmatrace.verbs.RdmaCmCall;
import io.rdmatrace.verbs.RdmaCmEvent;
import io.rdmatrace.verbs.RecvBatch;
import io.rdmatrace.verbs.SendBatch;
import io.rdmatrace.verbs.VerbCall;
import io.rdmatrace.verbs.VerbsListener;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Turns everything a capture does into trace events: every verbs call (as the binding's listener),
 * every work completion, async event, out-of-band message and scenario mark, and the counters.
 *
 * <p>It only observes: the verbs already ran when it hears of them, and a failure to write is kept
 * ({@link #failure()}) instead of thrown into the caller, so recording never changes what the capture
 * does. Calls made before the SESSION can be written (opening and querying the device, whose answers
 * the SESSION carries) are buffered and written right after it.
 *
 * <p>Empty polls are not recorded one by one: consecutive empty ibv_poll_cq calls on a CQ become one
 * IBV_POLL_CQ event (ret 0, POLLED 0, duration = their summed C time, DURATION = the wall span,
 * MESSAGE = "N empty polls"), written before the next event.
 */
public final class Recorder implements VerbsListener, CmListener, OobObserver, AutoCloseable {
    private final boolean enabled;
    private final List<Consumer<TraceWriter>> beforeSession = new ArrayList<>();
    private final CallMapper calls = new CallMapper();
    private final OobEventMapper oobs = new OobEventMapper();
    private TraceWriter writer;
    /** The trace folder claimed by {@link #prepare}, its queue opening in the background; null once started. */
    private TraceOpening opening;
    private Path outDir;
    private Throwable failure;
    /** Events in the trace when the first write failed. */
    private long keptAtFailure;
    private boolean closed;

    // the poll loop being summarised: CQ handle (0 = none), calls, C time, first/last wall time
    private long emptyCq;
    private int emptyCapacity;
    private long emptyCount;
    private long emptyNanos;
    private long emptyFirstMono;
    private long emptyLastMono;

    public Recorder() {
        this(true);
    }

    private Recorder(boolean enabled) {
        this.enabled = enabled;
    }

    /** A recorder that writes nothing (a capture run without a trace, e.g. to measure what recording costs). */
    public static Recorder discarding() {
        return new Recorder(false);
    }

    public boolean enabled() {
        return enabled;
    }

    /**
     * Claims the trace folder now (a folder that cannot be written is refused here, at once) and
     * opens its queue in the background, so {@link #start} later only writes the SESSION. A
     * recorder closed before it starts removes what this created. Optional.
     */
    public synchronized void prepare(Path outDir, String hostId) throws TraceException {
        if (!enabled) {
            return;
        }
        if (writer != null || opening != null || closed) {
            throw new IllegalStateException("recording already prepared, started or closed");
        }
        this.outDir = outDir;
        opening = TraceOpening.begin(outDir, hostId);
    }

    /** Creates the trace (its SESSION; in the folder {@link #prepare} claimed, if it ran) and writes the calls heard so far. */
    public synchronized void start(Path outDir, SessionInfo session) throws TraceException {
        if (!enabled) {
            return;
        }
        if (writer != null) {
            throw new IllegalStateException("recording already started");
        }
        this.outDir = outDir;
        if (opening != null) {
            TraceOpening o = opening;
            opening = null;
            if (!o.folder().equals(TraceLayout.hostFolder(outDir, session.hostId()))) {
                o.close();
                throw new IllegalArgumentException("prepared " + o.folder() + ", started in " + outDir);
            }
            writer = o.start(session);
        } else {
            writer = TraceWriter.create(outDir, session);
        }
        for (Consumer<TraceWriter> w : beforeSession) {
            write(w);
        }
        beforeSession.clear();
    }

    /** True once the SESSION is written. */
    public synchronized boolean started() {
        return writer != null;
    }

    /** The host folder being written, or null before {@link #start}. */
    public synchronized Path folder() {
        return writer == null ? null : writer.folder();
    }

    /** Events written so far (SESSION included). */
    public synchronized long eventsWritten() {
        return writer == null ? 0 : writer.eventsWritten();
    }

    /**
     * The first failure to write, or null: the trace is incomplete when this is set. A full disk
     * shows as an {@link InternalError} (the kernel's SIGBUS on a write into the mapped queue file).
     */
    public synchronized Throwable failure() {
        return failure;
    }

    /**
     * One sentence on the first failure to write, or null: "no space left on OUT (N events kept)"
     * for a full disk or file-size limit, else what failed. The trace keeps those N events.
     */
    public synchronized String failureText() {
        if (failure == null) {
            return null;
        }
        // the count is known once the trace is closed and read back (a fault can surface after the write)
        String kept = closed ? " (" + keptAtFailure + " events kept)" : "";
        return noSpace(failure) ? "no space left on " + outDir + kept
                : "cannot write the trace to " + outDir + ": " + failure + kept;
    }

    /** True for what a full file system or a file-size limit looks like from a mapped queue. */
    static boolean noSpace(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            String m = String.valueOf(c.getMessage());
            if (c instanceof TraceFullException
                    || c instanceof InternalError && m.contains("unsafe memory access")
                    || m.contains("No space left") || m.contains("File too large") || m.contains("Disk quota")) {
                return true;
            }
        }
        return false;
    }

    /**
     * A write failure that surfaced outside the recorder: the JVM raises a SIGBUS of a write into
     * the mapped queue file (a full disk) as an {@link InternalError} at the writing thread's next
     * check for asynchronous exceptions, which can be after the write returned. The capture hands
     * it here; recording stops as for any write failure.
     */
    public synchronized void writeFailed(Throwable e) {
        failed(e);
    }

    /** Keeps the first write failure; later events are dropped (the trace stays readable up to here). */
    private void failed(Throwable e) {
        if (failure == null) {
            failure = e;
            keptAtFailure = writer == null ? 0 : writer.eventsWritten();
        }
    }

    /** How many events the closed trace really holds (what a fault did not lose), or {@code fallback}. */
    private static long eventsOnDisk(Path folder, long fallback) {
        try (TraceReader reader = TraceReader.open(folder)) {
            long n = 0;
            while (reader.next() != null) {
                n++;
            }
            return n;
        } catch (TraceException | RuntimeException | InternalError e) {
            return fallback; // a page the full disk could not back (the writer backs its pages ahead: rare)
        }
    }

    // ---- verbs ---------------------------------------------------------------------------

    /**
     * Not synchronized as a whole: the async-event pump reports an empty wait every 50 ms, and an
     * empty wait, which is not an event, must not queue for the lock behind the capture thread
     * (nor make the capture thread queue behind it).
     */
    @Override
    public void onCall(Context context, VerbCall call) {
        if (call instanceof VerbCall.GetAsyncEvent g) {
            var e = g.event();
            if (e != null) {
                long element = e.elementHandle() != 0 ? e.elementHandle() : e.portNum();
                synchronized (this) {
                    emit(w -> w.async(e.eventType().value(), element, e.qpNum()));
                }
            }
            return;
        }
        synchronized (this) {
            if (recording()) {
                calls.fill(call);
                writeFilled();
            }
        }
    }

    // ---- rdma_cm (capture --cm): mapped as the tracing librdmacm's records are -------------

    @Override
    public synchronized void onCmCall(RdmaCmCall c) {
        CallMapper.Mapped m = CmAttrs.call(c, c.id());
        if (m != null) {
            call(m);
        }
    }

    @Override
    public synchronized void onCmEvent(RdmaCmEvent e) {
        Attrs attrs = CmAttrs.event(e);
        emit(w -> w.cmEvent(e.event(), e.status(), e.id(), attrs));
    }

    /** Written from the buffer itself: no copy of the answer, no {@link VerbCall} (the same event's bytes). */
    @Override
    public synchronized void onQueryQp(QueuePair qp, QpQueryBuffer answer) {
        if (recording()) {
            calls.fillQuery(qp, answer);
            writeFilled();
        }
    }

    @Override
    public synchronized void onPostSend(QueuePair qp, SendBatch batch) {
        if (recording()) {
            calls.fillPostSend(qp, batch);
            writeFilled();
        }
    }

    @Override
    public synchronized void onPostRecv(QueuePair qp, RecvBatch batch) {
        if (recording()) {
            calls.fillPostRecv(qp, batch);
            writeFilled();
        }
    }

    private void completion(long cq, Wc wc) {
        if (writer == null) {
            emit(w -> w.completion(cq, wc));
            return;
        }
        if (!closed && enabled && failure == null) {
            try {
                writer.completion(cq, wc);
            } catch (RuntimeException | InternalError | AssertionError e) {
                failed(e);
            }
        }
    }

    /** False once closed or when discarding: nothing to map. */
    private boolean recording() {
        return !closed && enabled;
    }

    /**
     * The hot path: writes the call {@link #calls} was just filled with straight from its builders
     * (no attribute sets, no closure); before the SESSION it is kept as a value.
     */
    private void writeFilled() {
        writeCall(null);
    }

    /** A call mapped elsewhere (rdma_cm) as a value. */
    private void call(CallMapper.Mapped m) {
        if (recording()) {
            writeCall(m);
        }
    }

    /** Writes {@code m}, or with null the call {@link #calls} holds; kept until the SESSION is written. */
    private void writeCall(CallMapper.Mapped m) {
        if (emptyCq != 0) {
            flushEmptyPollsNow();
        }
        if (writer == null) {
            CallMapper.Mapped v = m != null ? m : calls.mapped();
            beforeSession.add(w -> w.call(v.verb(), v.handle(), v.ret(), v.errno(), v.durationNanos(), v.in(), v.out(), v.wrs()));
            return;
        }
        if (failure != null) {
            return;
        }
        try {
            if (m != null) {
                writer.call(m.verb(), m.handle(), m.ret(), m.errno(), m.durationNanos(), m.in(), m.out(), m.wrs());
            } else {
                calls.writeTo(writer);
            }
        } catch (RuntimeException | InternalError | AssertionError e) {
            failed(e);
        }
    }

    @Override
    public synchronized void onPollCq(CompletionQueue cq, CompletionBatch batch) {
        long handle = cq.handle();
        long ret = batch.ret();
        if (ret == 0 && batch.errno() == 0) {
            if (emptyCq != handle) {
                flushEmptyPolls();
                emptyCq = handle;
                emptyCapacity = batch.capacity();
                emptyFirstMono = System.nanoTime();
            }
            emptyCount++;
            emptyNanos += batch.durationNanos();
            emptyLastMono = System.nanoTime();
            return;
        }
        flushEmptyPolls();
        if (recording()) {
            calls.fillPoll(handle, batch);
            writeFilled();
        }
        int n = (int) Math.max(0, ret);
        for (int i = 0; i < n && i < batch.count(); i++) {
            Wc wc = new Wc(batch.wrId(i), batch.statusValue(i), batch.opcodeValue(i), Integer.toUnsignedLong(batch.vendorErr(i)),
                    Integer.toUnsignedLong(batch.byteLen(i)), Integer.toUnsignedLong(batch.immData(i)), batch.qpNum(i),
                    batch.srcQp(i), batch.wcFlags(i), batch.pkeyIndex(i), batch.slid(i), batch.sl(i), batch.dlidPathBits(i));
            completion(handle, wc);
        }
    }

    /** Writes the pending summary of empty polls (the scenario calls this when a poll loop ends). */
    public synchronized void flushEmptyPolls() {
        if (emptyCq != 0) {
            flushEmptyPollsNow();
        }
    }

    // ---- out of band -----------------------------------------------------------------------

    @Override
    public synchronized void sent(String remote, OobMessage message) {
        oob(OobEvent.Direction.SENT, remote, message);
    }

    @Override
    public synchronized void received(String remote, OobMessage message) {
        oob(OobEvent.Direction.RECEIVED, remote, message);
    }

    @Override
    public synchronized void rejected(String remote, OobException why) {
        // one INVALID event per refused connection; its handshake messages are not recorded
        Attrs a = Attrs.builder().put(Attr.MESSAGE, "refused: " + why.getMessage()).build();
        emit(w -> w.oob(OobEvent.Direction.RECEIVED, remote, OobEvent.Kind.INVALID, a));
    }

    /** A message that could not be used (garbage, wrong version, bad MAC, timeout): an INVALID event. */
    public synchronized void invalid(String remote, OobException why) {
        Attrs a = Attrs.builder().put(Attr.MESSAGE, why.getMessage()).build();
        emit(w -> w.oob(OobEvent.Direction.RECEIVED, remote, OobEvent.Kind.INVALID, a));
    }

    private void oob(OobEvent.Direction direction, String remote, OobMessage message) {
        OobEvent.Kind kind = OobEventMapper.kind(message);
        Attrs attrs = oobs.attrs(message, OobChannel.PROTOCOL_VERSION);
        emit(w -> w.oob(direction, remote, kind, attrs));
    }

    // ---- scenario and device ---------------------------------------------------------------

    public synchronized void mark(String step, MarkEvent.Verdict verdict, String text) {
        emit(w -> w.mark(step, verdict, text));
    }

    public synchronized void counters(String device, CountersEvent.Phase phase, Map<String, Long> values) {
        List<CountersEvent.Counter> list = new ArrayList<>(values.size());
        values.forEach((k, v) -> list.add(new CountersEvent.Counter(k, v)));
        emit(w -> w.counters(device, phase, list));
    }

    /** Writes a softverbs packet log as PACKET events ({@link WireEvents}). */
    public synchronized void packets(SoftverbsWireLog log) {
        emit(w -> WireEvents.write(w, log));
    }

    private void emit(Consumer<TraceWriter> event) {
        if (closed || !enabled) {
            return;
        }
        if (emptyCq != 0) {
            flushEmptyPollsNow(); // keep queue order = call order
        }
        if (writer == null) {
            beforeSession.add(event);
            return;
        }
        write(event);
    }

    private void flushEmptyPollsNow() {
        long cq = emptyCq;
        Attrs in = Attrs.builder().put(Attr.NUM_ENTRIES, emptyCapacity).build();
        Attrs out = Attrs.builder().put(Attr.POLLED, 0).put(Attr.DURATION, emptyLastMono - emptyFirstMono)
                .put(Attr.MESSAGE, emptyCount + " empty polls").build();
        long nanos = emptyNanos;
        emptyCq = 0; // before emitting: the summary must not flush itself again
        emptyCount = 0;
        emptyNanos = 0;
        emit(w -> w.call(Verb.IBV_POLL_CQ, cq, 0, 0, nanos, in, out));
    }

    private void write(Consumer<TraceWriter> event) {
        if (failure != null) {
            return;
        }
        try {
            event.accept(writer);
        } catch (RuntimeException | InternalError | AssertionError e) {
            failed(e); // keep the capture's behaviour; the scenario stops at its next step
        }
    }

    /**
     * Stops recording because the process was told to stop (SIGINT/SIGTERM): a FAIL mark saying
     * so, then the END. Idempotent, and a no-op once closed.
     */
    public synchronized void interrupted(String why) {
        if (closed || !enabled) {
            return;
        }
        mark("capture", MarkEvent.Verdict.FAIL, why);
        close();
    }

    /** Writes the pending poll summary and the END event, and closes the queue. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        flushEmptyPolls();
        closed = true;
        if (opening != null) {
            opening.close(); // never started (the capture failed first): leave no empty trace behind
            opening = null;
        }
        if (writer != null) {
            try {
                if (failure != null) {
                    // A write failed (a full disk faults in the mapped file, possibly inside Chronicle's
                    // document close, leaving its appender half-closed): write nothing more. The trace
                    // reads as TRUNCATED, and the console says why.
                    writer.closeTruncated();
                } else {
                    writer.close();
                }
            } catch (RuntimeException | InternalError | AssertionError e) {
                failed(e); // the END could not be written: the trace reads as TRUNCATED
            }
            if (failure != null) {
                keptAtFailure = eventsOnDisk(writer.folder(), keptAtFailure);
            }
        }
    }
}
