package io.rdmatrace.trace.store;

import io.rdmatrace.trace.codec.CorruptDocumentException;

import java.io.File;
import java.nio.file.Path;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.core.io.ClosedIllegalStateException;
import net.openhft.chronicle.core.io.ThreadingIllegalStateException;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

/** Documents through Chronicle's read-only tailer (memory-mapped): used once {@link QueueCheck} found the files sound. */
final class ChronicleSource implements DocumentSource {

    /** Documents beyond this size are corruption (a SESSION with a large GID table is a few KB). */
    static final long MAX_DOCUMENT = 64L << 20;

    private final Path folder;
    private final SingleChronicleQueue queue;
    private final ExcerptTailer tailer;
    /** Reused copy of the current document: decoding a plain array avoids per-byte Chronicle checks. */
    private byte[] buffer = new byte[4096];
    private long index = -1;
    private long lastIndex = -1;

    private ChronicleSource(Path folder, SingleChronicleQueue queue) {
        this.folder = folder;
        this.queue = queue;
        this.tailer = queue.createTailer();
    }

    /** Opens the queue read-only; Chronicle's failures propagate (the caller falls back). */
    static ChronicleSource open(Path folder) {
        SingleChronicleQueue q = TraceLayout.openForRead(folder);
        try {
            return new ChronicleSource(folder, q);
        } catch (RuntimeException | Error e) {
            q.close();
            throw e;
        }
    }

    @Override
    public int next() {
        try (DocumentContext dc = tailer.readingDocument()) {
            if (!dc.isPresent()) {
                return -1;
            }
            index = dc.index();
            int n = copy(dc.wire().bytes());
            lastIndex = index;
            return n;
        } catch (ThreadingIllegalStateException e) {
            // a usage error, not bad data: say how to fix it instead of calling the trace corrupt
            throw new IllegalStateException("trace reader for " + folder + " used from thread "
                    + Thread.currentThread().getName() + " without singleThreadedCheckReset() on that thread", e);
        } catch (ClosedIllegalStateException e) {
            throw new IllegalStateException("trace reader for " + folder + " is closed", e);
        } catch (CorruptDocumentException e) {
            throw e;
        } catch (Exception | InternalError e) {
            // Chronicle could not frame a document (damaged length word, damaged or shrunken file)
            throw new CorruptDocumentException("Chronicle could not read the document: " + e);
        }
    }

    private int copy(Bytes<?> b) {
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

    @Override
    public byte[] buffer() {
        return buffer;
    }

    @Override
    public String position() {
        return index >= 0 ? "index 0x" + Long.toHexString(index) : "";
    }

    @Override
    public long index() {
        return index;
    }

    @Override
    public Path currentFile() {
        try {
            File f = tailer.currentFile();
            return f != null ? f.toPath() : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    @Override
    public String hiddenDocuments() {
        long queueLast;
        try {
            queueLast = queue.lastIndex();
        } catch (Exception | InternalError e) {
            return null;
        }
        if (queueLast > lastIndex && lastIndex >= 0) {
            index = lastIndex + 1;
            // Chronicle's own index knows documents we could not reach: a damaged header hid them
            return "reading stopped at index 0x" + Long.toHexString(lastIndex)
                    + " but the queue's index lists documents up to 0x" + Long.toHexString(queueLast)
                    + " (a damaged document header hides the rest)";
        }
        return null;
    }

    @Override
    public void threadChanged() {
        tailer.singleThreadedCheckReset();
    }

    @Override
    public void close() {
        try {
            tailer.close();
        } finally {
            queue.close();
        }
    }
}
