package io.rdmatrace.trace.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The exclusive right to write one host folder: an advisory lock ({@link FileChannel#tryLock()},
 * fcntl on Linux) on {@value #FILE_NAME} inside the folder, held for the writer's life. The file
 * holds the owner's "pid N on host H" for the refusal message only; the lock itself is what
 * counts. A killed writer's lock is released by the operating system, so a lock file left behind
 * never blocks anyone. The file is never deleted (deleting it would let two writers lock two
 * different files); a clean close empties it.
 */
final class WriterLock implements AutoCloseable {

    /** The lock file's name inside {@code OUT/<host-id>/}. */
    static final String FILE_NAME = ".rdmatrace-writer.lock";

    private final FileChannel channel;
    private final FileLock lock;
    private final String previousOwner;

    private WriterLock(FileChannel channel, FileLock lock, String previousOwner) {
        this.channel = channel;
        this.lock = lock;
        this.previousOwner = previousOwner;
    }

    /**
     * Takes the lock of {@code hostDir} (which must exist) or refuses at once.
     *
     * @throws TraceException LOCKED when another live writer holds it, IO when the lock file
     *                        cannot be opened
     */
    static WriterLock acquire(Path hostDir) throws TraceException {
        Path file = hostDir.resolve(FILE_NAME);
        FileChannel ch;
        try {
            ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new TraceException(TraceException.Problem.IO, hostDir, "cannot open the writer lock " + file + ": " + e, e);
        }
        FileLock held;
        try {
            held = ch.tryLock();
        } catch (OverlappingFileLockException e) {
            held = null; // this JVM already writes the folder
        } catch (IOException e) {
            close(ch);
            throw new TraceException(TraceException.Problem.IO, hostDir, "cannot lock " + file + ": " + e, e);
        }
        if (held == null) {
            String owner = owner(ch);
            close(ch);
            throw new TraceException(TraceException.Problem.LOCKED, hostDir, "trace folder " + hostDir
                    + " is being written by another capture (" + (owner.isEmpty() ? "owner unknown" : owner)
                    + "); wait for it to finish or choose another --out");
        }
        String previous = owner(ch); // a writer that was killed: its lock died with it, its text did not
        try {
            ch.truncate(0);
            // no force(): the text only has to outlive this process (the page cache keeps it when the
            // process is killed), and an fdatasync here stalled every trace's creation 1-70 ms on a busy disk
            ch.write(ByteBuffer.wrap(("pid " + ProcessHandle.current().pid() + " on host " + localHost() + "\n")
                    .getBytes(StandardCharsets.UTF_8)), 0);
        } catch (IOException e) {
            // the lock is what protects the folder; the owner text is only for messages
        }
        return new WriterLock(ch, held, previous);
    }

    /**
     * The owner text a killed writer left in the file ("pid N on host H"), taken over by this lock;
     * empty after a clean close.
     */
    String previousOwner() {
        return previousOwner;
    }

    private static String owner(FileChannel ch) {
        try {
            ByteBuffer b = ByteBuffer.allocate(256);
            int n = ch.read(b, 0);
            return n <= 0 ? "" : new String(b.array(), 0, n, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            return "";
        }
    }

    private static String localHost() {
        try {
            String h = Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
            if (!h.isEmpty()) {
                return h;
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return "unknown";
    }

    private static void close(FileChannel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            // nothing was written through it
        }
    }

    /** Empties the owner text and releases the lock. */
    @Override
    public void close() {
        try {
            channel.truncate(0);
        } catch (IOException e) {
            // a stale owner text is harmless: the lock is released below either way
        }
        try {
            lock.release();
        } catch (IOException e) {
            // closing the channel releases it too
        }
        close(channel);
    }
}
