package io.rdmatrace.trace.store;

import io.rdmatrace.trace.model.AsyncEvent;
import io.rdmatrace.trace.model.AttrEntries;
import io.rdmatrace.trace.model.AttrRow;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.codec.BatchDocument;
import io.rdmatrace.trace.codec.ByteSink;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.CmEvent;
import io.rdmatrace.trace.model.CompletionEvent;
import io.rdmatrace.trace.model.CountersEvent;
import io.rdmatrace.trace.codec.EventEncoder;
import io.rdmatrace.trace.model.EventKind;
import io.rdmatrace.trace.model.FormatVersion;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.model.PacketEvent;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.model.TraceEnding;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.model.Wc;
import io.rdmatrace.trace.model.WorkRequest;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.core.io.ReferenceOwner;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import net.openhft.chronicle.wire.Wire;

/**
 * Writes one host's trace: a Chronicle Queue in {@code outDir/<host-id>/}, one raw binary
 * document per event. The SESSION is written by {@link #create}, the END by {@link #close()}.
 * The writer assigns sequence numbers (0 for the SESSION, then +1) and timestamps.
 *
 * <p>Thread-safe: appends are serialized on this writer (one Chronicle appender), so sequence
 * order is queue order. Each append method returns the event's sequence number.
 *
 * <p>Wall-clock time is derived as (wall clock at create) + (monotonic time since create), so it
 * never jumps backwards inside one trace; {@code monoNanos} is {@link System#nanoTime()}.
 */
public final class TraceWriter implements AutoCloseable {

    private final Path folder;
    private final String hostId;
    private final SingleChronicleQueue queue;
    /** The queue and its appender, closed together by {@link #releaseQueue()}. */
    private final OpenQueue open;
    /** Held from create to close: no second writer can open this folder meanwhile. */
    private final WriterLock lock;
    private final ExcerptAppender appender;
    private final long pid;
    private final LongSupplier clock;
    private final long monoAtStart;
    private final long wallAtStart;
    private final ByteSink sink = new ByteSink(512);
    /** The batch document being gathered ({@link #beginBatch}), and where each of its events starts and ends. */
    private final ByteSink batch = new ByteSink(BatchDocument.MAX_BYTES + 1024);
    private int[] batchStarts = new int[256];
    private int[] batchLengths = new int[256];
    private int batchEvents;
    private boolean batching;
    /** Events in the queue (SESSION included): the sequence number events gathered in a batch go back to if it fails. */
    private long written;
    /** Faults the queue file's pages in ahead of the appends. */
    private final PageToucher toucher;
    /** Bytes appended so far, roughly (document headers, padding and index aside): when to signal the toucher. */
    private long bytesAppended;
    private long nextSeq;
    /** Backs the queue file's pages ahead of the appends: a full disk is refused here, not faulted on. */
    private final SpaceReserve reserve = new SpaceReserve();
    /**
     * Bytes kept backed past the write position: more than a signal step of appends, a large
     * event and one index array Chronicle may write before the next event (its size: 8 bytes per entry).
     */
    private final long keepBacked;
    /** Once the disk refused more: set when the next event does not fit in what is backed. */
    private TraceFullException full;
    private boolean closed;
    // a write faulted inside Chronicle's document close: no further append, no END (reads TRUNCATED)
    private boolean broken;
    // the next event's origin when it happened elsewhere (a recorded program): -1 = now, here
    private long stampMono = -1;
    private long stampThread;
    private String stampThreadName = "";

    TraceWriter(Path folder, String hostId, OpenQueue open, WriterLock lock, long pid, LongSupplier clock,
                        long monoAtStart, long wallAtStart) {
        this.pid = pid;
        this.folder = folder;
        this.lock = lock;
        this.hostId = hostId;
        this.open = open;
        this.queue = open.queue();
        this.appender = open.appender();
        this.keepBacked = 2 * (1L << PageToucher.STEP_SHIFT) + BIG_EVENT + 8L * queue.indexCount() + PageToucher.PAGE_BYTES;
        this.toucher = new PageToucher("rdmatrace-trace-touch", this::aheadOfAppends);
        this.clock = clock;
        this.monoAtStart = monoAtStart;
        this.wallAtStart = wallAtStart;
    }

    /**
     * Creates {@code outDir/<session.hostId()>/} and its queue and writes the SESSION.
     *
     * @throws TraceException ALREADY_EXISTS when that folder already holds a trace (never
     *                        appended to: one queue is one capture), LOCKED when another live
     *                        writer holds the folder's {@link WriterLock}, BAD_HOST_ID, IO
     */
    public static TraceWriter create(Path outDir, SessionInfo session) throws TraceException {
        return create(outDir, session, ProcessHandle.current().pid());
    }

