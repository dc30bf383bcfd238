package io.rdmatrace.trace.names;

/**
 * The trace's one GID text form: 16 bytes ↔ canonical IPv6 text (RFC 5952: lowercase, the longest
 * run of two or more zero groups as "::", a single zero group not compressed), an IPv4-mapped GID
 * written {@code ::ffff:a.b.c.d}. The recorder writes GIDs with {@link #format}; replay and export
 * read them back with {@link #parse}. java.net is no help: it turns a mapped address into an IPv4 one.
 */
public final class GidText {
    private GidText() {
    }

    /** Canonical text of a 16-byte GID. */
    public static String format(byte[] gid) {
        if (gid == null || gid.length != 16) {
            throw new IllegalArgumentException("a GID is 16 bytes, got " + (gid == null ? "null" : gid.length));
        }
        if (isIpv4Mapped(gid)) {
            return "::ffff:" + (gid[12] & 0xff) + "." + (gid[13] & 0xff) + "." + (gid[14] & 0xff) + "." + (gid[15] & 0xff);
        }
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) {
            g[i] = (gid[2 * i] & 0xff) << 8 | gid[2 * i + 1] & 0xff;
        }
        int bestStart = -1;
        int bestLen = 0;
        for (int i = 0; i < 8; ) {
            if (g[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        if (bestLen < 2) {
            bestStart = -1;
        }
        StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLen - 1;
                continue;
            }
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
                sb.append(':');
            }
            sb.append(Integer.toHexString(g[i]));
        }
        return sb.toString();
    }

    /** The 16 bytes of an IPv6 text (any valid form, not only the canonical one), or null when it is not one. */
    public static byte[] parse(String text) {
        if (text == null || text.length() < 2 || text.length() > 45 || text.indexOf(':') < 0) {
            return null;
        }
        String s = text;
        int lastColon = s.lastIndexOf(':');
        String tail = s.substring(lastColon + 1);
        int[] v4 = null;
        if (tail.indexOf('.') >= 0) { // an embedded IPv4 tail fills the last two groups
            v4 = ipv4Octets(tail);
            if (v4 == null) {
                return null;
            }
            s = s.substring(0, lastColon + 1) + "0:0"; // placeholder groups, replaced below
        }
        int doubleColon = s.indexOf("::");
        if (doubleColon >= 0 && s.indexOf("::", doubleColon + 1) >= 0) {
            return null;
        }
        int[] head = groups(doubleColon >= 0 ? s.substring(0, doubleColon) : s);
        int[] rest = groups(doubleColon >= 0 ? s.substring(doubleColon + 2) : "");
        if (head == null || rest == null) {
            return null;
        }
        if (doubleColon < 0 && head.length != 8 || doubleColon >= 0 && head.length + rest.length > 7) {
            return null;
        }
        int[] groups = new int[8];
        System.arraycopy(head, 0, groups, 0, head.length);
        System.arraycopy(rest, 0, groups, 8 - rest.length, rest.length);
        byte[] bytes = new byte[16];
        for (int i = 0; i < 8; i++) {
            bytes[2 * i] = (byte) (groups[i] >> 8);
            bytes[2 * i + 1] = (byte) groups[i];
        }
        if (v4 != null) {
            for (int i = 0; i < 4; i++) {
                bytes[12 + i] = (byte) v4[i];
            }
        }
        return bytes;
    }

    /** {@link #parse} for text that must be a GID (surrounding blanks allowed). */
    public static byte[] bytes(String text) {
        byte[] b = text == null ? null : parse(text.trim());
        if (b == null) {
            throw new IllegalArgumentException("not a GID: '" + text + "'");
        }
        return b;
    }

    /** The four octets of a dotted quad, or null when it is not one. */
    public static int[] ipv4Octets(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        int[] octets = new int[4];
        for (int i = 0; i < 4; i++) {
            String p = parts[i];
            if (p.isEmpty() || p.length() > 3) {
                return null;
            }
            int v = 0;
            for (int k = 0; k < p.length(); k++) {
                char c = p.charAt(k);
                if (c < '0' || c > '9') {
                    return null;
                }
                v = v * 10 + (c - '0');
            }
            if (v > 255) {
                return null;
            }
            octets[i] = v;
        }
        return octets;
    }

    private static int[] groups(String part) {
        if (part.isEmpty()) {
            return new int[0];
        }
        String[] words = part.split(":", -1);
        int[] out = new int[words.length];
        for (int i = 0; i < words.length; i++) {
            String w = words[i];
            if (w.isEmpty() || w.length() > 4) {
                return null;
            }
            int v = 0;
            for (int k = 0; k < w.length(); k++) {
                int d = Character.digit(w.charAt(k), 16);
                if (d < 0) {
                    return null;
                }
                v = v << 4 | d;
            }
            out[i] = v;
        }
        return out;
    }

    /** ::ffff:a.b.c.d */
    public static boolean isIpv4Mapped(byte[] b) {
        for (int i = 0; i < 10; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return b[10] == (byte) 0xff && b[11] == (byte) 0xff;
    }

    /** fe80::/10. */
    public static boolean isLinkLocal(byte[] b) {
        return (b[0] & 0xff) == 0xfe && (b[1] & 0xc0) == 0x80;
    }

    public static boolean isZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    /** Bytes [from, from+8) as a big-endian long: 0 is the subnet prefix, 8 the interface id (GUID). */
    public static long half(byte[] b, int from) {
        long v = 0;
        for (int i = from; i < from + 8; i++) {
            v = v << 8 | b[i] & 0xff;
        }
        return v;
    }

    public static void putHalf(byte[] b, int from, long v) {
        for (int i = from + 7; i >= from; i--) {
            b[i] = (byte) v;
            v >>>= 8;
        }
    }
}
