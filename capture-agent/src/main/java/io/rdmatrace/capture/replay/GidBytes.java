package io.rdmatrace.capture.replay;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses the GID text a trace stores (RFC 5952 IPv6, e.g. {@code fe80::200:7fff:fe00:1} or
 * {@code ::ffff:127.0.0.1}) back into its 16 bytes. java.net cannot be used: it turns an
 * IPv4-mapped address into a 4-byte Inet4Address.
 */
final class GidBytes {
    private GidBytes() {
    }

    static byte[] parse(String text) {
        String s = text.trim();
        List<Integer> tail = new ArrayList<>();
        int lastColon = s.lastIndexOf(':');
        if (lastColon >= 0 && s.indexOf('.', lastColon) > 0) {
            String[] quad = s.substring(lastColon + 1).split("\\.");
            if (quad.length != 4) {
                throw bad(text);
            }
            int[] b = new int[4];
            for (int i = 0; i < 4; i++) {
                b[i] = Integer.parseInt(quad[i]);
                if (b[i] < 0 || b[i] > 255) {
                    throw bad(text);
                }
            }
            tail.add(b[0] << 8 | b[1]);
            tail.add(b[2] << 8 | b[3]);
            s = s.substring(0, lastColon + 1) + "0"; // placeholder group, replaced below
        }
        int gap = s.indexOf("::");
        List<Integer> head = groups(gap >= 0 ? s.substring(0, gap) : s, text);
        List<Integer> rest = gap >= 0 ? groups(s.substring(gap + 2), text) : List.of();
        if (!tail.isEmpty()) {
            List<Integer> last = gap >= 0 ? rest : head;
            last.remove(last.size() - 1);
            last.addAll(tail);
        }
        int missing = 8 - head.size() - rest.size();
        if ((gap < 0 && missing != 0) || (gap >= 0 && missing < 1)) {
            throw bad(text);
        }
        byte[] raw = new byte[16];
        int i = 0;
        for (int g : head) {
            raw[i++] = (byte) (g >>> 8);
            raw[i++] = (byte) g;
        }
        i += 2 * missing;
        for (int g : rest) {
            raw[i++] = (byte) (g >>> 8);
            raw[i++] = (byte) g;
        }
        return raw;
    }

    private static List<Integer> groups(String part, String text) {
        List<Integer> out = new ArrayList<>();
        if (part.isEmpty()) {
            return out;
        }
        for (String g : part.split(":", -1)) {
            if (g.isEmpty() || g.length() > 4) {
                throw bad(text);
            }
            out.add(Integer.parseInt(g, 16));
        }
        return out;
    }

    private static IllegalArgumentException bad(String text) {
        return new IllegalArgumentException("not a GID: '" + text + "'");
    }
}
