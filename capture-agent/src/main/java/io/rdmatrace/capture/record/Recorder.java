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
import io.rdmatrace.verbs.QpAnswer;
import io.rdmatrace.verbs.QpAttrMask;
import io.rdmatrace.verbs.QueuePair;
import io.rdmatrace.verbs.RdmaCmCall;
import io.rdmatrace.verbs.RdmaCmEvent;
import io.rdmatrace.verbs.RecvBatch;
import io.rdmatrace.verbs.SendBatch;
import io.rdmatrace.verbs.VerbCall;
import io.rdmatrace.verbs.VerbsListener;
import java.nio.file.Path;
import java.time.Instant;
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
 * does. What the calling thread does is take the event's values and its time and thread; the
 * mapping, encoding and append run on one writer thread ({@link TraceFeed}), in the order the
 * events happened, each event stamped with the time and thread it happened at. Calls made before
 * the SESSION can be written (opening and querying the device, whose answers the SESSION carries)
 * wait in the feed and are written right after it.
 *
 * <p>Empty polls are not recorded one by one: consecutive empty ibv_poll_cq calls on a CQ become one
 * IBV_POLL_CQ event (ret 0, POLLED 0, duration = their summed C time, DURATION = the wall span,
 * MESSAGE = "N empty polls"), written before the next event.
 */
