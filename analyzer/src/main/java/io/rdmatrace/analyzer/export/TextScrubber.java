package io.rdmatrace.analyzer.export;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.rdmatrace.trace.names.GidText;

/**
 * Finds and replaces sensitive values inside free text (command lines, option values, peer
 * addresses, messages, step texts, thread and device names): IPv6/GID literals, GUIDs in
 * {@code xxxx:xxxx:xxxx:xxxx} form, MAC addresses, IPv4 literals, the trace's host names, the
 * trace's keys, addresses and GUIDs written as numbers (hex with or without {@code 0x}, or
 * decimal), and absolute paths (reduced to their last component, since folders often carry
 * user or machine names).
 */
final class TextScrubber {
    static final Pattern IPV6 = Pattern.compile(
            "(?<![0-9A-Za-z:.])((?:[0-9A-Fa-f]{0,4}:){2,7}(?:[0-9A-Fa-f]{1,4}|\\d{1,3}(?:\\.\\d{1,3}){3})?)(?![0-9A-Za-z:.])");
    static final Pattern GUID = Pattern.compile("(?<![0-9A-Za-z:])[0-9A-Fa-f]{4}(?::[0-9A-Fa-f]{4}){3}(?![0-9A-Za-z:])");
    static final Pattern MAC = Pattern.compile("(?<![0-9A-Za-z:])[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5}(?![0-9A-Za-z:])");
    static final Pattern IPV4 = Pattern.compile("(?<![0-9.])\\d{1,3}(?:\\.\\d{1,3}){3}(?![0-9]|\\.\\d)");
    private static final Pattern HEX = Pattern.compile("(?<![0-9A-Za-z])0[xX]([0-9A-Fa-f]{1,16})(?![0-9A-Za-z])");
    private static final Pattern BARE_HEX = Pattern.compile("(?<![0-9A-Za-z:])[0-9A-Fa-f]{8,16}(?![0-9A-Za-z:])");
    private static final Pattern DECIMAL = Pattern.compile("(?<![0-9A-Za-z.:])\\d{2,20}(?![0-9A-Za-z:]|\\.\\d)");
    private static final Pattern PATH = Pattern.compile("(?<![A-Za-z0-9.])(?:/[^\\s/'\":;,=]+){2,}");
    /** host:port as the capture agent writes a peer, or a bare host name */
    private static final Pattern HOST_PORT = Pattern.compile("^\\[?([A-Za-z][A-Za-z0-9.-]*)\\]?(?::\\d+)?$");

    /** Receives what {@link #scan} finds. */
    interface Found {
        void ipv4(int address);

        void gid(String text);

        void guid(long value);

        void mac(long value);
    }

    /** Classifies a number seen in text: its pseudonym, or null when it is not a trace value. */
    interface NumberMap {
        Long pseudonym(long value, boolean exactOnly);
    }

    private final Pseudonyms pseudonyms;
    private final NumberMap numbers;
    private final Pattern hostNames;
    private int pathsShortened;

    TextScrubber(Pseudonyms pseudonyms, Set<String> hostNames, NumberMap numbers) {
        this.pseudonyms = pseudonyms;
        this.numbers = numbers;
        List<String> names = new ArrayList<>(hostNames);
        names.removeIf(String::isEmpty);
        names.sort(Comparator.comparingInt(String::length).reversed()); // longest first: "node1" before "node"
        this.hostNames = names.isEmpty() ? null : Pattern.compile("(?<![A-Za-z0-9])("
                + names.stream().map(Pattern::quote).collect(Collectors.joining("|")) + ")(?![A-Za-z0-9])");
    }

    /** Reports the addresses a text quotes (pass 1 of the redaction). */
    static void scan(String text, Found found) {
        if (text == null || text.isEmpty()) {
            return;
        }
        Matcher m = IPV6.matcher(text);
        while (m.find()) {
            if (GidText.parse(m.group(1)) != null) {
                found.gid(m.group(1));
            }
        }
        m = GUID.matcher(text);
        while (m.find()) {
            found.guid(Long.parseUnsignedLong(m.group().replace(":", ""), 16));
        }
        m = MAC.matcher(text);
        while (m.find()) {
            found.mac(Long.parseUnsignedLong(m.group().replace(":", ""), 16));
        }
        m = IPV4.matcher(text);
        while (m.find()) {
            int[] octets = Ipv4.parse(m.group());
            if (octets != null) {
                found.ipv4(Ipv4.toInt(octets));
            }
        }
    }

