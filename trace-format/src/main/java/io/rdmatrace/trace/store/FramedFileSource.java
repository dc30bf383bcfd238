package io.rdmatrace.trace.store;

import io.rdmatrace.trace.codec.CorruptDocumentException;
import io.rdmatrace.trace.model.EventKind;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Documents read straight from the data files with bounded reads, never mapped: the way to read a
 * folder Chronicle cannot be trusted with (a truncated file, a damaged header or index, a missing
 * metadata file). A read past the end of a file is an end, not a SIGBUS.
 *
 * <p>Chronicle's framing: each document starts at a 4-byte aligned offset with a little-endian
 * header word, length in the low 30 bits, bit 30 set for metadata (the queue header, index
 * arrays, end-of-file markers: skipped here) and bit 31 set while a writer is still writing it.
 * A zero word is where the data of a file ends. The first file is read from its first data
 * document that starts like a SESSION (the reader checks the rest), so the events survive a
 * damaged queue header or index.
 */
final class FramedFileSource implements DocumentSource {

    static final int META_DATA = 0x4000_0000;
    static final int NOT_COMPLETE = 0x8000_0000;
    static final int LENGTH_MASK = 0x3fff_ffff;
    /** How far past a zero header word to look for data that a damaged word hides. */
    private static final int HIDDEN_SCAN = 1 << 20;
    /** How far into the first file to look for the SESSION (after the header and two index arrays of 32 KB). */
    private static final int SESSION_SCAN = 1 << 20;

    private final List<Path> files;
    private int fileIndex = -1;
    private FileChannel channel;
    private long size;
    private long offset;
    private long docOffset = -1;
    private byte[] buffer = new byte[4096];
    private final ByteBuffer word = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
    private String hidden;

    FramedFileSource(List<Path> files) {
        this.files = List.copyOf(files);
    }

    @Override
    public int next() {
        try {
            while (true) {
                if (channel == null && !nextFile()) {
                    return -1;
                }
                if (offset + 4 > size) {
                    endOfFile();
                    continue;
                }
                int w = readWord(offset);
                if (w == 0) {
                    checkNothingHidden(offset);
                    endOfFile();
                    continue;
                }
                int length = w & LENGTH_MASK;
                boolean meta = (w & META_DATA) != 0;
                if ((w & NOT_COMPLETE) != 0) {
                    if (meta && length == 0) { // end-of-file marker of a rolled file
                        endOfFile();
                        continue;
                    }
                    return endOfData(); // a document its writer never finished (killed mid-append)
                }
                long end = offset + 4 + length;
                if (end > size) {
                    return endOfData(); // the file ends inside this document: it was truncated
                }
                docOffset = offset;
                offset = (end + 3) & ~3L;
                if (meta) {
                    continue;
                }
                if (length > ChronicleSource.MAX_DOCUMENT) {
                    throw new CorruptDocumentException("document of " + length + " bytes is larger than any trace event");
                }
                if (length > buffer.length) {
                    buffer = new byte[Math.max(length, buffer.length * 2)];
                }
                readFully(docOffset + 4, length);
                return length;
            }
        } catch (IOException e) {
            throw new CorruptDocumentException("cannot read " + currentFile() + ": " + e);
        }
    }

    /**
     * Positions at the first data document of the next file; false when there is none. In the
     * first file that is the SESSION, found by looking for it rather than by trusting the header
     * and index documents before it; later files start after their queue header.
     */
    private boolean nextFile() throws IOException {
        if (++fileIndex >= files.size()) {
            return false;
        }
        Path f = files.get(fileIndex);
        channel = FileChannel.open(f, StandardOpenOption.READ);
        size = channel.size();
        offset = 0;
        if (fileIndex == 0) {
            offset = firstSession();
        } else if (size >= 4) {
            int w = readWord(0);
            int length = w & LENGTH_MASK;
            boolean header = (w & META_DATA) != 0 && (w & NOT_COMPLETE) == 0 && 4L + length <= size && length < 1 << 16;
            offset = header ? (4L + length + 3) & ~3L : size;
        }
        return true;
    }

    /** The first aligned complete data document that starts like an rdmatrace SESSION, else the end of the file. */
    private long firstSession() throws IOException {
        ByteBuffer head = ByteBuffer.allocate((int) Math.min(size, SESSION_SCAN)).order(ByteOrder.LITTLE_ENDIAN);
        while (head.hasRemaining() && channel.read(head, head.position()) > 0) {
            // fill
        }
        int n = head.position();
        byte[] h = head.array();
        for (int at = 0; at + 9 <= n; at += 4) {
            int w = head.getInt(at);
            int length = w & LENGTH_MASK;
            if ((w & (META_DATA | NOT_COMPLETE)) == 0 && length >= 5 && at + 4L + length <= size
                    && h[at + 4] == EventKind.SESSION.code() && h[at + 5] == 'R' && h[at + 6] == 'D' && h[at + 7] == 'M'
                    && h[at + 8] == 'T') {
                return at;
            }
        }
        return size;
    }

    private void checkNothingHidden(long at) throws IOException {
        long end = Math.min(size, at + HIDDEN_SCAN);
        ByteBuffer b = ByteBuffer.allocate(8192);
        for (long p = at; p < end; p += b.capacity()) {
            b.clear();
            int n = channel.read(b, p);
            for (int i = 0; i < n && p + i < end; i++) {
                if (b.get(i) != 0) {
                    hidden = "a zero document header at offset 0x" + Long.toHexString(at) + " of " + currentFile()
                            + " hides data at offset 0x" + Long.toHexString(p + i);
                    return;
                }
            }
        }
    }

    private int endOfData() throws IOException {
        closeChannel();
        fileIndex = files.size();
        return -1;
    }

    private void endOfFile() throws IOException {
        closeChannel();
    }

    private int readWord(long at) throws IOException {
        word.clear();
        if (channel.read(word, at) < 4) {
            return 0;
        }
        return word.getInt(0);
    }

    private void readFully(long at, int length) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(buffer, 0, length);
        while (b.hasRemaining()) {
            if (channel.read(b, at + b.position()) < 0) {
                throw new IOException("file ended inside a document");
            }
        }
    }

    @Override
    public byte[] buffer() {
        return buffer;
    }

    @Override
    public String position() {
        return docOffset >= 0 ? "offset 0x" + Long.toHexString(docOffset) : "";
    }

    @Override
    public Path currentFile() {
        return fileIndex >= 0 && fileIndex < files.size() ? files.get(fileIndex) : null;
    }

    @Override
    public long index() {
        return -1;
    }

    @Override
    public String hiddenDocuments() {
        return hidden;
    }

    @Override
    public void threadChanged() {
        // plain file reads: any thread
    }

    private void closeChannel() throws IOException {
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }

    @Override
    public void close() {
        try {
            closeChannel();
        } catch (IOException e) {
            // read-only
        }
    }
}
