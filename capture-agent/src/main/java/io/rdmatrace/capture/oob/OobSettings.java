package io.rdmatrace.capture.oob;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How one agent runs its side of the exchange.
 *
 * @param hostId      told to the peer in HELLO
 * @param qpCount     --qps; both agents must agree
 * @param token       shared secret for HMAC authentication; empty = no authentication
 * @param peerWait    how long to wait for the peer to show up (listen: accept; connect: retries with backoff)
 * @param messageWait how long any single message may take to arrive
 */
public record OobSettings(String hostId, int qpCount, Optional<String> token, Duration peerWait, Duration messageWait) {

    public OobSettings {
        Objects.requireNonNull(hostId, "hostId");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(peerWait, "peerWait");
        Objects.requireNonNull(messageWait, "messageWait");
        if (qpCount < 1) {
            throw new IllegalArgumentException("qpCount must be >= 1");
        }
        if (token.isPresent() && token.get().isEmpty()) {
            throw new IllegalArgumentException("--token must not be empty");
        }
        if (peerWait.isNegative() || peerWait.isZero() || messageWait.isNegative() || messageWait.isZero()) {
            throw new IllegalArgumentException("waits must be positive");
        }
    }
}