    /**
     * As {@link #create(Path, SessionInfo)} for events that another process produced (a program
     * recorded by the tracing libibverbs): every event header carries {@code pid}.
     */
    public static TraceWriter create(Path outDir, SessionInfo session, long pid) throws TraceException {
        return create(outDir, session, pid, System::nanoTime, -1);
    }

    /**
     * As {@link #create(Path, SessionInfo, long)} with another monotonic clock and the wall-clock
     * time it starts at: for generators of synthetic traces that simulate time (several hosts,
     * skewed clocks). An event's {@code monoNanos} is {@code clock}'s value, its {@code wallNanos}
     * {@code wallNanosAtStart} plus the clock's advance since creation. {@code wallNanosAtStart} -1
     * reads the wall clock now, together with {@code clock}.
     */
    public static TraceWriter create(Path outDir, SessionInfo session, long pid, LongSupplier clock, long wallNanosAtStart)
            throws TraceException {
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(clock, "clock");
        // the open runs here; TraceOpening.begin runs it on a background thread instead
        return TraceOpening.claim(outDir, session.hostId()).start(session, pid, clock, wallNanosAtStart);
    }

    /** The host folder this writer writes to. */
    public Path folder() {
        return folder;
    }

    public String hostId() {
        return hostId;
    }

    /**
     * Events in the queue so far, SESSION included (= the next sequence number outside a batch;
     * the events of a batch count once it is written).
     */
    public synchronized long eventsWritten() {
        return written;
    }

    /**
     * From now on, gathers events into batch documents ({@link BatchDocument}) instead of a
     * document each, writing one out whenever it reaches {@link BatchDocument#MAX_BYTES}, until
     * {@link #endBatch}. For a thread that writes many events in one go (a recorder's writer
     * draining its queue): the gathered events are in memory, not in the queue, until the batch is
     * written, so a batch ends before the writer waits for more. Nested calls are one batch.
     */
    public synchronized void beginBatch() {
        batching = true;
    }

    /** Writes the events gathered since {@link #beginBatch} and writes a document per event again. */
    public synchronized void endBatch() {
        batching = false;
        writeBatch();
    }

    synchronized void writeSession(SessionInfo session) {
        sink.reset();
        EventEncoder.kind(sink, EventKind.SESSION);
        EventEncoder.sessionPrefix(sink, FormatVersion.CURRENT);
        writeHeader(sink);
        EventEncoder.session(sink, session);
        EventEncoder.seal(sink, 0);
        writeDocument(sink.array(), 0, sink.length());
        nextSeq++;
        written++;
    }

    /** Records one verbs call; see {@link CallEvent} for what each argument means. */
    public synchronized long call(Verb verb, long handle, int ret, int errno, long durationNanos, Attrs in, Attrs out) {
        return call(verb, handle, ret, errno, durationNanos, in, out, List.of());
    }

    /**
     * Records one verbs call with a post's whole work-request chain ({@code wrs} empty when
     * {@code in} describes the post alone; see {@link CallEvent#wrs()}).
     */
    public synchronized long call(Verb verb, long handle, int ret, int errno, long durationNanos, Attrs in, Attrs out,
                                  List<WorkRequest> wrs) {
        return encodeCall(verb, handle, ret, errno, durationNanos, in, out, wrs);
    }

    /**
     * As {@link #call(Verb, long, int, int, long, Attrs, Attrs, List)} with the attributes still in
     * their builders (the recorder's hot path: the event's bytes come straight from the builders,
     * the same bytes their built sets would give). The builders are left sorted, entries unchanged.
     */
    public synchronized long call(Verb verb, long handle, int ret, int errno, long durationNanos, Attrs.Builder in,
                                  Attrs.Builder out, List<WorkRequest> wrs) {
        Objects.requireNonNull(in, "in").sortInPlace();
        Objects.requireNonNull(out, "out").sortInPlace();
        return encodeCall(verb, handle, ret, errno, durationNanos, in, out, wrs);
    }

    /**
     * As {@link #call(Verb, long, int, int, long, Attrs, Attrs)} with the attributes in rows (the
     * recorder's largest calls: the same bytes the rows' {@link AttrRow#toAttrs()} would give).
     */
    public synchronized long call(Verb verb, long handle, int ret, int errno, long durationNanos, AttrRow in,
                                  AttrRow out) {
        Objects.requireNonNull(verb, "verb");
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(out, "out");
        begin(EventKind.CALL);
        EventEncoder.call(sink, verb, handle, ret, errno, durationNanos, in, out);
        return finish();
    }

