package io.rdmatrace.capture.program;

import io.rdmatrace.capture.record.CallMapper;
import io.rdmatrace.capture.record.VerbAttrs;
import io.rdmatrace.capture.wire.SoftverbsWireLog;
import io.rdmatrace.capture.wire.WireEvents;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CountersEvent;
import io.rdmatrace.trace.model.GidEntry;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.model.TraceEnding;
import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.trace.store.TraceFullException;
import io.rdmatrace.trace.store.TraceWriter;
import io.rdmatrace.tracer.RingFile;
import io.rdmatrace.tracer.RingLayout;
import io.rdmatrace.tracer.RingReader;
import io.rdmatrace.tracer.RingRecord;
import io.rdmatrace.verbs.SlotStructs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * The trace of one recorded process: decodes its ring's calls into events and writes them. The
 * SESSION is written when the program first opens a device (the tracer's DEVICE_INFO / PORT_INFO /
 * GID_INFO records follow that open); events before it are held until then. A process that never
 * opens a device leaves no trace folder.
 */
final class ProgramTrace {
    /** Where and as what a process's trace is written. */
    interface Folders {
        /** The host id for this process's trace (the first process to open a device gets the plain one). */
        String hostIdFor(long pid);

        /** Hears, once, the sentence saying this trace cannot be written on (a full disk) while the program runs on. */
        default void writeFailed(String sentence) {
        }
    }

    private final RingReader reader;
    private final Path outDir;
    private final Folders folders;
    private final String toolVersion;
    private final ControlMapper control;
    private final DataPathSummary summary;
    private final List<ProgramEvent> held = new ArrayList<>();
    private final Map<Long, String> threadNames = new HashMap<>();
    /**
     * Most bytes of ring records kept undecoded. Decoding and writing an event costs the JVM a few
     * microseconds of CPU; done while the program runs, on a machine whose cores the program keeps
     * busy, every drain pass took the CPU from it (recorded ibv_rc_pingpong 2-5x slower than bare).
     * Copying a pass's records out of the ring costs far less (their bytes, no object per record).
     * 64 MiB holds about 400,000 data-path calls: a short program's whole run.
     */
    static final long DEFER_BYTES = 64L << 20;
    /**
     * Longest time a copied call waits undecoded while the program keeps calling: the trace is a
     * flight recorder, so what the program did must be on disk (readable by another process, kept
     * if record is killed) within about a second. A program that pauses (a pass finds its ring
     * empty: it waits, or hangs) has everything decoded at once. Decoding a batch at once keeps the
     * caches warm for it (a 2 ms pass found them cold: 8-10 us per event instead of 2.4), and runs
     * at the drain's lowered priority.
     */
    static final long FLUSH_NANOS = flushNanos(System.getenv("RDMATRACE_FLUSH_MS"));

    /** 0.5 s; RDMATRACE_FLUSH_MS=N (1 ms to 1 h) changes it, to measure what writing during the run costs. */
    static long flushNanos(String millis) {
        try {
            long ms = millis == null ? 500 : Long.parseLong(millis.strip());
            return Math.max(1, Math.min(ms, 3_600_000L)) * 1_000_000L;
        } catch (NumberFormatException e) {
            return 500_000_000L;
        }
    }

    /** A pass's records, and when they were copied. */
    private record Copied(RingReader.Pass pass, long copiedNanos) {
    }

    private final ArrayDeque<Copied> deferred = new ArrayDeque<>();
    private long deferredBytes;
    /** This process's host id, taken when it first opened a device. */
    private String hostId;
    private TraceWriter writer;
    /** The trace while it is created on another thread (even after {@link TraceWarmUp}, creating a
     * queue can take longer than a fast program takes to fill its ring); null before and after. */
    private FutureTask<TraceWriter> creating;
    /** Calls drained while the trace is created, taken once it exists: the ring is emptied meanwhile. */
    private final List<RingReader.Call> waiting = new ArrayList<>();
    private SessionParts session;
    private long events;
    private long unmapped;
    /** The program made rdma_* calls: its trace is written even if it never opened a device. */
    private boolean cmSeen;
    /**
     * Set when the trace could not be written (the disk filled, the folder could not be made):
     * from then on the ring is only emptied, nothing decoded, and the trace ends TRUNCATED. The
     * program is not touched: it runs on unrecorded.
     */
    private String writeFailure;

    /** The device facts gathered for the SESSION. */
    private static final class SessionParts {
        Attrs device;
        final List<Attrs> ports = new ArrayList<>();
        final List<GidEntry> gids = new ArrayList<>();
    }

