package io.rdmatrace.trace.store;

import java.nio.file.Path;

/**
 * The file system cannot hold more of the trace (full, a quota, a file-size limit): the event was
 * not written, nor will any later one be. Everything written before it stays readable; close the
 * writer with {@link TraceWriter#closeTruncated()} (the END would not fit either).
 */
public final class TraceFullException extends IllegalStateException {
    private final transient Path folder;
    private final long eventsWritten;

    TraceFullException(Path folder, long eventsWritten, Throwable cause) {
        super("no space left on " + folder + " (" + eventsWritten + " events written): " + cause.getMessage(), cause);
        this.folder = folder;
        this.eventsWritten = eventsWritten;
    }

    /** The host folder that could not grow. */
    public Path folder() {
        return folder;
    }

    /** Events in the trace (SESSION included): the ones written before the disk filled. */
    public long eventsWritten() {
        return eventsWritten;
    }
}
