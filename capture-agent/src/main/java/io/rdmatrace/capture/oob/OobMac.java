package io.rdmatrace.capture.oob;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 authentication of one OOB connection. The session key is derived from the shared token
 * and both HELLO payloads (which carry a fresh nonce from each side), so a MAC recorded on one connection
 * is worthless on another; each frame's MAC also covers the sender's role and a per-direction sequence
 * number, so frames cannot be replayed, reordered or reflected back within a connection.
 */
final class OobMac {
    static final int MAC_BYTES = 32;
    private static final String ALGORITHM = "HmacSHA256";
    private static final byte[] LABEL = "rdmatrace-oob-v1".getBytes(StandardCharsets.US_ASCII);

    private final byte[] sessionKey;

    private OobMac(byte[] sessionKey) {
        this.sessionKey = sessionKey;
    }

    static OobMac derive(String token, byte[] listenerHello, byte[] connectorHello) {
        Mac mac = newMac(token.getBytes(StandardCharsets.UTF_8));
        mac.update(LABEL);
        mac.update(ByteBuffer.allocate(4).putInt(listenerHello.length).array());
        mac.update(listenerHello);
        mac.update(ByteBuffer.allocate(4).putInt(connectorHello.length).array());
        mac.update(connectorHello);
        return new OobMac(mac.doFinal());
    }

    byte[] sign(OobRole sender, long seq, byte[] header, byte[] payload) {
        Mac mac = newMac(sessionKey);
        mac.update((byte) sender.code());
        mac.update(ByteBuffer.allocate(8).putLong(seq).array());
        mac.update(header);
        mac.update(payload);
        return mac.doFinal();
    }

    boolean verify(OobRole sender, long seq, byte[] header, byte[] payload, byte[] received) {
        return received != null && MessageDigest.isEqual(sign(sender, seq, header, payload), received);
    }

    private static Mac newMac(byte[] key) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(key, ALGORITHM));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }
}