    ProgramTrace(RingFile ring, Path outDir, Folders folders, String toolVersion) {
        this.reader = new RingReader(ring);
        this.outDir = outDir;
        this.folders = folders;
        this.toolVersion = toolVersion;
        this.control = new ControlMapper(ring.realLibrary());
        this.summary = ring.summaryMode() ? new DataPathSummary() : null;
    }

    public RingFile ring() {
        return reader.ring();
    }

    /** The folder written, or null while the program has not opened a device. */
    Path folder() {
        return writer == null ? null : writer.folder();
    }

    boolean openedDevice() {
        return session != null;
    }

    /**
     * Empties the ring of what the program recorded since the last call; true when there was
     * something. The records are kept as copied and decoded and written in batches: when the
     * program pauses (this pass found nothing new), when the oldest has waited {@link #FLUSH_NANOS},
     * oldest first once more than {@link #DEFER_BYTES} is kept, and by {@link #finish}.
     */
    boolean drain() throws IOException, TraceException {
        RingReader.Pass pass = reader.copy(hostId == null);
        if (writeFailure != null) {
            return !pass.isEmpty(); // emptied so the program's ring keeps room; nothing more is written
        }
        if (creating != null && creating.isDone()) {
            created();
        }
        long now = System.nanoTime();
        if (!pass.isEmpty()) {
            if (hostId == null && pass.deviceInfo()) {
                hostId = folders.hostIdFor(reader.ring().pid());   // in the order the processes opened a device
            }
            deferred.add(new Copied(pass, now));
            deferredBytes += pass.bytes();
        }
        while (deferredBytes > DEFER_BYTES) {
            takeDeferred();
        }
        // the trace itself is created by the first decode: a program that opens its device and goes
        // straight to its data path does not share the CPUs with Chronicle's set-up either
        if (!deferred.isEmpty() && (pass.isEmpty() || now - deferred.peek().copiedNanos() >= FLUSH_NANOS)) {
            while (!deferred.isEmpty()) {
                takeDeferred();
            }
        }
        return !pass.isEmpty();
    }

    /** Decodes one copied pass, its events gathered into batch documents and written by the end of it. */
    private void takeDeferred() throws TraceException {
        Copied c = deferred.poll();
        deferredBytes -= c.pass().bytes();
        TraceWriter w = writer;
        if (w != null && writeFailure == null) {
            w.beginBatch();
        }
        try {
            for (RingReader.Call call : reader.parse(c.pass())) {
                take(call);
            }
        } finally {
            if (w != null) {
                endBatch(w);
            }
        }
    }

    private void endBatch(TraceWriter w) {
        try {
            w.endBatch();
        } catch (RuntimeException | InternalError e) {
            writeFailed(e);
        }
    }

    private void take(RingReader.Call call) throws TraceException {
        if (writeFailure != null) {
            return;
        }
        if (creating != null) {
            waiting.add(call);
            return;
        }
        RingRecord r = call.first();
        long tid = r.tid();
        switch (r.kind()) {
            case DEVICE_INFO -> {
                if (session == null) {
                    session = new SessionParts();
                    String fw = r.text(RingLayout.Text.values().length);
                    int base = 2 * RingLayout.Text.values().length + RingLayout.DeviceInfo.values().length;
                    session.device = VerbAttrs.device(r.text(0), SlotStructs.deviceAttr(r.slots(), r.at(base), fw));
                }
                return;
            }
            case PORT_INFO -> {
                if (session != null && writer == null && r.ret() == 0) {
                    Attrs.Builder p = Attrs.builder();
                    VerbAttrs.port(p, r.pInt(0), SlotStructs.portAttr(r.slots(), r.at(RingLayout.Port.values().length)));
                    session.ports.add(p.build());
                }
                return;
            }
            case GID_INFO -> {
                if (session != null && writer == null && r.ret() == 0) {
                    var e = SlotStructs.gidEntry(r.slots(), r.at(0));
                    session.gids.add(new GidEntry(e.portNum(), e.gidIndex(), ControlMapper.gidText(e.gid()),
                            Math.max(0, e.gidType().value())));
                }
                return;
            }
            default -> {
            }
        }
        if (session != null && writer == null) {
            startTrace(true);
            waiting.add(call);
            return;
        }
        switch (r.kind()) {
            case IBV_POST_SEND, IBV_POST_RECV, IBV_POST_SRQ_RECV -> {
                if (summary == null || !summary.post(r.kind(), call.records())) {
                    emit(new ProgramEvent.Call(r.monoNanos(), tid, DataPathMapper.post(r.kind(), call.records())));
                }
            }
            case IBV_POLL_CQ -> {
                if (summary == null) {
                    DataPathMapper.poll(call.records(), tid, this::emitUnchecked);
                } else {
                    summary.poll(call.records(), tid, this::emitUnchecked);
                }
            }
            case RDMA_CALL -> {
                cmSeen = true;
                CallMapper.Mapped m = CmMapper.call(r);
                if (m == null) {
                    unmapped++;
                } else {
                    emit(new ProgramEvent.Call(r.monoNanos(), tid, m));
                }
            }
            case RDMA_CM_EVENT -> {
                cmSeen = true;
                emit(CmMapper.event(r, tid));
            }
            case IBV_GET_ASYNC_EVENT -> {
                if (r.ret() == 0) {
                    var e = SlotStructs.asyncEvent(r.slots(), r.at(0));
                    long element = e.elementHandle() != 0 ? e.elementHandle() : e.portNum();
                    emit(new ProgramEvent.Async(r.monoNanos(), tid, e.eventType().value(), element, e.qpNum()));
                }
            }
            default -> {
                CallMapper.Mapped m = control.map(r);
                if (m == null) {
                    unmapped++;
                } else {
                    emit(new ProgramEvent.Call(r.monoNanos(), tid, m));
                }
            }
        }
    }

