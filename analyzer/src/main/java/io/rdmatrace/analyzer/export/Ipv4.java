package io.rdmatrace.analyzer.export;

import io.rdmatrace.trace.names.GidText;

/** Dotted-quad IPv4 text ↔ octets. */
final class Ipv4 {
    private Ipv4() {
    }

    /** The four octets of a dotted quad, or null when it is not one. */
    static int[] parse(String text) {
        return GidText.ipv4Octets(text);
    }

    static int toInt(int[] octets) {
        return octets[0] << 24 | octets[1] << 16 | octets[2] << 8 | octets[3];
    }

    static String format(int address) {
        return (address >>> 24) + "." + (address >>> 16 & 0xff) + "." + (address >>> 8 & 0xff) + "." + (address & 0xff);
    }
}
