package io.rdmatrace.trace.codec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The 32-bit check value that ends every trace document: a multiply-xor hash over the document's
 * bytes before it, read as little-endian 64-bit words plus a tail word (FORMAT.md gives the exact
 * algorithm). Chronicle frames documents but does not detect flipped bytes inside them; this does.
 */
public final class DocumentCheck {

    private DocumentCheck() {
    }

    public static final int SIZE = 4;

    private static final long SEED = 0x243F6A8885A308D3L;
    private static final long MULTIPLIER = 0x9E3779B97F4A7C15L;
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** The check value of {@code d[from, to)}. */
    public static int compute(byte[] d, int from, int to) {
        long h = SEED ^ (to - from);
        int p = from;
        for (; p + 8 <= to; p += 8) {
            h = mix(h, (long) LONG_LE.get(d, p));
        }
        long tail = 0;
        for (int shift = 0; p < to; p++, shift += 8) {
            tail |= (long) (d[p] & 0xFF) << shift;
        }
        h = mix(h, tail);
        return (int) (h ^ (h >>> 32));
    }

    private static long mix(long h, long word) {
        h ^= word;
        h *= MULTIPLIER;
        return h ^ (h >>> 31);
    }
}
