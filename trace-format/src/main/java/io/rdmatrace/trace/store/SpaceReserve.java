package io.rdmatrace.trace.store;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;

/**
 * Makes the file system back the queue file's pages before the appender writes into them, so a
 * full disk is an {@link IOException} here instead of a SIGBUS in the mapped file. Chronicle
 * Queue (2026.4) grows its file with {@code RandomAccessFile.setLength}, which only makes a sparse
 * file: a full disk then faults on the first write to an unbacked page (and, on tmpfs, on a read
 * of one), which the JVM raises as an {@code InternalError} at some later point of the thread.
 * Chronicle only warns (its DiskSpaceMonitor); OpenHFT/Chronicle-Queue#1282 is open.
 *
 * <p>The pages are backed by writing zeros through a file channel past the appender's write
 * position. Chronicle writes a queue file in order (a document, an index array, the EOF marker
 * all go at the write position), so under the writer's lock every byte from the page after the
 * write position on is still zero and unwritten: the zeros change nothing. Not thread-safe: the
 * writer calls it under its lock.
 */
final class SpaceReserve {
    /** How much is backed per write of zeros. */
    private static final int CHUNK = 64 * 1024;
    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(CHUNK).asReadOnlyBuffer();

    private File file;
    private FileChannel channel;
    /** File offset up to which pages are backed (everything before it, in this file). */
    private long backedTo;
    private IOException failure;

    /** The file offset up to which the current file is backed. */
    long backedTo() {
        return backedTo;
    }

    /** The file system's refusal, once one came (ENOSPC, EFBIG, EDQUOT), else null. */
    IOException failure() {
        return failure;
    }

    /**
     * Backs {@code file} up to {@code position + ahead} (rounded to pages), from the page after
     * {@code position} on; true when it is backed that far. After a refusal nothing more is tried.
     */
    boolean ensure(File file, long position, long ahead) {
        if (file == null || position < 0 || ahead < 0) {
            return false;
        }
        if (!file.equals(this.file)) {
            closeChannel(); // a new cycle's file: its pages are backed from its own write position on
            this.file = file;
            backedTo = roundUp(position);
        }
        long want = roundUp(position + ahead);
        if (backedTo >= want) {
            return true;
        }
        if (failure != null) {
            return false;
        }
        try {
            if (channel == null) {
                channel = FileChannel.open(file.toPath(), StandardOpenOption.WRITE);
            }
            backedTo = Math.max(backedTo, roundUp(position));
            // not past the file's end: Chronicle sets its length as it maps more (a write there would grow it)
            want = Math.min(want, channel.size() & -PageToucher.PAGE_BYTES);
            while (backedTo < want) {
                int n = channel.write(ZEROS.duplicate(), backedTo);
                backedTo += n & -PageToucher.PAGE_BYTES; // a short write backs whole pages only
                if (n < CHUNK) {
                    throw new IOException("No space left on device (a short write)");
                }
            }
            return true;
        } catch (IOException e) {
            failure = e;
            return false;
        }
    }

    /**
     * True when {@code file} is this reserve's and has become shorter than what it backed: cut
     * under the writer (a file never shrinks otherwise). A write into the cut-off pages would
     * fault, and Chronicle's compare-and-set of a header or index word there is a SIGBUS the JVM
     * cannot turn into an exception: it ends the process. One fstat.
     */
    boolean cutShort(File file) {
        if (file == null || !file.equals(this.file) || channel == null) {
            return false;
        }
        try {
            return channel.size() < backedTo;
        } catch (IOException e) {
            return false; // the write then fails or faults on its own
        }
    }

    void close() {
        closeChannel();
    }

    private void closeChannel() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // nothing was written through it that needs flushing
            }
            channel = null;
        }
    }

    private static long roundUp(long offset) {
        return (offset + PageToucher.PAGE_BYTES - 1) & -PageToucher.PAGE_BYTES;
    }
}
