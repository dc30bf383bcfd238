package io.rdmatrace.trace.store;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How reading a trace ended. Everything readable before the end was returned in every case.
 *
 * @param status        CLEAN, RECORDING, TRUNCATED or CORRUPT
 * @param eventsRead    events returned (SESSION and END included)
 * @param detail        one sentence for people
 * @param file          CORRUPT: the queue file holding the bad document (may be null if unknown); else null
 * @param documentIndex CORRUPT: the Chronicle index of the bad document (-1 if unknown); else -1
 */
public record ReadOutcome(Status status, long eventsRead, String detail, Path file, long documentIndex) {

    public ReadOutcome {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(detail, "detail");
    }

    public enum Status {
        /** the END event was read: the capture closed its trace */
        CLEAN,
        /**
         * no END event yet and a live process holds the folder's writer lock: the trace is still being
         * written; every complete event so far was read (a document being appended is not one yet)
         */
        RECORDING,
        /** no END event and no live writer: the capture was killed or crashed; all complete events were read */
        TRUNCATED,
        /** a document could not be decoded; the events before it were read */
        CORRUPT
    }

    public boolean isClean() {
        return status == Status.CLEAN;
    }
}
