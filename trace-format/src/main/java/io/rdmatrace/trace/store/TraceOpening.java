package io.rdmatrace.trace.store;

import io.rdmatrace.trace.model.SessionInfo;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.LongSupplier;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;

/**
 * A host folder claimed for one trace whose Chronicle Queue may still be opening: the capture agent
 * begins one before it loads libibverbs and opens the device, so Chronicle's open (tens of
 * milliseconds, more in a fresh JVM) overlaps them, and writes the SESSION, which carries the
 * device's answers, with {@link #start}.
 *
 * <p>{@link #begin} refuses a bad folder at once, exactly as {@link TraceWriter#create} does (bad
 * host id, cannot create, another live writer, already a trace); only the queue's open (with its
 * appender and current cycle file, {@link OpenQueue}) runs on a background thread. An opening that is never started is undone by {@link #close()}: the queue is
 * closed and the files and folder this opening created are removed, so an agent that fails early
 * leaves the output folder as it found it.
 */
public final class TraceOpening implements AutoCloseable {
    private final Path dir;
    private final String hostId;
    private final WriterLock lock;
    private final boolean madeDir;
    /** Trace files the folder held before the claim: never removed by {@link #close()}. */
    private final Set<String> existing;
    private final FutureTask<OpenQueue> queue;
    /**
     * Set by whoever runs the open first (the background thread or {@link #start}) or by
     * {@link #close()} to stop it from ever running. FutureTask's own cancel cannot serve: it
     * succeeds on a task that is already running, and the open would then create files after
     * close() removed the folder, and leave its queue open.
     */
    private final AtomicBoolean openTaken = new AtomicBoolean();
    /** Handed to a writer, failed, or closed: nothing more to undo. */
    private boolean done;

    private TraceOpening(Path dir, String hostId, WriterLock lock, boolean madeDir, Set<String> existing,
            Function<Path, SingleChronicleQueue> opener) {
        this.dir = dir;
        this.hostId = hostId;
        this.lock = lock;
        this.madeDir = madeDir;
        this.existing = existing;
        this.queue = new FutureTask<>(() -> OpenQueue.prepare(opener.apply(dir)));
    }

    /**
     * Claims {@code outDir/<hostId>/} and starts opening its queue on a daemon thread.
     *
     * @throws TraceException as {@link TraceWriter#create}: BAD_HOST_ID, IO, LOCKED, ALREADY_EXISTS
     */
    public static TraceOpening begin(Path outDir, String hostId) throws TraceException {
        return begin(outDir, hostId, TraceLayout::openForWrite);
    }

    /** {@link #begin} with the queue opened by {@code opener} (tests slow it down to race close()). */
    public static TraceOpening begin(Path outDir, String hostId, Function<Path, SingleChronicleQueue> opener)
            throws TraceException {
        TraceOpening o = claim(outDir, hostId, opener);
        Thread t = new Thread(o::runOpenOnce, "rdmatrace-trace-open");
        t.setDaemon(true); // never keeps a failing agent alive; close() waits for it instead
        t.start();
        return o;
    }

    /** The checks and the lock of {@link #begin}, without starting the open (see {@link #queueNow}). */
    public static TraceOpening claim(Path outDir, String hostId) throws TraceException {
        return claim(outDir, hostId, TraceLayout::openForWrite);
    }

