package io.rdmatrace.trace.store;

import java.nio.file.Path;

/**
 * Where {@link TraceReader} gets the documents of one host folder: Chronicle's mapped queue
 * ({@link ChronicleSource}, the normal case) or the data files framed directly with bounded reads
 * ({@link FramedFileSource}, for folders whose files Chronicle cannot be trusted to map).
 */
sealed interface DocumentSource extends AutoCloseable permits ChronicleSource, FramedFileSource {

    /**
     * Copies the next data document into {@link #buffer()} and returns its length, or -1 when there
     * is none.
     *
     * @throws CorruptDocumentException when the next document cannot be framed
     */
    int next();

    /** The bytes of the document returned by {@link #next()}. */
    byte[] buffer();

    /** Where the last document (or the damage) is, for messages: "index 0x…" or "offset 0x…". */
    String position();

    /** The data file being read; may be null. */
    Path currentFile();

    /** The Chronicle index of the last document returned, or -1 when the source has none. */
    long index();

    /**
     * Called at the end of the documents: why documents the source knows of were not reached, or
     * null when none were hidden.
     */
    String hiddenDocuments();

    /** The calling thread reads from now on. */
    void threadChanged();

    @Override
    void close();
}
