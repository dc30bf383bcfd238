package io.rdmatrace.capture.oob;

import java.net.InetSocketAddress;

/** Parses the --listen [ADDR:]PORT and --connect HOST:PORT arguments. */
public final class OobEndpoint {
    private OobEndpoint() {
    }

    /** "PORT" binds all addresses, "ADDR:PORT" one address; IPv6 literals go in brackets. */
    public static InetSocketAddress parseListen(String spec) {
        int colon = spec.lastIndexOf(':');
        if (colon < 0) {
            return new InetSocketAddress(parsePort(spec, spec));
        }
        return new InetSocketAddress(host(spec.substring(0, colon), spec), parsePort(spec.substring(colon + 1), spec));
    }

    public static InetSocketAddress parseConnect(String spec) {
        int colon = spec.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("expected HOST:PORT, got '" + spec + "'");
        }
        int port = parsePort(spec.substring(colon + 1), spec);
        if (port == 0) {
            throw new IllegalArgumentException("port 0 cannot be connected to: '" + spec + "'");
        }
        return InetSocketAddress.createUnresolved(host(spec.substring(0, colon), spec), port);
    }

    private static String host(String h, String spec) {
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        if (h.isEmpty()) {
            throw new IllegalArgumentException("empty host in '" + spec + "'");
        }
        return h;
    }

    private static int parsePort(String p, String spec) {
        try {
            int port = Integer.parseInt(p);
            if (port < 0 || port > 65535) {
                throw new NumberFormatException();
            }
            return port;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad port '" + p + "' in '" + spec + "' (0..65535)");
        }
    }
}