    private long encodeCall(Verb verb, long handle, int ret, int errno, long durationNanos, AttrEntries in,
                            AttrEntries out, List<WorkRequest> wrs) {
        Objects.requireNonNull(verb, "verb");
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(wrs, "wrs");
        if (!wrs.isEmpty() && !WorkRequest.isPost(verb)) {
            throw new IllegalArgumentException(verb.function() + " has no work requests");
        }
        begin(EventKind.CALL);
        EventEncoder.call(sink, verb, handle, ret, errno, durationNanos, in, out, wrs);
        return finish();
    }

    /** Records one polled work completion of CQ {@code cq}. */
    public synchronized long completion(long cq, Wc wc) {
        Objects.requireNonNull(wc, "wc");
        begin(EventKind.COMPLETION);
        EventEncoder.completion(sink, cq, wc);
        return finish();
    }

    /** Records one asynchronous event; {@code qpNum} is -1 unless it is a QP event. */
    public synchronized long async(int eventType, long element, int qpNum) {
        return append(EventKind.ASYNC_EVENT, b -> EventEncoder.async(b, eventType, element, qpNum));
    }

    /** Records one rdma_cm event returned to the program ({@link CmEvent}). */
    public synchronized long cmEvent(int eventType, int status, long id, Attrs attrs) {
        Objects.requireNonNull(attrs, "attrs");
        return append(EventKind.CM_EVENT, b -> EventEncoder.cm(b, eventType, status, id, attrs));
    }

    /**
     * Records one packet softverbs handled ({@link PacketEvent}); the header fields of
     * {@code packet} are ignored (stamp its time with {@link #stampNext}).
     */
    public synchronized long packet(PacketEvent packet) {
        Objects.requireNonNull(packet, "packet");
        return append(EventKind.PACKET, b -> EventEncoder.packet(b, packet));
    }

    /** Records one out-of-band message sent to or received from {@code peer}. */
    public synchronized long oob(OobEvent.Direction direction, String peer, OobEvent.Kind kind, Attrs attrs) {
        Objects.requireNonNull(direction, "direction");
        Objects.requireNonNull(peer, "peer");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(attrs, "attrs");
        return append(EventKind.OOB, b -> EventEncoder.oob(b, direction, peer, kind, attrs));
    }

    /** Records a scenario step mark / verdict. */
    public synchronized long mark(String step, MarkEvent.Verdict verdict, String text) {
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(text, "text");
        return append(EventKind.MARK, b -> EventEncoder.mark(b, step, verdict, text));
    }

    /** Records a device counter snapshot. */
    public synchronized long counters(String device, CountersEvent.Phase phase, List<CountersEvent.Counter> counters) {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(counters, "counters");
        return append(EventKind.COUNTERS, b -> EventEncoder.counters(b, device, phase, counters));
    }

    /**
     * Writes the payload of {@code e} as a new event: its header is ignored and a fresh one is
     * assigned (use for generators and tests; the recorder calls the typed methods). SESSION and
     * END are written by the writer itself and are refused here.
     */
    public long append(TraceEvent e) {
        Objects.requireNonNull(e, "event");
        if (e instanceof CallEvent c) {
            return call(c.verb(), c.handle(), c.ret(), c.errno(), c.durationNanos(), c.in(), c.out(), c.wrs());
        } else if (e instanceof CompletionEvent c) {
            return completion(c.cq(), c.wc());
        } else if (e instanceof AsyncEvent a) {
            return async(a.eventType(), a.element(), a.qpNum());
        } else if (e instanceof OobEvent o) {
            return oob(o.direction(), o.peer(), o.oobKind(), o.attrs());
        } else if (e instanceof MarkEvent m) {
            return mark(m.step(), m.verdict(), m.text());
        } else if (e instanceof CountersEvent c) {
            return counters(c.device(), c.phase(), c.counters());
        } else if (e instanceof CmEvent c) {
            return cmEvent(c.eventType(), c.status(), c.id(), c.attrs());
        } else if (e instanceof PacketEvent p) {
            return packet(p);
        }
        throw new IllegalArgumentException(e.kind() + " events are written by the writer itself (create/close)");
    }

    /**
     * Gives the next event the time and thread it happened at in the recorded program, instead of
     * now and the writing thread: {@code monoNanos} on the CLOCK_MONOTONIC scale of
     * {@link System#nanoTime()}, {@code threadId} the program's thread (Linux tid).
     */
    public synchronized void stampNext(long monoNanos, long threadId, String threadName) {
        Objects.requireNonNull(threadName, "threadName");
        this.stampMono = monoNanos;
        this.stampThread = threadId;
        this.stampThreadName = threadName;
    }

