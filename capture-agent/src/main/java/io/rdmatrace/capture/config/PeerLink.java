package io.rdmatrace.capture.config;

import io.rdmatrace.capture.oob.OobRole;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How this agent reaches the other one.
 *
 * @param role      listen or connect
 * @param endpoint  the --listen [ADDR:]PORT or --connect HOST:PORT text
 * @param token     shared --token for HMAC authentication
 * @param barrier   false with --no-barrier: send without waiting for the peer's RTS
 * @param peerWait  how long to wait for the peer to show up
 * @param messageWait how long any one message from the peer may take
 */
public record PeerLink(OobRole role, String endpoint, Optional<String> token, boolean barrier, Duration peerWait,
                       Duration messageWait) {
    public PeerLink {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(peerWait, "peerWait");
        Objects.requireNonNull(messageWait, "messageWait");
    }
}
