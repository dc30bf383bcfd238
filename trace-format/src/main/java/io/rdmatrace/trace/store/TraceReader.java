package io.rdmatrace.trace.store;

import io.rdmatrace.trace.codec.CorruptDocumentException;
import io.rdmatrace.trace.codec.BatchDocument;
import io.rdmatrace.trace.codec.EventDecoder;
import io.rdmatrace.trace.model.EventKind;
import io.rdmatrace.trace.model.FormatVersion;
import io.rdmatrace.trace.model.SessionEvent;
import io.rdmatrace.trace.model.TraceEvent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Streams one host's trace in sequence order, starting with its SESSION, and says how it ended
 * ({@link #outcome()}): CLEAN, RECORDING (no END yet, and a live writer holds the folder: see
 * {@link LiveWriter}), TRUNCATED or CORRUPT. Opening checks the folder and the SESSION's
 * format version, so an unreadable trace fails at {@link #open} with a {@link TraceException}.
 *
 * <p>Not thread-safe. A consumer that is called from changing threads (DuckDB pulls Arrow
 * batches from worker threads) must call {@link #singleThreadedCheckReset()} on the new thread
 * before reading, because Chronicle's tailer remembers its owner thread.
 *
 * <p>The reader never creates or changes files in the folder, and never trusts them: before
 * Chronicle maps a queue, {@link QueueCheck} checks the data files' sizes and headers and the
 * metadata file; a folder that fails (a truncated file, a damaged header, a missing metadata file)
 * or that Chronicle fails on is read by framing the data files directly with bounded reads
 * ({@link FramedFileSource}), and the outcome's detail says what was wrong. Nothing a file holds
 * makes the reader throw anything but a {@link TraceException} at open.
 */
public final class TraceReader implements AutoCloseable {

    private final Path folder;
    private final DocumentSource source;
    private final SessionEvent session;
    private final EventDecoder decoder;
    /** Whether the trace's format has batch documents (2.0 on), and the one being read. */
    private final boolean batches;
    private final BatchDocument.Cursor batch = new BatchDocument.Cursor();
    /** What was wrong with the folder's files when it was read by framing them directly; null otherwise. */
    private final String damage;
    private boolean sessionReturned;
    private boolean endSeen;
    /** The source was asked once more after its writer was found gone: what it appended meanwhile is read. */
    private boolean askedAgain;
    private long eventsRead;
    private long expectedSeq;
    private ReadOutcome outcome;

    private TraceReader(Path folder, DocumentSource source, SessionEvent session, String damage) {
        this.folder = folder;
        this.source = source;
        this.session = session;
        this.decoder = new EventDecoder(session.formatVersion());
        this.batches = session.formatVersion().atLeast(2, 0);
        this.damage = damage;
    }

    /**
     * Opens a host folder ({@code OUT/<host-id>/}).
     *
     * @throws TraceException NOT_FOUND, NOT_A_DIRECTORY, EMPTY, NOT_A_QUEUE, NOT_A_TRACE,
     *                        NO_SESSION, UNSUPPORTED_VERSION, CORRUPT_SESSION, DAMAGED
     */
    public static TraceReader open(Path hostFolder) throws TraceException {
        Objects.requireNonNull(hostFolder, "hostFolder");
        checkFolder(hostFolder);
        List<Path> files = TraceLayout.queueFiles(hostFolder);
        List<String> problems = QueueCheck.problems(hostFolder, files);
        if (problems.isEmpty()) {
            TraceException refused;
            String failure;
            try {
                return openWith(hostFolder, ChronicleSource.open(hostFolder), null);
            } catch (TraceException e) {
                if (e.problem() == TraceException.Problem.UNSUPPORTED_VERSION
                        || e.problem() == TraceException.Problem.CORRUPT_SESSION) {
                    throw e; // the files are fine, the trace is not ours to read
                }
                refused = e;
                failure = e.getMessage();
            } catch (Exception | InternalError | LinkageError | AssertionError e) {
                // Chronicle also throws checked exceptions it does not declare (StreamCorruptedException)
                refused = null;
                failure = "Chronicle could not read the queue: " + e;
            }
            try {
                return openWith(hostFolder, new FramedFileSource(files), failure);
            } catch (TraceException e) {
                throw refused != null ? refused : damaged(hostFolder, files, failure, e);
            }
        }
        String why = String.join("; ", problems);
        try {
            return openWith(hostFolder, new FramedFileSource(files), why);
        } catch (TraceException e) {
            throw damaged(hostFolder, files, why, e);
        }
    }

    private static TraceException damaged(Path dir, List<Path> files, String why, TraceException framed) {
        if (framed.problem() == TraceException.Problem.UNSUPPORTED_VERSION
                || framed.problem() == TraceException.Problem.NOT_A_QUEUE && files.stream().allMatch(TraceReader::holdsAHeader)) {
            return framed; // a foreign file, not a damaged trace
        }
        return new TraceException(TraceException.Problem.DAMAGED, dir, dir + ": damaged trace files (" + why
                + "), and no event could be recovered from them: " + framed.getMessage().replace(dir + ": ", ""), framed);
    }

    private static boolean holdsAHeader(Path file) {
        try {
            return Files.size(file) >= 64;
        } catch (IOException e) {
            return false;
        }
    }

    private static TraceReader openWith(Path dir, DocumentSource source, String damage) throws TraceException {
        try {
            SessionEvent s = readSession(dir, source);
            return new TraceReader(dir, source, s, damage);
        } catch (TraceException | RuntimeException | Error e) {
            source.close();
            throw e;
        }
    }

    /** Reads a whole host folder into memory: the events and how the trace ended. */
    public static Result readAll(Path hostFolder) throws TraceException {
        try (TraceReader r = open(hostFolder)) {
            List<TraceEvent> events = new ArrayList<>();
            ReadOutcome o = r.forEachRemaining(events::add);
            return new Result(r.session(), events, o, r.damage());
        }
    }

    /**
     * A whole trace in memory.
     *
     * @param damage what was wrong with the files when they had to be read without Chronicle, or null
     */
    public record Result(SessionEvent session, List<TraceEvent> events, ReadOutcome outcome, String damage) {
        public Result {
            events = List.copyOf(events);
        }

        public Result(SessionEvent session, List<TraceEvent> events, ReadOutcome outcome) {
            this(session, events, outcome, null);
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
        try {
            int length;
            int from = 0;
            if (batch.hasNext()) {
                length = batch.next();
                from = batch.start();
            } else {
                batch.clear();
                length = source.next();
                if (length < 0 && !endSeen && !askedAgain && !writerAlive()) {
                    // the writer may have appended (its END too) between our last read and its exit
                    askedAgain = true;
                    length = source.next();
                }
                if (length < 0) {
                    finishAtEnd();
                    return null;
                }
                if (batches && BatchDocument.is(source.buffer(), length)) {
                    batch.start(source.buffer(), length);
                    length = batch.next();
                    from = batch.start();
                }
            }
            if (endSeen) {
                return corrupt("an event follows the END event");
            }
            TraceEvent e = decoder.decode(source.buffer(), from, length);
            if (e.seq() != expectedSeq) {
                return corrupt("sequence gap: expected seq " + expectedSeq + ", found " + e.seq());
            }
            if (e.kind() == EventKind.SESSION) {
                return corrupt("a second SESSION at seq " + e.seq());
            }
            expectedSeq++;
            eventsRead++;
            endSeen = e.kind() == EventKind.END;
            return e;
        } catch (CorruptDocumentException e) {
            return corrupt(e.getMessage());
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
        source.threadChanged();
    }

    /**
     * What was wrong with the folder's files when they had to be read without Chronicle (also in
     * the outcome's detail); null when they were sound.
     */
    public String damage() {
        return damage;
    }

    @Override
    public void close() {
        source.close();
    }

    /** Null until asked; then the live writer's pid (-1: an OFD lock, owner unknown), or NONE. */
    private Long writer;
    private static final long NONE = Long.MIN_VALUE;

    private boolean writerAlive() {
        if (writer == null) {
            writer = LiveWriter.holder(folder).orElse(NONE);
        }
        return writer != NONE;
    }

    private void finishAtEnd() {
        if (!endSeen && writerAlive()) {
            // what Chronicle's index lists beyond our last read is what the writer appended since: not hidden
            outcome = new ReadOutcome(ReadOutcome.Status.RECORDING, eventsRead,
                    folder + ": still recording: no END yet after " + eventsRead + " events (the writer"
                            + (writer > 0 ? ", pid " + writer + "," : "") + " holds the folder's lock); every complete event so far was read"
                            + damageNote(), null, -1);
            return;
        }
        String hidden = source.hiddenDocuments();
        if (hidden != null) {
            corrupt(hidden);
        } else if (endSeen) {
            outcome = new ReadOutcome(ReadOutcome.Status.CLEAN, eventsRead,
                    folder + ": clean end after " + eventsRead + " events" + damageNote(), null, -1);
        } else {
            outcome = new ReadOutcome(ReadOutcome.Status.TRUNCATED, eventsRead,
                    folder + ": no END event after " + eventsRead
                            + " events and no live writer: the capture was killed or crashed; all complete events were read"
                            + damageNote(), null, -1);
        }
    }

    private String damageNote() {
        return damage == null ? "" : " (read without Chronicle's index: " + damage + ")";
    }

    private TraceEvent corrupt(String why) {
        Path file = source.currentFile();
        outcome = new ReadOutcome(ReadOutcome.Status.CORRUPT, eventsRead,
                (file != null ? file : folder) + ": document " + source.position()
                        + (batch.index() >= 0 ? " (event " + (batch.index() + 1) + " of its batch)" : "")
                        + " after seq " + (expectedSeq - 1) + " is corrupt: " + why + "; the " + eventsRead
                        + " events before it were read" + damageNote(),
                file, source.index());
        return null;
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

    private static SessionEvent readSession(Path dir, DocumentSource source) throws TraceException {
        int size;
        try {
            size = source.next();
        } catch (CorruptDocumentException e) {
            throw new TraceException(TraceException.Problem.NOT_A_QUEUE, dir,
                    dir + ": the first document cannot be read: " + e.getMessage(), e);
        }
        if (size < 0) {
            for (Path f : TraceLayout.queueFiles(dir)) {
                if (!TraceLayout.looksLikeChronicleFile(f)) {
                    throw new TraceException(TraceException.Problem.NOT_A_QUEUE, dir, f
                            + ": not a Chronicle Queue data file (no queue header); is this a trace folder?");
                }
            }
            throw new TraceException(TraceException.Problem.NO_SESSION, dir, dir
                    + ": the queue holds no event; the capture stopped before writing its SESSION");
        }
        byte[] doc = source.buffer();
        FormatVersion v = EventDecoder.peekSessionVersion(doc, size);
        if (v == null) {
            throw new TraceException(TraceException.Problem.NOT_A_TRACE, dir, dir
                    + ": a Chronicle Queue, but not an rdmatrace trace (its first document is not a SESSION)");
        }
        if (!v.readableByCurrent()) {
            throw new TraceException(TraceException.Problem.UNSUPPORTED_VERSION, dir, dir + ": trace format " + v
                    + " is not supported; this rdmatrace reads formats " + FormatVersion.OLDEST_MAJOR + ".x to "
                    + FormatVersion.FORMAT_MAJOR + ".x (up to "
                    + FormatVersion.CURRENT + ")" + (v.major() > FormatVersion.FORMAT_MAJOR
                    ? "; use a newer rdmatrace" : "; use the rdmatrace that wrote it"));
        }
        try {
            TraceEvent e = new EventDecoder(v).decode(doc, size);
            if (e.seq() != 0) {
                throw new CorruptDocumentException("SESSION has seq " + e.seq() + ", expected 0");
            }
            return (SessionEvent) e;
        } catch (CorruptDocumentException e) {
            throw new TraceException(TraceException.Problem.CORRUPT_SESSION, dir,
                    dir + ": the SESSION document is corrupt: " + e.getMessage(), e);
        }
    }
}
