package io.rdmatrace.trace.model;

import java.util.Objects;

/**
 * One out-of-band (TCP) message sent to or received from the peer agent, with the parameters it
 * carried as attributes: {@link Attr#QP_NUM}, {@link Attr#LID}, {@link Attr#GID},
 * {@link Attr#GID_INDEX}, {@link Attr#PSN}, {@link Attr#PATH_MTU}, {@link Attr#ADDR},
 * {@link Attr#RKEY}, {@link Attr#LENGTH}, {@link Attr#PKEY}, {@link Attr#QP_TYPE},
 * {@link Attr#CONN_INDEX}, {@link Attr#OOB_VERSION}, {@link Attr#MESSAGE} …
 *
 * @param peer the peer's address as text, e.g. {@code 127.0.0.2:18515}
 */
public record OobEvent(EventHeader header, Direction direction, String peer, Kind oobKind, Attrs attrs)
        implements TraceEvent {
    public OobEvent {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(direction, "direction");
        Objects.requireNonNull(peer, "peer");
        Objects.requireNonNull(oobKind, "oobKind");
        Objects.requireNonNull(attrs, "attrs");
    }

    @Override
    public EventKind kind() {
        return EventKind.OOB;
    }

    /** Codes are on-disk: never renumber. */
    public enum Direction {
        SENT(1), RECEIVED(2);

        private final int code;

        Direction(int code) {
            this.code = code;
        }

        public int code() {
            return code;
        }

        public static Direction byCode(int code) {
            for (Direction d : values()) {
                if (d.code == code) {
                    return d;
                }
            }
            return null;
        }
    }

    /** The message type of the out-of-band protocol. Codes are on-disk: never renumber. */
    public enum Kind {
        /** version / identity / authentication handshake */
        HELLO(1),
        /** connection parameters (one per connection) */
        PARAMS(2),
        /** barrier phase message ("I am in RTS") */
        BARRIER(3),
        /** end of the exchange / test done */
        DONE(4),
        /** the peer or we reported an error; the text is in {@link Attr#MESSAGE} */
        ERROR(5),
        /** barrier acknowledgement (second phase of the two-phase barrier) */
        BARRIER_ACK(6),
        /** a message we could not decode (garbage, wrong version, oversized); details in MESSAGE */
        INVALID(7);

        private final int code;

        Kind(int code) {
            this.code = code;
        }

        public int code() {
            return code;
        }

        public static Kind byCode(int code) {
            for (Kind k : values()) {
                if (k.code == code) {
                    return k;
                }
            }
            return null;
        }
    }
}
