package io.rdmatrace.trace;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.core.io.ClosedIllegalStateException;
import net.openhft.chronicle.core.io.ThreadingIllegalStateException;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Streams one host's trace in sequence order, starting with its SESSION, and says how it ended
 * ({@link #outcome()}): CLEAN, TRUNCATED or CORRUPT. Opening checks the folder and the SESSION's
 * format version, so an unreadable trace fails at {@link #open} with a {@link TraceException}.
 *
 * <p>Not thread-safe. A consumer that is called from changing threads (DuckDB pulls Arrow
 * batches from worker threads) must call {@link #singleThreadedCheckReset()} on the new thread
 * before reading, because Chronicle's tailer remembers its owner thread.
 *
 * <p>The queue is opened read-only: the reader never creates or changes files in the folder.
 */
public final class TraceReader implements AutoCloseable {

    /** Documents beyond this size are corruption (a SESSION with a large GID table is a few KB). */
    private static final long MAX_DOCUMENT = 64L << 20;

    private final Path folder;
    private final SingleChronicleQueue queue;
    private final ExcerptTailer tailer;
    private final SessionEvent session;
    private final EventDecoder decoder;
    /** Reused copy of the current document: decoding a plain array avoids per-byte Chronicle checks. */
    private byte[] buffer = new byte[4096];
    private boolean sessionReturned;
    private boolean endSeen;
    private long eventsRead;
    private long expectedSeq;
    private long lastIndex = -1;
    private ReadOutcome outcome;

    private TraceReader(Path folder, SingleChronicleQueue queue, ExcerptTailer tailer, SessionEvent session,
                        EventDecoder decoder) {
        this.folder = folder;
        this.queue = queue;
        this.tailer = tailer;
        this.session = session;
        this.decoder = decoder;
        this.lastIndex = tailer.lastReadIndex();
    }

    /**
     * Opens a host folder ({@code OUT/<host-id>/}).
     *
     * @throws TraceException NOT_FOUND, NOT_A_DIRECTORY, EMPTY, NOT_A_QUEUE, NOT_A_TRACE,
     *                        NO_SESSION, UNSUPPORTED_VERSION, CORRUPT_SESSION
     */
    public static TraceReader open(Path hostFolder) throws TraceException {
        Objects.requireNonNull(hostFolder, "hostFolder");
        checkFolder(hostFolder);
        SingleChronicleQueue q;
        try {
            q = TraceLayout.openForRead(hostFolder);
        } catch (RuntimeException e) {
            throw new TraceException(TraceException.Problem.NOT_A_QUEUE, hostFolder,
                    hostFolder + ": not a readable Chronicle Queue: " + e.getMessage(), e);
        }
        try {
            ExcerptTailer t = q.createTailer();
            SessionEvent s = readSession(hostFolder, t);
            return new TraceReader(hostFolder, q, t, s, new EventDecoder(s.formatVersion()));
        } catch (TraceException | RuntimeException | Error e) {
            q.close();
            throw e;
        }
    }

    /** Reads a whole host folder into memory: the events and how the trace ended. */
    public static Result readAll(Path hostFolder) throws TraceException {
        try (TraceReader r = open(hostFolder)) {
            List<TraceEvent> events = new ArrayList<>();
            ReadOutcome o = r.forEachRemaining(events::add);
            return new Result(r.session(), events, o);
        }
    }

    /** A whole trace in memory. */
    public record Result(SessionEvent session, List<TraceEvent> events, ReadOutcome outcome) {
        public Result {
            events = List.copyOf(events);
        }
    }

    public Path folder() {
        return folder;
    }

    /** The SESSION (also returned as the first event by {@link #next()}). */
    public SessionEvent session() {
        return session;
    }

    /**
     * The next event in sequence order, or null at the end; then {@link #outcome()} says how the
     * trace ended. Never throws for bad data: a bad document ends the stream as CORRUPT.
     */
    public TraceEvent next() {
        if (!sessionReturned) {
            sessionReturned = true;
            eventsRead = 1;
            expectedSeq = session.seq() + 1;
            return session;
        }
        if (outcome != null) {
            return null;
        }
        long index = -1;
        try (DocumentContext dc = tailer.readingDocument()) {
            if (!dc.isPresent()) {
                finishAtEnd();
                return null;
            }
            index = dc.index();
            if (endSeen) {
                return corrupt(index, "a document follows the END event");
            }
            int length = copyDocument(dc.wire().bytes()); // may replace buffer: call before reading the field
            TraceEvent e = decoder.decode(buffer, length);
            if (e.seq() != expectedSeq) {
                return corrupt(index, "sequence gap: expected seq " + expectedSeq + ", found " + e.seq());
            }
            if (e.kind() == EventKind.SESSION) {
                return corrupt(index, "a second SESSION at seq " + e.seq());
            }
            expectedSeq++;
            eventsRead++;
            lastIndex = index;
            endSeen = e.kind() == EventKind.END;
            return e;
        } catch (CorruptDocumentException e) {
            return corrupt(index, e.getMessage());
        } catch (ThreadingIllegalStateException e) {
            // a usage error, not bad data: say how to fix it instead of calling the trace corrupt
            throw new IllegalStateException("trace reader for " + folder + " used from thread "
                    + Thread.currentThread().getName() + " without singleThreadedCheckReset() on that thread", e);
        } catch (ClosedIllegalStateException e) {
            throw new IllegalStateException("trace reader for " + folder + " is closed", e);
        } catch (RuntimeException e) {
            // Chronicle could not frame a document (damaged length word, damaged file)
            return corrupt(index, "Chronicle could not read the document: " + e);
        }
    }

    /**
     * Reads up to {@code max} events into {@code sink}; returns how many were added (0 at the
     * end). The cheap path for batch consumers such as an Arrow batch builder.
     */
    public int readBatch(List<? super TraceEvent> sink, int max) {
        int n = 0;
        TraceEvent e;
        while (n < max && (e = next()) != null) {
            sink.add(e);
            n++;
        }
        return n;
    }

    /** Passes every remaining event to {@code consumer} and returns how the trace ended. */
    public ReadOutcome forEachRemaining(Consumer<? super TraceEvent> consumer) {
        TraceEvent e;
        while ((e = next()) != null) {
            consumer.accept(e);
        }
        return outcome;
    }

    /** How the trace ended; null until {@link #next()} has returned null. */
    public ReadOutcome outcome() {
        return outcome;
    }

    /** Events returned so far. */
    public long eventsRead() {
        return eventsRead;
    }

    /**
     * Attributes skipped because a newer minor format version added codes this build does not
     * know (always 0 for traces of this build's version).
     */
    public long skippedUnknownAttrs() {
        return decoder.skippedUnknownAttrs();
    }

    /** Lets the calling thread use this reader from now on (Chronicle's tailer is owner-thread checked). */
    public void singleThreadedCheckReset() {
        tailer.singleThreadedCheckReset();
    }

    @Override
    public void close() {
        tailer.close();
        queue.close();
    }

    private void finishAtEnd() {
        if (endSeen) {
            outcome = new ReadOutcome(ReadOutcome.Status.CLEAN, eventsRead,
                    folder + ": clean end after " + eventsRead + " events", null, -1);
            return;
        }
        long queueLast = queueLastIndex();
        if (queueLast > lastIndex && lastIndex >= 0) {
            // Chronicle's own index knows documents we could not reach: a damaged header hid them
            corrupt(lastIndex + 1, "reading stopped at index 0x" + Long.toHexString(lastIndex)
                    + " but the queue's index lists documents up to 0x" + Long.toHexString(queueLast)
                    + " (a damaged document header hides the rest)");
        } else {
            outcome = new ReadOutcome(ReadOutcome.Status.TRUNCATED, eventsRead,
                    folder + ": no END event after " + eventsRead
                            + " events: the capture was killed or is still running; all complete events were read",
                    null, -1);
        }
    }

    private TraceEvent corrupt(long index, String why) {
        Path file = currentFile();
        outcome = new ReadOutcome(ReadOutcome.Status.CORRUPT, eventsRead,
                (file != null ? file : folder) + ": document " + (index >= 0 ? "index 0x" + Long.toHexString(index) : "")
                        + " after seq " + (expectedSeq - 1) + " is corrupt: " + why + "; the " + eventsRead
                        + " events before it were read",
                file, index);
        return null;
    }

    private long queueLastIndex() {
        try {
            return queue.lastIndex();
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** Copies the current document into {@link #buffer} (one bulk read) and returns its length. */
    private int copyDocument(Bytes<?> b) {
        long n = b.readRemaining();
        if (n > MAX_DOCUMENT) {
            throw new CorruptDocumentException("document of " + n + " bytes is larger than any trace event");
        }
        if (n > buffer.length) {
            buffer = new byte[(int) Math.max(n, buffer.length * 2L)];
        }
        b.read(buffer, 0, (int) n);
        return (int) n;
    }

    private Path currentFile() {
        try {
            File f = tailer.currentFile();
            return f != null ? f.toPath() : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static void checkFolder(Path dir) throws TraceException {
        if (!Files.exists(dir)) {
            throw new TraceException(TraceException.Problem.NOT_FOUND, dir, dir + ": no such trace folder");
        }
        if (!Files.isDirectory(dir)) {
            throw new TraceException(TraceException.Problem.NOT_A_DIRECTORY, dir,
                    dir + ": is a file; a trace is a folder per host (OUT/<host-id>/)");
        }
        List<String> names;
        try (Stream<Path> s = Files.list(dir)) {
            names = s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new TraceException(TraceException.Problem.IO, dir, dir + ": cannot list folder: " + e, e);
        }
        if (names.isEmpty()) {
            throw new TraceException(TraceException.Problem.EMPTY, dir, dir + ": empty folder, no trace in it");
        }
        if (!TraceLayout.holdsQueueFiles(dir) && names.contains(TraceLayout.METADATA_FILE)) {
            throw new TraceException(TraceException.Problem.NO_SESSION, dir, dir
                    + ": a queue without data files; the capture stopped before writing its SESSION");
        }
        if (!TraceLayout.holdsQueueFiles(dir)) {
            boolean parentOfTraces = names.stream().anyMatch(n -> TraceLayout.holdsQueueFiles(dir.resolve(n)));
            String shown = names.size() <= 5 ? String.join(", ", names)
                    : String.join(", ", names.subList(0, 5)) + " and " + (names.size() - 5) + " more";
            throw new TraceException(TraceException.Problem.NOT_A_QUEUE, dir, dir + ": no Chronicle Queue files (*"
                    + TraceLayout.QUEUE_FILE_SUFFIX + ") in this folder (found " + shown + ")"
                    + (parentOfTraces ? "; it holds host folders: open one of them, or discover them with TraceSet" : ""));
        }
    }

    private static SessionEvent readSession(Path dir, ExcerptTailer t) throws TraceException {
        try (DocumentContext dc = t.readingDocument()) {
            if (!dc.isPresent()) {
                for (Path f : TraceLayout.queueFiles(dir)) {
                    if (!TraceLayout.looksLikeChronicleFile(f)) {
                        throw new TraceException(TraceException.Problem.NOT_A_QUEUE, dir, f
                                + ": not a Chronicle Queue data file (no queue header); is this a trace folder?");
                    }
                }
                throw new TraceException(TraceException.Problem.NO_SESSION, dir, dir
                        + ": the queue holds no event; the capture stopped before writing its SESSION");
            }
            Bytes<?> b = dc.wire().bytes();
            long size = b.readRemaining();
            if (size > MAX_DOCUMENT) {
                throw new TraceException(TraceException.Problem.NOT_A_TRACE, dir,
                        dir + ": first document of " + size + " bytes is not an rdmatrace SESSION");
            }
            byte[] doc = new byte[(int) size];
            b.read(doc, 0, doc.length);
            FormatVersion v = EventDecoder.peekSessionVersion(doc, doc.length);
            if (v == null) {
                throw new TraceException(TraceException.Problem.NOT_A_TRACE, dir, dir
                        + ": a Chronicle Queue, but not an rdmatrace trace (its first document is not a SESSION)");
            }
            if (!v.readableByCurrent()) {
                throw new TraceException(TraceException.Problem.UNSUPPORTED_VERSION, dir, dir + ": trace format " + v
                        + " is not supported; this rdmatrace reads format " + FormatVersion.FORMAT_MAJOR + ".x (up to "
                        + FormatVersion.CURRENT + ")" + (v.major() > FormatVersion.FORMAT_MAJOR
                        ? "; use a newer rdmatrace" : "; use the rdmatrace that wrote it"));
            }
            try {
                TraceEvent e = new EventDecoder(v).decode(doc, doc.length);
                if (e.seq() != 0) {
                    throw new CorruptDocumentException("SESSION has seq " + e.seq() + ", expected 0");
                }
                return (SessionEvent) e;
            } catch (CorruptDocumentException e) {
                throw new TraceException(TraceException.Problem.CORRUPT_SESSION, dir,
                        dir + ": the SESSION document is corrupt: " + e.getMessage(), e);
            }
        } catch (TraceException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new TraceException(TraceException.Problem.NOT_A_QUEUE, dir,
                    dir + ": Chronicle could not read the queue: " + e, e);
        }
    }
}
