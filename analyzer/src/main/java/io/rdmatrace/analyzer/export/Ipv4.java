package io.rdmatrace.analyzer.export;

/** Dotted-quad IPv4 text ↔ octets. */
final class Ipv4 {
    private Ipv4() {
    }

    /** The four octets of a dotted quad, or null when it is not one. */
    static int[] parse(String text) {
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

    static int toInt(int[] octets) {
        return octets[0] << 24 | octets[1] << 16 | octets[2] << 8 | octets[3];
    }

    static String format(int address) {
        return (address >>> 24) + "." + (address >>> 16 & 0xff) + "." + (address >>> 8 & 0xff) + "." + (address & 0xff);
    }
}
