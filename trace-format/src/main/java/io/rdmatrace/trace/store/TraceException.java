package io.rdmatrace.trace.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A trace folder could not be opened (or created). The {@link Problem} says what kind of
 * problem it is so a command can choose its exit code; the message names the folder and says
 * what to do.
 */
public final class TraceException extends IOException {

    private static final long serialVersionUID = 1L;

    /** What went wrong. */
    public enum Problem {
        /** the path does not exist */
        NOT_FOUND,
        /** the path is a file, not a folder */
        NOT_A_DIRECTORY,
        /** the folder is empty */
        EMPTY,
        /** the folder holds no Chronicle Queue files, or unreadable ones */
        NOT_A_QUEUE,
        /** a Chronicle Queue, but not an rdmatrace trace (its first document is no SESSION) */
        NOT_A_TRACE,
        /** a queue without any document: the capture died before writing its SESSION */
        NO_SESSION,
        /** the SESSION's format major version is not the one this build reads */
        UNSUPPORTED_VERSION,
        /** the SESSION document could not be decoded */
        CORRUPT_SESSION,
        /** the queue's files are damaged (truncated, damaged header) and no event could be recovered */
        DAMAGED,
        /** no host folders found under a parent folder */
        NO_TRACES,
        /** the writer's target folder already holds a trace */
        ALREADY_EXISTS,
        /** another live writer holds the folder's writer lock */
        LOCKED,
        /** a host id that cannot be a folder name */
        BAD_HOST_ID,
        /** an operating-system or Chronicle error */
        IO
    }

    private final Problem problem;
    private final transient Path path;

    public TraceException(Problem problem, Path path, String message) {
        this(problem, path, message, null);
    }

    public TraceException(Problem problem, Path path, String message, Throwable cause) {
        super(message, cause);
        this.problem = Objects.requireNonNull(problem, "problem");
        this.path = path;
    }

    public Problem problem() {
        return problem;
    }

    /** The folder (or file) the problem is about; may be null. */
    public Path path() {
        return path;
    }
}
