package io.rdmatrace.trace;

import java.util.Arrays;

/**
 * A growable little-endian byte buffer with the primitive encodings of FORMAT.md (fixed-width
 * integers, stop-bit numbers, length-prefixed UTF-8). Events are encoded here and then copied
 * into a Chronicle document in one bulk write: one bounds check instead of dozens of checked
 * single-byte Chronicle calls. Not thread-safe; reused per writer.
 */
final class ByteSink {

    private byte[] buf;
    private int len;

    ByteSink(int initialCapacity) {
        buf = new byte[Math.max(16, initialCapacity)];
    }

    void reset() {
        len = 0;
    }

    byte[] array() {
        return buf;
    }

    int length() {
        return len;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, len);
    }

    private void ensure(int more) {
        if (len + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
        }
    }

    ByteSink u8(int v) {
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
        for (int i = 0; i < 4; i++) {
            buf[len++] = (byte) (v >>> (8 * i));
        }
        return this;
    }

    ByteSink i64(long v) {
        ensure(8);
        for (int i = 0; i < 8; i++) {
            buf[len++] = (byte) (v >>> (8 * i));
        }
        return this;
    }

    /** Stop-bit number: 7 bits per byte, low group first; negative n as ~n then a 0x00 byte. */
    ByteSink stop(long v) {
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
    ByteSink utf8(String s) {
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
