package io.rdmatrace.trace.codec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A growable little-endian byte buffer with the primitive encodings of FORMAT.md (fixed-width
 * integers, stop-bit numbers, length-prefixed UTF-8). Events are encoded here and then copied
 * into a Chronicle document in one bulk write: one bounds check instead of dozens of checked
 * single-byte Chronicle calls. Not thread-safe; reused per writer.
 */
public final class ByteSink {

    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private byte[] buf;
    private int len;

    public ByteSink(int initialCapacity) {
        buf = new byte[Math.max(16, initialCapacity)];
    }

    public void reset() {
        len = 0;
    }

    public byte[] array() {
        return buf;
    }

    public int length() {
        return len;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buf, len);
    }

    private void ensure(int more) {
        if (len + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
        }
    }

    /** Raw bytes {@code b[from, from + n)}. */
    public ByteSink bytes(byte[] b, int from, int n) {
        ensure(n);
        System.arraycopy(b, from, buf, len, n);
        len += n;
        return this;
    }

    public ByteSink u8(int v) {
        ensure(1);
        buf[len++] = (byte) v;
        return this;
    }

    ByteSink u16(int v) {
        ensure(2);
        buf[len++] = (byte) v;
        buf[len++] = (byte) (v >>> 8);
        return this;
    }

    ByteSink i32(int v) {
        ensure(4);
        INT_LE.set(buf, len, v);
        len += 4;
        return this;
    }

    public ByteSink i64(long v) {
        ensure(8);
        LONG_LE.set(buf, len, v);
        len += 8;
        return this;
    }

    /** Stop-bit number: 7 bits per byte, low group first; negative n as ~n then a 0x00 byte. */
    public ByteSink stop(long v) {
        if ((v & ~0x7FL) == 0) { // 0..127, most codes and values: one byte
            ensure(1);
            buf[len++] = (byte) v;
            return this;
        }
        ensure(10);
        long n = v < 0 ? ~v : v;
        while ((n & ~0x7FL) != 0) {
            buf[len++] = (byte) ((n & 0x7F) | 0x80);
            n >>>= 7;
        }
        if (v < 0) {
            buf[len++] = (byte) (n | 0x80);
            buf[len++] = 0;
        } else {
            buf[len++] = (byte) n;
        }
        return this;
    }

    /** Stop-bit byte length, then each UTF-16 code unit as 1–3 UTF-8 bytes (surrogates kept as is). */
    public ByteSink utf8(String s) {
        // one pass for the usual ASCII text (thread names, GIDs): its byte length is its length
        int start = len;
        int n = s.length();
        stop(n);
        ensure(n);
        byte[] b = buf;
        int p = len;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                len = start;
                return utf8Wide(s);
            }
            b[p++] = (byte) c;
        }
        len = p;
        return this;
    }

    private ByteSink utf8Wide(String s) {
        int n = s.length();
        int bytes = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
        }
        stop(bytes);
        ensure(bytes);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                buf[len++] = (byte) c;
            } else if (c < 0x800) {
                buf[len++] = (byte) (0xC0 | (c >> 6));
                buf[len++] = (byte) (0x80 | (c & 0x3F));
            } else {
                buf[len++] = (byte) (0xE0 | (c >> 12));
                buf[len++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                buf[len++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        return this;
    }
}
