package io.rdmatrace.capture.oob;

/**
 * Sees every message that crosses the channel (the recorder turns these into OOB trace events).
 * {@code remote} is the peer's address as text, e.g. {@code 127.0.0.2:7471}.
 */
public interface OobObserver {
    OobObserver NONE = new OobObserver() {
    };

    default void sent(String remote, OobMessage message) {
    }

    default void received(String remote, OobMessage message) {
    }

    /** A connection the listener refused (stray or hostile peer); the listener keeps waiting for the real one. */
    default void rejected(String remote, OobException why) {
    }
}