public final class Recorder implements VerbsListener, CmListener, OobObserver, AutoCloseable {
    private final boolean enabled;
    private final TraceFeed feed = new TraceFeed();
    /** The writer thread's: calls mapped as they are written. */
    private final CallMapper calls = new CallMapper();
    /** The calling threads': the data path's calls, read from the binding's reused buffers before the call returns. */
    private final CallMapper dataPath = new CallMapper();
    /** The writer thread's. */
    private final OobEventMapper oobs = new OobEventMapper();
    /** The trace once open: at once when not prepared, else (the writer thread opens it) after {@link #close}. */
    private TraceWriter writer;
    /** The host folder being written, set by {@link #start}. */
    private Path folder;
    /** When {@link #start} was called: the SESSION's time, and the time of the calls heard before it. */
    private long sessionMono = -1;
    /** The trace folder claimed by {@link #prepare}, its queue opening in the background; null once started. */
    private TraceOpening opening;
    private Path outDir;
    /** Events the closed trace holds after a write failed (read back), or -1 before it is closed. */
    private long keptOnDisk = -1;
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
        if (folder != null || opening != null || closed) {
            throw new IllegalStateException("recording already prepared, started or closed");
        }
        this.outDir = outDir;
        opening = TraceOpening.begin(outDir, hostId);
    }

    /**
     * Creates the trace (its SESSION; in the folder {@link #prepare} claimed, if it ran) and writes the
     * calls heard so far. A prepared trace is finished opening by the writer thread, dated now: a
     * failure to open it then is a {@link #failure()} like any failure to write.
     */
    public synchronized void start(Path outDir, SessionInfo session) throws TraceException {
        if (!enabled) {
            return;
        }
        if (folder != null) {
            throw new IllegalStateException("recording already started");
        }
        this.outDir = outDir;
        long mono = System.nanoTime();
        if (opening != null) {
            TraceOpening o = opening;
            opening = null;
            if (!o.folder().equals(TraceLayout.hostFolder(outDir, session.hostId()))) {
                o.close();
                throw new IllegalArgumentException("prepared " + o.folder() + ", started in " + outDir);
            }
            Instant now = Instant.now();
            long wall = now.getEpochSecond() * 1_000_000_000L + now.getNano() - (System.nanoTime() - mono);
            Thread t = Thread.currentThread();
            long threadId = t.getId();
            String threadName = t.getName();
            folder = o.folder();
            sessionMono = mono;
            feed.start(() -> o.start(session, mono, wall, threadId, threadName));
        } else {
            TraceWriter w = TraceWriter.create(outDir, session);
            writer = w;
            folder = w.folder();
            sessionMono = mono;
            feed.start(() -> w);
        }
        // first the calls heard before the SESSION, then the rest as they come
    }

    /** True once the SESSION is written. */
    public synchronized boolean started() {
        return folder != null;
    }

    /** The host folder being written, or null before {@link #start}. */
    public synchronized Path folder() {
        return folder;
    }

    /** Events written so far (SESSION included). */
    public synchronized long eventsWritten() {
        TraceWriter w = writer != null ? writer : feed.writer();
        return w == null ? 0 : w.eventsWritten();
    }

    /**
     * The first failure to write, or null: the trace is incomplete when this is set. A full disk
     * shows as an {@link InternalError} (the kernel's SIGBUS on a write into the mapped queue file).
     */
    public synchronized Throwable failure() {
        TraceFeed.Failure f = feed.failure();
        return f == null ? null : f.cause();
    }

    /**
     * One sentence on the first failure to write, or null: "no space left on OUT (N events kept)"
     * for a full disk or file-size limit, else what failed. The trace keeps those N events.
     */
    public synchronized String failureText() {
        TraceFeed.Failure f = feed.failure();
        if (f == null) {
            return null;
        }
        // the count is known once the trace is closed and read back (a fault can surface after the write)
        String kept = closed ? " (" + (keptOnDisk >= 0 ? keptOnDisk : f.eventsKept()) + " events kept)" : "";
        return noSpace(f.cause()) ? "no space left on " + outDir + kept
                : "cannot write the trace to " + outDir + ": " + f.cause() + kept;
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
    public void writeFailed(Throwable e) {
        feed.failed(e); // later events are dropped: the trace stays readable up to here
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
                emit(w -> {
                    calls.fill(call);
                    calls.writeTo(w);
                });
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

    /** The answer copied out of the reused buffer (a few hundred bytes); mapped on the writer thread. */
    @Override
    public synchronized void onQueryQp(QueuePair qp, QpQueryBuffer answer) {
        if (recording()) {
            long handle = qp.handle();
            int qpNum = qp.qpNum();
            QpAttrMask mask = answer.mask();
            QpAnswer copy = answer.ok() ? answer.toQuery() : null;
            long ret = answer.ret();
            int errno = answer.errno();
            long nanos = answer.durationNanos();
            emit(w -> {
                calls.fillQuery(handle, qpNum, mask, copy, ret, errno, nanos);
                calls.writeTo(w);
            });
        }
    }

    @Override
    public synchronized void onPostSend(QueuePair qp, SendBatch batch) {
        if (recording()) {
            dataPath.fillPostSend(qp, batch);
            call(dataPath.mapped());
        }
    }

    @Override
    public synchronized void onPostRecv(QueuePair qp, RecvBatch batch) {
        if (recording()) {
            dataPath.fillPostRecv(qp, batch);
            call(dataPath.mapped());
        }
    }

    /** False once closed or when discarding: nothing to map. */
    private boolean recording() {
        return !closed && enabled;
    }

    /** A call mapped as a value (rdma_cm's, the data path's). */
    private void call(CallMapper.Mapped m) {
        emit(w -> w.call(m.verb(), m.handle(), m.ret(), m.errno(), m.durationNanos(), m.in(), m.out(), m.wrs()));
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
        if (!recording()) {
            return;
        }
        dataPath.fillPoll(handle, batch);
        call(dataPath.mapped());
        int n = (int) Math.max(0, ret);
        for (int i = 0; i < n && i < batch.count(); i++) {
            Wc wc = new Wc(batch.wrId(i), batch.statusValue(i), batch.opcodeValue(i), Integer.toUnsignedLong(batch.vendorErr(i)),
                    Integer.toUnsignedLong(batch.byteLen(i)), Integer.toUnsignedLong(batch.immData(i)), batch.qpNum(i),
                    batch.srcQp(i), batch.wcFlags(i), batch.pkeyIndex(i), batch.slid(i), batch.sl(i), batch.dlidPathBits(i));
            emit(w -> w.completion(handle, wc));
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
        emit(w -> w.oob(direction, remote, kind, oobs.attrs(message, OobChannel.PROTOCOL_VERSION)));
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

    /** Hands {@code event} to the writer thread, stamped with this moment and this thread. */
    private void emit(Consumer<TraceWriter> event) {
        if (closed || !enabled) {
            return;
        }
        if (emptyCq != 0) {
            flushEmptyPollsNow(); // keep queue order = call order
        }
        // a call heard before the SESSION is dated at the SESSION (it is written after it), as the
        // capture thread's first events always were
        long mono = folder == null ? -1 : System.nanoTime();
        Thread t = Thread.currentThread();
        long threadId = t.getId();
        String threadName = t.getName();
        feed.add(w -> {
            w.stampNext(mono == -1 ? sessionMono : mono, threadId, threadName);
            event.accept(w);
        });
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
        feed.close(); // every event heard so far is written (or the first failure kept) when this returns
        writer = feed.writer();
        if (opening != null) {
            opening.close(); // never started (the capture failed first): leave no empty trace behind
            opening = null;
        }
        if (writer != null) {
            try {
                if (feed.failure() != null) {
                    // A write failed (a full disk faults in the mapped file, possibly inside Chronicle's
                    // document close, leaving its appender half-closed): write nothing more. The trace
                    // reads as TRUNCATED, and the console says why.
                    writer.closeTruncated();
                } else {
                    writer.close();
                }
            } catch (RuntimeException | InternalError | AssertionError e) {
                feed.failed(e); // the END could not be written: the trace reads as TRUNCATED
            }
            TraceFeed.Failure f = feed.failure();
            if (f != null) {
                keptOnDisk = eventsOnDisk(writer.folder(), f.eventsKept());
            }
        }
    }
}
