package io.rdmatrace.analyzer.export;

/**
 * IPv6 text ↔ 16 bytes for GIDs, in the trace's canonical form (RFC 5952: lowercase, longest
 * zero run as "::", a single zero group not compressed) with IPv4-mapped addresses written
 * {@code ::ffff:a.b.c.d}. java.net is no help: it turns a mapped address into an IPv4 one.
 */
final class Ipv6 {
    private Ipv6() {
    }

    /** The 16 bytes of an IPv6 text, or null when it is not one. */
    static byte[] parse(String text) {
        if (text == null || text.length() < 2 || text.length() > 45 || text.indexOf(':') < 0) {
            return null;
        }
        String s = text;
        int[] groups = new int[8];
        int count = 0;
        // an embedded IPv4 tail fills the last two groups
        int lastColon = s.lastIndexOf(':');
        String tail = s.substring(lastColon + 1);
        int[] v4 = null;
        if (tail.indexOf('.') >= 0) {
            v4 = Ipv4.parse(tail);
            if (v4 == null) {
                return null;
            }
            s = s.substring(0, lastColon + 1) + "0:0"; // placeholder groups, replaced below
        }
        int doubleColon = s.indexOf("::");
        if (doubleColon >= 0 && s.indexOf("::", doubleColon + 1) >= 0) {
            return null;
        }
        String head = doubleColon >= 0 ? s.substring(0, doubleColon) : s;
        String rest = doubleColon >= 0 ? s.substring(doubleColon + 2) : "";
        int[] headGroups = groups(head);
        int[] restGroups = groups(rest);
        if (headGroups == null || restGroups == null) {
            return null;
        }
        if (doubleColon < 0 && headGroups.length != 8 || doubleColon >= 0 && headGroups.length + restGroups.length > 7) {
            return null;
        }
        for (int g : headGroups) {
            groups[count++] = g;
        }
        count = 8 - restGroups.length;
        for (int g : restGroups) {
            groups[count++] = g;
        }
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

    static boolean isIpv4Mapped(byte[] b) {
        for (int i = 0; i < 10; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return b[10] == (byte) 0xff && b[11] == (byte) 0xff;
    }

    /** fe80::/10. */
    static boolean isLinkLocal(byte[] b) {
        return (b[0] & 0xff) == 0xfe && (b[1] & 0xc0) == 0x80;
    }

    static boolean isZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    /** Canonical text, as the recorder writes GIDs. */
    static String format(byte[] b) {
        if (isIpv4Mapped(b)) {
            return "::ffff:" + (b[12] & 0xff) + "." + (b[13] & 0xff) + "." + (b[14] & 0xff) + "." + (b[15] & 0xff);
        }
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) {
            g[i] = (b[2 * i] & 0xff) << 8 | b[2 * i + 1] & 0xff;
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

    /** Bytes [from, from+8) as a big-endian long. */
    static long half(byte[] b, int from) {
        long v = 0;
        for (int i = from; i < from + 8; i++) {
            v = v << 8 | b[i] & 0xff;
        }
        return v;
    }

    static void putHalf(byte[] b, int from, long v) {
        for (int i = from + 7; i >= from; i--) {
            b[i] = (byte) v;
            v >>>= 8;
        }
    }
}
