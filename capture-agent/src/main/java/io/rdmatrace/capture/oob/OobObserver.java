package io.rdmatrace.capture.oob;

/** Sees every message that crosses the channel (the recorder turns these into OOB trace events). */
public interface OobObserver {
    OobObserver NONE = new OobObserver() {
    };

    default void sent(OobMessage message) {
    }

    default void received(OobMessage message) {
    }

    /** A connection the listener refused (stray or hostile peer); the listener keeps waiting for the real one. */
    default void rejected(String remote, OobException why) {
    }
}