    public static TraceOpening claim(Path outDir, String hostId, Function<Path, SingleChronicleQueue> opener)
            throws TraceException {
        Objects.requireNonNull(outDir, "outDir");
        Path dir;
        try {
            dir = TraceLayout.hostFolder(outDir, hostId);
        } catch (IllegalArgumentException e) {
            throw new TraceException(TraceException.Problem.BAD_HOST_ID, outDir, e.getMessage());
        }
        boolean madeDir = !Files.isDirectory(dir);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new TraceException(TraceException.Problem.IO, dir, "cannot create trace folder " + dir + ": " + e, e);
        }
        Set<String> existing = madeDir ? Set.of() : traceFiles(dir);
        WriterLock lock = WriterLock.acquire(dir);
        if (TraceLayout.holdsQueueFiles(dir)) {
            lock.close();
            String last = lock.previousOwner();
            throw new TraceException(TraceException.Problem.ALREADY_EXISTS, dir,
                    "trace folder " + dir + " already holds a trace"
                            + (last.isEmpty() ? "" : " (left by a capture that was killed: " + last + ")")
                            + "; choose another --out or remove it first");
        }
        return new TraceOpening(dir, hostId, lock, madeDir, existing, opener);
    }

    /** Runs the open unless another thread has (or close() has forbidden it). */
    private void runOpenOnce() {
        if (openTaken.compareAndSet(false, true)) {
            queue.run();
        }
    }

    /** The host folder claimed. */
    public Path folder() {
        return dir;
    }

    public String hostId() {
        return hostId;
    }

    /**
     * Waits for the queue (or opens it here when the background thread has not begun) and writes
     * the SESSION; from then on the writer owns the queue and the lock.
     *
     * @throws TraceException IO when the queue cannot be opened or the SESSION written (the
     *                        opening is undone, as by {@link #close()})
     */
    public synchronized TraceWriter start(SessionInfo session) throws TraceException {
        return start(session, ProcessHandle.current().pid(), System::nanoTime, -1);
    }

    /**
     * As {@link #start(SessionInfo)}, run by another thread than the one that asked (a writer
     * thread, while the asking thread goes on): the SESSION is dated {@code monoNanos} (on
     * {@link System#nanoTime()}'s scale) and {@code wallNanos}, the moment it was asked for, and
     * stamped with the asking thread, so it precedes every event that thread records after asking.
     */
    public synchronized TraceWriter start(SessionInfo session, long monoNanos, long wallNanos, long threadId,
                                          String threadName) throws TraceException {
        Objects.requireNonNull(threadName, "threadName");
        return start(session, ProcessHandle.current().pid(), System::nanoTime, monoNanos, wallNanos, threadId, threadName);
    }

    synchronized TraceWriter start(SessionInfo session, long pid, LongSupplier clock, long wallNanosAtStart)
            throws TraceException {
        return start(session, pid, clock, -1, wallNanosAtStart, -1, null);
    }

    /** {@code monoNanos} -1: now; {@code threadName} null: the calling thread. */
    private TraceWriter start(SessionInfo session, long pid, LongSupplier clock, long monoNanos, long wallNanosAtStart,
                              long threadId, String threadName) throws TraceException {
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(clock, "clock");
        if (done) {
            throw new IllegalStateException("trace opening of " + dir + " already used or closed");
        }
        if (!session.hostId().equals(hostId)) {
            throw new IllegalArgumentException("session of " + session.hostId() + " for the folder of " + hostId);
        }
        // read together, as in TraceWriter.create (the queue is open by now: the open is not in between)
        OpenQueue q = queueNow();
        long monoAtStart = monoNanos != -1 ? monoNanos : clock.getAsLong();
        long wallAtStart = wallNanosAtStart;
        if (wallAtStart == -1) {
            Instant now = Instant.now();
            wallAtStart = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        }
        done = true;
        TraceWriter w;
        try {
            w = new TraceWriter(dir, hostId, q, lock, pid, clock, monoAtStart, wallAtStart);
            if (threadName != null) {
                w.stampNext(monoAtStart, threadId, threadName);
            }
            w.writeSession(session);
        } catch (RuntimeException | Error e) {
            q.close();
            lock.close();
            throw new TraceException(TraceException.Problem.IO, dir, "cannot write the SESSION to " + dir + ": " + e, e);
        }
        return w;
    }

    /** The opened queue; runs the open on this thread if nobody began it. Undoes the claim on failure. */
    private OpenQueue queueNow() throws TraceException {
        runOpenOnce(); // on this thread if the background one has not begun
        try {
            return awaitQueue();
        } catch (RuntimeException e) {
            done = true;
            removeCreated();
            throw new TraceException(TraceException.Problem.IO, dir, "cannot create a Chronicle Queue in " + dir + ": " + e, e);
        }
    }

    private OpenQueue awaitQueue() {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return queue.get();
                } catch (InterruptedException e) {
                    interrupted = true; // the open is short and must not be left half done
                } catch (ExecutionException e) {
                    Throwable c = e.getCause();
                    throw c instanceof RuntimeException r ? r : new IllegalStateException(c);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Undoes an opening that was never started: closes the queue (after its open finishes) and
     * removes the trace files, and the folder when this opening made it. Idempotent; a no-op once
     * {@link #start} has handed the queue to a writer.
     */
    @Override
    public synchronized void close() {
        if (done) {
            return;
        }
        done = true;
        if (!openTaken.compareAndSet(false, true)) { // began: wait for it, then close what it opened
            try {
                awaitQueue().close();
            } catch (RuntimeException e) {
                // it failed to open: nothing to close
            }
        }
        removeCreated();
    }

    /** Releases the lock and removes the trace files this claim created, and its folder if it made it. */
    private void removeCreated() {
        if (madeDir) {
            // the folder did not exist before this claim and the lock kept every other writer out:
            // all it holds is ours, whatever Chronicle named it
            lock.close();
            deleteTree(dir);
            return;
        }
        Set<String> created = new HashSet<>(traceFiles(dir));
        created.removeAll(existing);
        created.remove(TraceLayout.WRITER_LOCK_FILE); // last, after the lock is released
        for (String name : created) {
            deleteQuietly(dir.resolve(name));
        }
        lock.close();
        if (!existing.contains(TraceLayout.WRITER_LOCK_FILE)) {
            // made by this claim moments ago: no other writer can have relied on it
            deleteQuietly(dir.resolve(TraceLayout.WRITER_LOCK_FILE));
        }
    }

    private static void deleteTree(Path root) {
        try (java.util.stream.Stream<Path> all = Files.walk(root)) {
            all.sorted(java.util.Comparator.reverseOrder()).forEach(TraceOpening::deleteQuietly);
        } catch (IOException | java.io.UncheckedIOException e) {
            // what could not be listed stays
        }
    }

    private static Set<String> traceFiles(Path dir) {
        Set<String> names = new HashSet<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                String name = p.getFileName().toString();
                if (TraceLayout.isTraceFile(name)) {
                    names.add(name);
                }
            }
        } catch (IOException e) {
            // nothing listed: nothing removed
        }
        return names;
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // a folder someone else put files into stays; leftovers never block a later capture
        }
    }
}
