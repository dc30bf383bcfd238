package io.rdmatrace.capture.record;

/**
 * GIDs as canonical IPv6 text (RFC 5952): lowercase, the longest run of zero groups as "::", and an
 * IPv4-mapped GID as {@code ::ffff:127.0.0.1} — the form the trace stores and people recognise.
 * (java.net would turn an IPv4-mapped address into an Inet4Address and lose the mapping.)
 */
public final class GidText {
    private GidText() {
    }

    public static String of(byte[] gid) {
        if (gid.length != 16) {
            throw new IllegalArgumentException("a GID is 16 bytes, got " + gid.length);
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
            bestStart = -1; // RFC 5952 4.2.2: a single zero group is not compressed
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

    private static boolean isIpv4Mapped(byte[] gid) {
        for (int i = 0; i < 10; i++) {
            if (gid[i] != 0) {
                return false;
            }
        }
        return gid[10] == (byte) 0xff && gid[11] == (byte) 0xff;
    }

    /**
     * Remembers the last GID formatted: a capture formats the same one or two GIDs (the peer's, our own)
     * over and over. Not thread-safe (the recorder serialises its calls).
     */
    public static final class Cache {
        private io.rdmatrace.verbs.Gid last;
        private String lastText;
        private byte[] lastRaw;
        private String lastRawText;

        public String text(io.rdmatrace.verbs.Gid gid) {
            if (!gid.equals(last)) {
                lastText = of(gid.raw());
                last = gid;
            }
            return lastText;
        }

        /** Same for raw GID bytes (an out-of-band PARAMS message). */
        public String text(byte[] raw) {
            if (!java.util.Arrays.equals(raw, lastRaw)) {
                lastRawText = of(raw);
                lastRaw = raw.clone();
            }
            return lastRawText;
        }
    }
}
