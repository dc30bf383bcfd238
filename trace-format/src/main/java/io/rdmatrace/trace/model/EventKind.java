package io.rdmatrace.trace.model;

/**
 * The kind byte that starts every event in a trace queue. The codes are the on-disk format:
 * never renumber them. Code 11 is taken by the batch document that frames several events
 * (format 2.0, {@code io.rdmatrace.trace.codec.BatchDocument}): it is no event kind.
 */
public enum EventKind {
    SESSION(1),
    CALL(2),
    COMPLETION(3),
    ASYNC_EVENT(4),
    OOB(5),
    MARK(6),
    COUNTERS(7),
    END(8),
    CM_EVENT(9),
    PACKET(10);

    private static final EventKind[] BY_CODE = new EventKind[16];

    static {
        for (EventKind k : values()) {
            BY_CODE[k.code] = k;
        }
    }

    private final int code;

    EventKind(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The kind with this code, or null for an unknown code. */
    public static EventKind byCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