    /** The host name in a peer text such as {@code server7:18515}, or null for an IP literal or nothing. */
    static String hostOf(String peer) {
        if (peer == null) {
            return null;
        }
        Matcher m = HOST_PORT.matcher(peer.strip());
        if (!m.matches()) {
            return null;
        }
        String host = m.group(1);
        return Ipv4.parse(host) != null ? null : host;
    }

    /** The text with every sensitive value replaced by its pseudonym. */
    String scrub(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String s = replace(text, IPV6, m -> {
            String gid = m.group(1);
            return GidText.parse(gid) == null ? m.group() : pseudonyms.gid(gid);
        });
        s = replace(s, GUID, m -> guidText(pseudonyms.interfaceId(Long.parseUnsignedLong(m.group().replace(":", ""), 16)),
                m.group()));
        s = replace(s, MAC, m -> macText(pseudonyms.mac48(Long.parseUnsignedLong(m.group().replace(":", ""), 16)), m.group()));
        s = replace(s, IPV4, m -> {
            int[] octets = Ipv4.parse(m.group());
            return octets == null ? m.group() : Ipv4.format(pseudonyms.ipv4(Ipv4.toInt(octets)));
        });
        if (hostNames != null) {
            s = replace(s, hostNames, m -> pseudonyms.host(m.group(1)));
        }
        s = replace(s, HEX, m -> {
            Long p = numbers.pseudonym(Long.parseUnsignedLong(m.group(1), 16), false);
            return p == null ? m.group() : m.group().substring(0, 2) + hex(p, m.group(1));
        });
        s = replace(s, BARE_HEX, m -> {
            Long p = parseHex(m.group()) == null ? null : numbers.pseudonym(parseHex(m.group()), false);
            return p == null ? m.group() : hex(p, m.group());
        });
        s = replace(s, DECIMAL, m -> {
            Long v = parseDecimal(m.group());
            Long p = v == null ? null : numbers.pseudonym(v, true);
            return p == null ? m.group() : Long.toUnsignedString(p);
        });
        s = replace(s, PATH, m -> {
            pathsShortened++;
            String path = m.group();
            return "…/" + path.substring(path.lastIndexOf('/') + 1);
        });
        return s;
    }

    int pathsShortened() {
        return pathsShortened;
    }

    private static String replace(String text, Pattern pattern, Function<Matcher, String> replacement) {
        Matcher m = pattern.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(replacement.apply(m)));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** Hex digits of {@code value}, as wide as the original (zero-padded) and in its case. */
    private static String hex(long value, String like) {
        String digits = Long.toHexString(value);
        StringBuilder padded = new StringBuilder();
        for (int i = digits.length(); i < like.length(); i++) {
            padded.append('0');
        }
        padded.append(digits);
        boolean upper = !like.equals(like.toLowerCase(Locale.ROOT));
        return upper ? padded.toString().toUpperCase(Locale.ROOT) : padded.toString();
    }

    private static String guidText(long value, String like) {
        String h = hex(value, "0000000000000000");
        String g = h.substring(0, 4) + ':' + h.substring(4, 8) + ':' + h.substring(8, 12) + ':' + h.substring(12);
        return like.equals(like.toLowerCase(Locale.ROOT)) ? g : g.toUpperCase(Locale.ROOT);
    }

    private static String macText(long value, String like) {
        String h = hex(value, "000000000000");
        StringBuilder m = new StringBuilder();
        for (int i = 0; i < 12; i += 2) {
            m.append(i > 0 ? ":" : "").append(h, i, i + 2);
        }
        return like.equals(like.toLowerCase(Locale.ROOT)) ? m.toString() : m.toString().toUpperCase(Locale.ROOT);
    }

    private static Long parseHex(String digits) {
        try {
            return Long.parseUnsignedLong(digits, 16);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Long parseDecimal(String digits) {
        try {
            return Long.parseUnsignedLong(digits);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
