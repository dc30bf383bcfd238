package io.rdmatrace.trace.codec;

import java.nio.charset.StandardCharsets;

/**
 * Reads the primitive encodings of FORMAT.md from a byte array window, bounds-checked: running
 * past the end or a malformed number or string is a {@link CorruptDocumentException}, never a
 * garbage value or an unchecked exception.
 */
public final class ByteSource {

    private byte[] buf;
    private int pos;
    private int limit;

    public void wrap(byte[] buf, int from, int limit) {
        this.buf = buf;
        this.pos = from;
        this.limit = limit;
    }

    int position() {
        return pos;
    }

    public int remaining() {
        return limit - pos;
    }

    void limit(int limit) {
        this.limit = limit;
    }

    private void need(int n) {
        if (limit - pos < n) {
            throw new CorruptDocumentException("document ends early at offset " + pos + " (needs " + n + " more bytes)");
        }
    }

    int u8() {
        need(1);
        return buf[pos++] & 0xFF;
    }

    int u16() {
        need(2);
        int v = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8;
        pos += 2;
        return v;
    }

    int i32() {
        need(4);
        int v = 0;
        for (int i = 3; i >= 0; i--) {
            v = (v << 8) | (buf[pos + i] & 0xFF);
        }
        pos += 4;
        return v;
    }

    long i64() {
        need(8);
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (buf[pos + i] & 0xFF);
        }
        pos += 8;
        return v;
    }

    public long stop() {
        int p = pos;
        if (p < limit && buf[p] >= 0) { // one byte: 0..127, the common case
            pos = p + 1;
            return buf[p];
        }
        return stopMultiByte();
    }

    private long stopMultiByte() {
        long v = 0;
        int shift = 0;
        for (int i = 0; i < 10; i++) {
            if (pos >= limit) {
                throw new CorruptDocumentException("document ends early inside a number at offset " + pos);
            }
            int b = buf[pos++] & 0xFF;
            if (b == 0 && i > 0) {
                return ~v; // the 0x00 after a continued group marks a negative number
            }
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
            shift += 7;
        }
        throw new CorruptDocumentException("stop-bit number longer than 10 bytes at offset " + pos);
    }

    /** A stop-bit number that must fit an int. */
    int stopInt() {
        long v = stop();
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new CorruptDocumentException("value " + v + " does not fit a 32-bit field");
        }
        return (int) v;
    }

    public String utf8() {
        int start = pos;
        long n = stop();
        if (n < 0 || n > remaining()) {
            throw new CorruptDocumentException("string length " + n + " at offset " + start + " runs past the document");
        }
        int end = pos + (int) n;
        boolean ascii = true;
        for (int i = pos; i < end; i++) {
            if (buf[i] < 0) {
                ascii = false;
                break;
            }
        }
        if (ascii) {
            String s = new String(buf, pos, (int) n, StandardCharsets.ISO_8859_1); // ASCII: a plain copy
            pos = end;
            return s;
        }
        char[] chars = new char[(int) n];
        int c = 0;
        while (pos < end) {
            int b0 = buf[pos++] & 0xFF;
            if (b0 < 0x80) {
                chars[c++] = (char) b0;
            } else if ((b0 & 0xE0) == 0xC0 && pos < end) {
                chars[c++] = (char) (((b0 & 0x1F) << 6) | cont(buf[pos++]));
            } else if ((b0 & 0xF0) == 0xE0 && pos + 1 < end) {
                int b1 = cont(buf[pos++]);
                chars[c++] = (char) (((b0 & 0x0F) << 12) | (b1 << 6) | cont(buf[pos++]));
            } else {
                throw new CorruptDocumentException("bad UTF-8 byte 0x" + Integer.toHexString(b0) + " at offset " + (pos - 1));
            }
        }
        return new String(chars, 0, c);
    }

    /** True when the next string equals {@code s} byte for byte (then it is consumed); else nothing is consumed. */
    boolean skipIfAsciiEquals(String s) {
        int save = pos;
        long n = stop();
        if (n != s.length() || n > remaining()) {
            pos = save;
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (buf[pos + i] != (byte) s.charAt(i) || s.charAt(i) >= 0x80) {
                pos = save;
                return false;
            }
        }
        pos += (int) n;
        return true;
    }

    private int cont(byte b) {
        if ((b & 0xC0) != 0x80) {
            throw new CorruptDocumentException("bad UTF-8 continuation byte at offset " + (pos - 1));
        }
        return b & 0x3F;
    }
}
