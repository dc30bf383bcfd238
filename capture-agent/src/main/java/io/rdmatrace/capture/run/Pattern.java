package io.rdmatrace.capture.run;

import io.rdmatrace.capture.oob.OobRole;
import java.nio.ByteBuffer;

/**
 * The bytes TC04 sends: a function of the sender's role, the QP index and the iteration, so the
 * receiver can check every byte and tell a stale or misrouted message from the right one.
 */
public final class Pattern {
    private Pattern() {
    }

    public static byte at(OobRole sender, int qpIndex, int iteration, int i) {
        int seed = sender == OobRole.LISTEN ? 0x5A : 0xA5;
        return (byte) (i * 7 + qpIndex * 13 + iteration * 31 + seed);
    }

    /** Writes the pattern into {@code buf} at [offset, offset+length). */
    public static void fill(ByteBuffer buf, int offset, int length, OobRole sender, int qpIndex, int iteration) {
        for (int i = 0; i < length; i++) {
            buf.put(offset + i, at(sender, qpIndex, iteration, i));
        }
    }

    /** The index of the first byte that differs, or -1 when all {@code length} bytes match. */
    public static int firstMismatch(ByteBuffer buf, int offset, int length, OobRole sender, int qpIndex, int iteration) {
        for (int i = 0; i < length; i++) {
            if (buf.get(offset + i) != at(sender, qpIndex, iteration, i)) {
                return i;
            }
        }
        return -1;
    }

    public static void clear(ByteBuffer buf, int offset, int length) {
        for (int i = 0; i < length; i++) {
            buf.put(offset + i, (byte) 0);
        }
    }
}
