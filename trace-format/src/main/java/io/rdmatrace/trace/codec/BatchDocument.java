package io.rdmatrace.trace.codec;

import io.rdmatrace.trace.model.EventKind;

/**
 * Several events in one Chronicle document (format 2.0): Chronicle's cost is per document (its
 * header word, the index, the write lock), a few hundred nanoseconds, more than encoding the
 * event itself. The document is the kind byte {@link #KIND}, then for each event its length
 * ({@code stop}) and its bytes, each event exactly as it would be as a document of its own
 * (kind, header, payload, check value). A writer gathers events into one only while it is told
 * to ({@code TraceWriter.beginBatch}); every other event stays a document of its own.
 *
 * <p>{@link Cursor} walks the events of one batch document, refusing a length that runs past it.
 */
public final class BatchDocument {
    /** The kind byte of a batch document: never an {@link EventKind} code. */
    public static final int KIND = 11;
    /** Gathered bytes beyond which a writer writes the batch out (a few pages of the queue file). */
    public static final int MAX_BYTES = 16 * 1024;

    static {
        if (EventKind.byCode(KIND) != null) {
            throw new ExceptionInInitializerError("event kind code " + KIND + " is the batch document's");
        }
    }

    private BatchDocument() {
    }

    /** True when the document {@code d[0, len)} is a batch document. */
    public static boolean is(byte[] d, int len) {
        return len > 0 && (d[0] & 0xFF) == KIND;
    }

    /** Starts a batch document in {@code b} (emptied first). */
    public static void begin(ByteSink b) {
        b.reset();
        b.u8(KIND);
    }

    /** Appends the event {@code e[0, len)} to the batch document in {@code b}; returns where its bytes start. */
    public static int add(ByteSink b, byte[] e, int len) {
        b.stop(len);
        int at = b.length();
        b.bytes(e, 0, len);
        return at;
    }

    /** The events of one batch document, in order. */
    public static final class Cursor {
        private final ByteSource in = new ByteSource();
        private byte[] d;
        private int pos;
        private int end;
        private int start;
        private int index = -1;

        /** Starts at the first event of the batch document {@code d[0, len)}; it must hold one. */
        public void start(byte[] d, int len) {
            if (!is(d, len) || len < 2) {
                throw new CorruptDocumentException("a batch document without events");
            }
            this.d = d;
            this.pos = 1;
            this.end = len;
            this.index = -1;
        }

        /** True while events remain. */
        public boolean hasNext() {
            return d != null && pos < end;
        }

        /** Moves to the next event; returns its length ({@link #start()} is where it begins). */
        public int next() {
            in.wrap(d, pos, end);
            long n = in.stop();
            int at = in.position();
            if (n < 1 + DocumentCheck.SIZE || n > end - at) {
                throw new CorruptDocumentException("event " + (index + 2) + " of a batch document has length " + n
                        + " with " + (end - at) + " bytes left in the document");
            }
            start = at;
            pos = at + (int) n;
            index++;
            return (int) n;
        }

        /** Where the current event's bytes begin in the document. */
        public int start() {
            return start;
        }

        /** The current event's position in its batch document, from 0. */
        public int index() {
            return index;
        }

        /** Forgets the document (the next read starts from the source again). */
        public void clear() {
            d = null;
            pos = end = 0;
            index = -1;
        }
    }
}