    private void emitUnchecked(ProgramEvent e) {
        try {
            emit(e);
        } catch (TraceException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private void emit(ProgramEvent e) throws TraceException {
        if (writer == null) {
            held.add(e);
            return;
        }
        write(e);
    }

    private void write(ProgramEvent e) {
        if (writeFailure != null) {
            return;
        }
        try {
            write(writer, e, threadName(e.tid()));
            events++;
        } catch (RuntimeException | InternalError ex) {
            writeFailed(ex);
        }
    }

    /**
     * The trace cannot be written on: one sentence (where, after how many events), said at once
     * to {@link Folders#writeFailed}; the rest of the run is not recorded. A full disk is a
     * {@link TraceFullException} (the writer backs its pages ahead); an InternalError is the
     * JVM's report of a SIGBUS in a mapped page the file system could not back after all.
     */
    private void writeFailed(Throwable ex) {
        if (writeFailure != null) {
            return;
        }
        long pid = reader.ring().pid();
        String what = noSpace(ex) ? "no space left on " + outDir : "cannot write the trace to " + outDir + " (" + ex.getMessage() + ")";
        writeFailure = what + (writer == null ? ": no trace of process " + pid + " could be written"
                : ": " + writer.folder() + " ends after " + writer.eventsWritten() + " events (TRUNCATED)")
                + "; process " + pid + " runs on unrecorded to its end";
        deferred.clear();
        deferredBytes = 0;
        waiting.clear();
        held.clear();
        folders.writeFailed(writeFailure);
    }

    /** What a full file system or a file-size limit looks like through the writer. */
    static boolean noSpace(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            String m = String.valueOf(c.getMessage());
            if (c instanceof TraceFullException || c instanceof InternalError && m.contains("unsafe memory access")
                    || m.contains("No space left") || m.contains("File too large") || m.contains("Disk quota")) {
                return true;
            }
        }
        return false;
    }

    /** Writes one decoded event as it happened in the program (its time and thread). */
    static void write(TraceWriter writer, ProgramEvent e, String threadName) {
        writer.stampNext(e.monoNanos(), e.tid(), threadName);
        if (e instanceof ProgramEvent.Call c) {
            CallMapper.Mapped m = c.call();
            writer.call(m.verb(), m.handle(), m.ret(), m.errno(), m.durationNanos(), m.in(), m.out(), m.wrs());
        } else if (e instanceof ProgramEvent.Completion c) {
            writer.completion(c.cq(), c.wc());
        } else if (e instanceof ProgramEvent.Async a) {
            writer.async(a.eventType(), a.element(), a.qpNum());
        } else if (e instanceof ProgramEvent.Cm c) {
            writer.cmEvent(c.eventType(), c.status(), c.id(), c.attrs());
        }
    }

    /**
     * Creates the trace and writes its SESSION; {@code async}: on another thread, while the drain
     * goes on emptying the ring into {@link #waiting} (a program that opens its device and goes
     * straight to its data path would otherwise fill its ring while Chronicle starts).
     */
    private void startTrace(boolean async) throws TraceException {
        RingFile ring = reader.ring();
        Map<String, String> overrides = new LinkedHashMap<>();
        overrides.put("pid", Long.toString(ring.pid()));
        overrides.put("data-path", ring.summaryMode() ? "summary" : "full");
        for (String kv : ring.environment()) {
            int eq = kv.indexOf('=');
            if (eq > 0) {
                overrides.put("env." + kv.substring(0, eq), kv.substring(eq + 1));
            }
        }
        if (hostId == null) {
            hostId = folders.hostIdFor(ring.pid());
        }
        SessionInfo info = new SessionInfo(toolVersion, hostId, String.join(" ", ring.commandLine()),
                ring.realLibrary(), SessionInfo.PROGRAM_SCENARIO, overrides, session.device, session.ports,
                session.gids);
        creating = new FutureTask<>(() -> TraceWriter.create(outDir, info, ring.pid()));
        if (async) {
            Thread t = new Thread(creating, "rdmatrace-create-" + ring.pid());
            t.setDaemon(true);
            t.start();
        } else {
            creating.run();
            created();
        }
    }

    /** The trace exists (or could not be created): writes what was held and takes what waited. */
    private void created() throws TraceException {
        FutureTask<TraceWriter> f = creating;
        creating = null;
        try {
            writer = f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TraceException(TraceException.Problem.IO, outDir, "interrupted while creating the trace", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof TraceException t && (t.problem() != TraceException.Problem.IO || !noSpace(t))) {
                throw t;
            }
            if (!(cause instanceof TraceException) && !noSpace(cause)) {
                throw new IllegalStateException(cause);
            }
            writeFailed(cause); // the disk was full before the SESSION fitted
            return;
        }
        for (ProgramEvent e : held) {
            write(e);
        }
        held.clear();
        List<RingReader.Call> calls = List.copyOf(waiting);
        waiting.clear();
        for (RingReader.Call call : calls) {
            take(call);
        }
    }

    /** Drains what is left and closes the trace with an END saying {@code ending}, or without END (TRUNCATED) if null. */
    RecordedTrace finish(TraceEnding ending, List<SoftverbsWireLog> wire) throws IOException, TraceException {
        drain();
        if (writeFailure != null) {
            return failedFinish();
        }
        while (!deferred.isEmpty()) {
            takeDeferred();
        }
        for (RingReader.Call call : reader.leftovers()) {
            take(call);
        }
        if (creating != null) {
            created();   // waits for it
        }
        if (writer == null && cmSeen) {
            // an rdma_cm program that failed before any device was opened (no rdma_cm, no address)
            session = new SessionParts();
            session.device = Attrs.EMPTY;
            startTrace(false);
        }
        if (summary != null && writer != null) {
            summary.flush(this::emitUnchecked);
        }
        if (writeFailure != null) {
            return failedFinish();
        }
        if (writer == null) {
            return new RecordedTrace(null, reader.ring().pid(), 0, reader.ring().dropped(), ending, null);
        }
        long dropped = reader.ring().dropped();
        try {
            for (SoftverbsWireLog log : wire) {
                WireEvents.write(writer, log); // record --soft --wire: the program's packets
            }
            long refused = reader.ring().threadsRefused();
            if (dropped > 0 || refused > 0 || unmapped > 0 || reader.corruptRecords() > 0) {
                writer.counters("rdmatrace-tracer", CountersEvent.Phase.END, List.of(
                        new CountersEvent.Counter("dropped_records", dropped),
                        new CountersEvent.Counter("threads_without_ring", refused),
                        new CountersEvent.Counter("records_not_in_event_model", unmapped),
                        new CountersEvent.Counter("undecodable_records", reader.corruptRecords())));
            }
        } catch (RuntimeException | InternalError e) {
            writeFailed(e);
            return failedFinish();
        }
        Path folder = writer.folder();
        try {
            if (ending != null) {
                writer.close(ending);
            } else {
                writer.closeTruncated();
            }
        } catch (RuntimeException | InternalError e) {
            writeFailed(e); // the last events or the END did not fit
            return failedFinish();
        }
        return new RecordedTrace(folder, reader.ring().pid(), events, dropped, ending, null);
    }

    /** Closes what could be written without an END (TRUNCATED: the events before the failure read back). */
    private RecordedTrace failedFinish() {
        if (creating != null) {
            try {
                writer = creating.get(); // made after all: closed below, its lock released
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException e) {
                // the failure is already told
            }
            creating = null;
        }
        Path folder = writer == null ? null : writer.folder();
        if (writer != null) {
            try {
                writer.closeTruncated();
            } catch (RuntimeException | InternalError e) {
                // the queue is released as far as it can be; the failure is already told
            }
        }
        return new RecordedTrace(folder, reader.ring().pid(), events, reader.ring().dropped(), null, writeFailure);
    }


    private String threadName(long tid) {
        return threadNames.computeIfAbsent(tid, t -> {
            Path comm = Path.of("/proc", Long.toString(reader.ring().pid()), "task", Long.toString(t), "comm");
            try {
                return Files.readString(comm).strip();
            } catch (IOException | RuntimeException e) {
                return "";
            }
        });
    }
}
