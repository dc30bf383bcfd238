package io.rdmatrace.capture.oob;

import java.io.IOException;
import java.util.Objects;

/** A typed failure of the out-of-band exchange: the kind says what went wrong, the message says what to do. */
public final class OobException extends IOException {
    private static final long serialVersionUID = 1L;

    /** What went wrong; callers and tests branch on this, people read the message. */
    public enum Kind {
        /** The peer could not be reached (or never connected) before the deadline. */
        CONNECT_FAILED,
        /** The peer sent nothing (or too little) within the wait. */
        TIMEOUT,
        /** The peer closed the connection between two messages. */
        CLOSED,
        /** The peer closed the connection in the middle of a message. */
        TRUNCATED,
        /** The first bytes are not the rdmatrace OOB magic: not an rdmatrace agent. */
        BAD_MAGIC,
        /** The peer speaks another version of the OOB format. */
        BAD_VERSION,
        /** A length field above the format's maximum. */
        OVERSIZED,
        /** A frame whose payload does not decode (unknown type, short fields, bad values). */
        MALFORMED,
        /** One side has a --token and the other has none. */
        AUTH_REQUIRED,
        /** The message authentication code does not verify (wrong --token or tampering). */
        AUTH_FAILED,
        /** A well-formed message that does not fit the protocol at this point. */
        UNEXPECTED,
        /** The peer reported an error of its own and gave up. */
        PEER_ERROR,
        /** The two agents disagree on something they must share (e.g. --qps). */
        MISMATCH
    }

    private final Kind kind;

    public OobException(Kind kind, String message) {
        super(message);
        this.kind = Objects.requireNonNull(kind);
    }

    public OobException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind);
    }

    public Kind kind() {
        return kind;
    }

    /** The message without the "oob kind:" prefix. */
    public String detail() {
        return super.getMessage();
    }

    @Override
    public String getMessage() {
        return "oob " + kind.name().toLowerCase(java.util.Locale.ROOT) + ": " + super.getMessage();
    }
}