    /**
     * Closes the queue without an END event: the recorded program died before it could finish, so
     * the trace reads as TRUNCATED (everything written so far stays readable). Idempotent.
     */
    public synchronized void closeTruncated() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (!broken) {
                writeBatch(); // the program's events before it died are in the trace all the same
            }
        } finally {
            try {
                releaseQueue();
            } finally {
                lock.close(); // no live writer: readers say TRUNCATED, not RECORDING, from now on
            }
        }
    }

    /** Stops the toucher (it reads through the appender), then closes the appender and the queue. */
    private void releaseQueue() {
        toucher.stop();
        try {
            open.close();
        } finally {
            reserve.close();
        }
    }

    /** Writes the END event (a clean close, {@link TraceEnding#FINISHED}) and closes the queue. Idempotent. */
    @Override
    public void close() {
        close(TraceEnding.FINISHED);
    }

    /** Writes the END event saying how the recording ended and closes the queue. Idempotent. */
    public synchronized void close(TraceEnding ending) {
        Objects.requireNonNull(ending, "ending");
        if (closed) {
            return;
        }
        try {
            if (!broken) {
                batching = false;
                writeBatch();
                long count = nextSeq;
                append(EventKind.END, b -> EventEncoder.end(b, count, ending));
            }
        } finally {
            closed = true;
            try {
                releaseQueue();
            } finally {
                lock.close();
            }
        }
    }

    /** For the toucher (and tests): the mapped store the appends write to (reserved for {@code owner}) and where. */
    public synchronized PageToucher.Ahead aheadOfAppends(ReferenceOwner owner) {
        if (closed || broken) {
            return null;
        }
        Wire wire = appender.wire();
        if (wire == null) {
            return null;
        }
        Bytes<?> bytes = wire.bytes();
        BytesStore<?, ?> store = bytes.bytesStore();
        if (store == null) {
            return null;
        }
        long position = bytes.writePosition();
        if (reserve.cutShort(appender.currentFile())) {
            return null; // touching the cut-off pages would fault where the JVM cannot recover
        }
        // the toucher's thread backs the pages ahead, so the appends rarely have to (under this lock)
        reserve.ensure(appender.currentFile(), position, PageToucher.LEAD + keepBacked);
        store.reserve(owner);
        return new PageToucher.Ahead(store, position, reserve.backedTo());
    }

    /** The toucher, for tests. */
    public PageToucher toucher() {
        return toucher;
    }

    /** Writes the payload of one event between its kind+header and its check value. */
    private interface Payload {
        void write(ByteSink b);
    }

    private long append(EventKind kind, Payload payload) {
        begin(kind);
        payload.write(sink);
        return finish();
    }

    /** Starts an event in the sink: kind byte and header (the hot paths write their payload inline, no closure). */
    private void begin(EventKind kind) {
        if (closed) {
            throw new IllegalStateException("trace writer for " + folder + " is closed");
        }
        if (broken) {
            throw new IllegalStateException("trace writer for " + folder + " failed a write; it writes nothing more");
        }
        sink.reset();
        EventEncoder.kind(sink, kind);
        writeHeader(sink);
    }

    /** Seals the event begun by {@link #begin} and appends it (or gathers it); returns its sequence number. */
    private long finish() {
        EventEncoder.seal(sink, 0);
        long seq = nextSeq;
        if (batching) {
            nextSeq++; // taken once gathered; a failed batch gives the numbers back (writeBatch)
            gather();
        } else {
            writeDocument(sink.array(), 0, sink.length());
            written++;
            nextSeq++;
        }
        return seq;
    }

    /** Adds the sealed event in the sink to the batch; writes the batch out once it is large. */
    private void gather() {
        if (batchEvents == 0) {
            BatchDocument.begin(batch);
        }
        if (batchEvents == batchStarts.length) {
            batchStarts = Arrays.copyOf(batchStarts, batchEvents * 2);
            batchLengths = Arrays.copyOf(batchLengths, batchEvents * 2);
        }
        batchLengths[batchEvents] = sink.length();
        batchStarts[batchEvents] = BatchDocument.add(batch, sink.array(), sink.length());
        batchEvents++;
        if (batch.length() >= BatchDocument.MAX_BYTES) {
            writeBatch();
        }
    }

    /**
     * Writes the gathered events: one document for several, a plain document for one. When the
     * disk refuses the batch, its events are written one by one while they fit, so a full disk
     * keeps as many events as it would have without batches. On any failure the events not
     * written give back their sequence numbers: the queue never has a gap.
     */
    private void writeBatch() {
        int n = batchEvents;
        if (n == 0) {
            return;
        }
        batchEvents = 0;
        byte[] d = batch.array();
        try {
            if (n == 1) {
                writeDocument(d, batchStarts[0], batchLengths[0]);
            } else {
                refuseIfCutShort();
                try {
                    writeDocument(d, 0, batch.length());
                } catch (TraceFullException e) {
                    for (int i = 0; i < n; i++) {
                        writeDocument(d, batchStarts[i], batchLengths[i]);
                        written++;
                    }
                    return;
                }
            }
            written += n;
        } finally {
            nextSeq = written;
        }
    }

    /**
     * Before a batch document: a file cut short under the writer would take the batch into the
     * cut-off pages, and Chronicle's header and index updates after it (a SIGBUS there ends the
     * JVM), so it is refused as a full disk, in time, and nothing more goes into it. One fstat.
     */
    private void refuseIfCutShort() {
        if (reserve.cutShort(appender.currentFile())) {
            broken = true;
            throw new TraceFullException(folder, written, new java.io.IOException(
                    "the queue file " + appender.currentFile() + " was cut short under the writer"));
        }
    }

    /**
     * Copies the encoded event into one Chronicle document in a single bulk write.
     *
     * <p>A write the file system cannot back (a full disk under the sparse queue file, a file cut
     * short under the writer) faults with SIGBUS, which the JVM raises as an {@link InternalError}
     * at the thread's next check for asynchronous exceptions: here, or later in the caller.
     */
    private void writeDocument(byte[] d, int from, int length) {
        if (full != null) {
            fitOrRefuse(length);
        }
        long step = bytesAppended >>> PageToucher.STEP_SHIFT;
        boolean first = bytesAppended == 0;
        bytesAppended += length + 4;
        DocumentContext dc = appender.writingDocument();
        try {
            dc.wire().bytes().write(d, from, length);
        } catch (RuntimeException | Error e) {
            dc.rollbackOnClose(); // never leave half an event in the queue
            closeQuietly(dc);
            throw e;
        }
        try {
            dc.close();
        } catch (RuntimeException | Error e) {
            broken = true; // the fault came inside the close: the appender cannot be trusted again
            throw e;
        }
        if (first || bytesAppended >>> PageToucher.STEP_SHIFT != step || length > BIG_EVENT / 2) {
            keepBacked();
            // after the write: the first one maps the queue file, whose pages the toucher then reaches
            toucher.signal();
        }
    }

    /** Largest document the backed reserve is sized for at once (a longer one makes its own check). */
    private static final int BIG_EVENT = 2 * BatchDocument.MAX_BYTES;

    /**
     * Keeps {@link #keepBacked} bytes backed past the write position (the toucher usually has; a
     * thread that lags is caught up here). When the disk refuses, what is backed is still written
     * into until the next event would not fit ({@link #fitOrRefuse}).
     */
    private void keepBacked() {
        long position = writePosition();
        if (position >= 0 && !reserve.ensure(appender.currentFile(), position, keepBacked) && full == null
                && reserve.failure() != null) {
            full = new TraceFullException(folder, written, reserve.failure());
        }
    }

    /** After the disk refused: the next event fits into the backed pages with an index array to spare, or is refused. */
    private void fitOrRefuse(int length) {
        long position = writePosition();
        long need = length + 8L + 8L * queue.indexCount() + PageToucher.PAGE_BYTES;
        if (position < 0 || position + need > reserve.backedTo()) {
            throw new TraceFullException(folder, written, reserve.failure());
        }
    }

    /** The appender's write position (a file offset), or -1 before its first write. */
    private long writePosition() {
        Wire wire = appender.wire();
        return wire == null ? -1 : wire.bytes().writePosition();
    }

    private static void closeQuietly(DocumentContext dc) {
        try {
            dc.close();
        } catch (RuntimeException | Error e) {
            // the write already failed; that failure is the one to report
        }
    }

    private void writeHeader(ByteSink b) {
        if (stampMono >= 0) {
            long mono = stampMono;
            stampMono = -1;
            EventEncoder.header(b, nextSeq, mono, wallAtStart + (mono - monoAtStart), pid, stampThread, stampThreadName);
            return;
        }
        long mono = clock.getAsLong();
        Thread t = Thread.currentThread();
        EventEncoder.header(b, nextSeq, mono, wallAtStart + (mono - monoAtStart), pid, t.getId(), t.getName());
    }
}
