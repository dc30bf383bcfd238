package io.rdmatrace.verbs;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Optional;

/** A 128-bit GID (union ibv_gid), in network byte order as the GID table holds it. */
public final class Gid {
    public static final Gid ZERO = new Gid(new byte[16]);

    private final byte[] raw;

    private Gid(byte[] raw) {
        this.raw = raw;
    }

    /** Takes {@code raw} (16 bytes, not shared with anyone) without copying it: for decoders. */
    static Gid wrap(byte[] raw) {
        return new Gid(raw);
    }

    /** A copy of {@code raw}, which must be 16 bytes. */
    public static Gid of(byte[] raw) {
        if (raw == null || raw.length != 16) {
            throw new IllegalArgumentException("a GID is 16 bytes");
        }
        return new Gid(raw.clone());
    }

    /** The RoCE GID of an IPv4 address: ::ffff:a.b.c.d. */
    public static Gid ofIpv4(byte[] ipv4) {
        if (ipv4 == null || ipv4.length != 4) {
            throw new IllegalArgumentException("an IPv4 address is 4 bytes");
        }
        byte[] raw = new byte[16];
        raw[10] = (byte) 0xff;
        raw[11] = (byte) 0xff;
        System.arraycopy(ipv4, 0, raw, 12, 4);
        return new Gid(raw);
    }

    /** Parses the 8-group hex form {@link #toString} prints. */
    public static Gid parse(String text) {
        String[] groups = text.trim().split(":");
        if (groups.length != 8) {
            throw new IllegalArgumentException("GID '" + text + "' needs 8 colon-separated groups of hex");
        }
        byte[] raw = new byte[16];
        for (int i = 0; i < 8; i++) {
            int v = Integer.parseInt(groups[i], 16);
            if (v < 0 || v > 0xffff) {
                throw new IllegalArgumentException("GID '" + text + "' has a group above ffff");
            }
            raw[2 * i] = (byte) (v >>> 8);
            raw[2 * i + 1] = (byte) v;
        }
        return new Gid(raw);
    }

    /** True when the 16 bytes of {@code bytes} from {@code from} are this GID (compared in place). */
    boolean matches(byte[] bytes, int from) {
        return Arrays.equals(raw, 0, 16, bytes, from, from + 16);
    }

    /** Same for the 16 bytes of {@code buffer} from byte {@code from} (absolute: its position is left alone). */
    boolean matches(ByteBuffer buffer, int from) {
        for (int i = 0; i < 16; i++) {
            if (raw[i] != buffer.get(from + i)) {
                return false;
            }
        }
        return true;
    }

    public byte[] raw() {
        return raw.clone();
    }

    public boolean isZero() {
        for (byte b : raw) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    /** The IPv4 address of a ::ffff:a.b.c.d GID. */
    public Optional<String> ipv4() {
        for (int i = 0; i < 10; i++) {
            if (raw[i] != 0) {
                return Optional.empty();
            }
        }
        if (raw[10] != (byte) 0xff || raw[11] != (byte) 0xff) {
            return Optional.empty();
        }
        return Optional.of((raw[12] & 0xff) + "." + (raw[13] & 0xff) + "." + (raw[14] & 0xff) + "." + (raw[15] & 0xff));
    }

    /** Eight groups of four hex digits: {@code 0000:0000:0000:0000:0000:ffff:7f00:0001}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < 16; i += 2) {
            if (i > 0) {
                sb.append(':');
            }
            sb.append(String.format("%02x%02x", raw[i] & 0xff, raw[i + 1] & 0xff));
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Gid other && Arrays.equals(raw, other.raw);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(raw);
    }
}
