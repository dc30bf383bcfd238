package io.rdmatrace.analyzer.export;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.rdmatrace.trace.model.AsyncEvent;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.CompletionEvent;
import io.rdmatrace.trace.model.GidEntry;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.model.SessionEvent;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.store.TraceSet;

/**
 * Every sensitive value of a source capture, collected independently of the redaction code
 * (straight from the trace model), with every encoding it could hide in: text, hex with and
 * without 0x, zero-padded, upper case, decimal (unsigned and signed), dotted IPv4, expanded
 * IPv6, GUID colon form, raw bytes in both byte orders.
 *
 * <p>An encoding too short to mean anything is left out, or any binary file would "contain"
 * it by chance: text shorter than 5 characters, raw bytes with fewer than 3 non-zero bytes.
 */
final class SourceSecrets {
    private static final Pattern IPV4 = Pattern.compile("(?<![0-9.])\\d{1,3}(?:\\.\\d{1,3}){3}(?![0-9])");
    private static final long MIN_ADDRESS = 0x10000;

    final Set<String> hostNames = new LinkedHashSet<>();
    final Set<String> gids = new LinkedHashSet<>();
    final Set<Integer> ipv4 = new LinkedHashSet<>();
    final Set<Long> keys = new LinkedHashSet<>();
    final Set<Long> addresses = new LinkedHashSet<>();
    final Set<Long> guids = new LinkedHashSet<>();

    static SourceSecrets of(TraceSet set, String... moreHostNames) throws Exception {
        SourceSecrets s = new SourceSecrets();
        s.hostNames.addAll(List.of(moreHostNames));
        for (Path folder : set.hosts()) {
            s.hostNames.add(folder.getFileName().toString());
            for (TraceEvent e : TraceReader.readAll(folder).events()) {
                s.add(e);
            }
        }
        return s;
    }

    private void add(TraceEvent e) {
        if (e instanceof SessionEvent session) {
            hostNames.add(session.hostId());
            text(session.commandLine());
            session.overrides().values().forEach(this::text);
            attrs(session.device());
            session.ports().forEach(this::attrs);
            for (GidEntry g : session.gids()) {
                gid(g.gid());
            }
        } else if (e instanceof CallEvent c) {
            address(c.handle());
            attrs(c.in());
            attrs(c.out());
        } else if (e instanceof CompletionEvent c) {
            address(c.cq());
        } else if (e instanceof AsyncEvent a && a.elementKind() == AsyncEvent.ElementKind.QP) {
            address(a.element());
        } else if (e instanceof OobEvent o) {
            text(o.peer());
            attrs(o.attrs());
        } else if (e instanceof MarkEvent m) {
            text(m.text());
        }
    }

    private void attrs(Attrs a) {
        for (int i = 0; i < a.size(); i++) {
            Attr attr = a.attr(i);
            long v = a.value(i);
            if (attr.code() <= 12 || attr == Attr.ADDR || attr == Attr.REMOTE_ADDR || attr == Attr.ELEMENT) {
                address(v);
            } else if ((attr == Attr.LKEY || attr == Attr.RKEY) && v != 0) {
                keys.add(v & 0xffff_ffffL);
            } else if ((attr == Attr.NODE_GUID || attr == Attr.SYS_IMAGE_GUID) && v != 0) {
                guids.add(v);
            }
        }
        for (int i = 0; i < a.textSize(); i++) {
            if (a.textAttr(i) == Attr.GID || a.textAttr(i) == Attr.DGID) {
                gid(a.text(i));
            } else {
                text(a.text(i));
            }
        }
    }

    private void address(long v) {
        if (Long.compareUnsigned(v, MIN_ADDRESS) >= 0) {
            addresses.add(v);
        }
    }

    private void text(String t) {
        Matcher m = IPV4.matcher(t);
        while (m.find()) {
            ipv4.add(ipToInt(m.group()));
        }
    }

    private void gid(String text) {
        byte[] b = bytes(text);
        if (b == null || java.util.Arrays.equals(b, new byte[16])) {
            return;
        }
        gids.add(text);
        if (text.toLowerCase(Locale.ROOT).startsWith("::ffff:")) {
            ipv4.add(ByteBuffer.wrap(b, 12, 4).getInt());
        } else {
            guids.add(ByteBuffer.wrap(b, 8, 8).getLong()); // the interface id: MAC-derived, as sensitive as the GUID
        }
    }

    /** java.net's parse (independent of the code under test); it turns ::ffff:a.b.c.d into 4 bytes. */
    static byte[] bytes(String gid) {
        if (gid.indexOf(':') < 0) {
            return null; // never let getByName resolve a name
        }
        try {
            byte[] b = java.net.InetAddress.getByName(gid).getAddress();
            if (b.length == 4) {
                byte[] mapped = new byte[16];
                mapped[10] = (byte) 0xff;
                mapped[11] = (byte) 0xff;
                System.arraycopy(b, 0, mapped, 12, 4);
                return mapped;
            }
            return b;
        } catch (java.net.UnknownHostException e) {
            return null;
        }
    }

    /** Every (description → bytes) to look for. */
    Map<String, byte[]> encodings() {
        Map<String, byte[]> out = new LinkedHashMap<>();
        for (String h : hostNames) {
            text(out, "host " + h, h);
        }
        for (String g : gids) {
            byte[] b = bytes(g);
            text(out, "gid " + g, g);
            StringBuilder expanded = new StringBuilder();
            for (int i = 0; i < 16; i += 2) {
                expanded.append(i > 0 ? ":" : "").append(String.format("%02x%02x", b[i], b[i + 1]));
            }
            text(out, "gid expanded " + g, expanded.toString());
            text(out, "gid expanded upper " + g, expanded.toString().toUpperCase(Locale.ROOT));
            raw(out, "gid raw " + g, b);
        }
        for (int ip : ipv4) {
            String dotted = (ip >>> 24) + "." + (ip >>> 16 & 0xff) + "." + (ip >>> 8 & 0xff) + "." + (ip & 0xff);
            text(out, "ipv4 " + dotted, dotted);
            number32(out, "ipv4 " + dotted, ip & 0xffff_ffffL);
        }
        for (long k : keys) {
            number32(out, "key 0x" + Long.toHexString(k), k);
        }
        for (long a : addresses) {
            number64(out, "address 0x" + Long.toHexString(a), a);
        }
        for (long g : guids) {
            number64(out, "guid " + Long.toHexString(g), g);
            String h = String.format("%016x", g);
            String colon = h.substring(0, 4) + ':' + h.substring(4, 8) + ':' + h.substring(8, 12) + ':' + h.substring(12);
            text(out, "guid colon " + colon, colon);
            text(out, "guid colon upper " + colon, colon.toUpperCase(Locale.ROOT));
            long mac = (g >>> 40) << 24 | g & 0xff_ffffL;
            String m = String.format("%012x", mac);
            StringBuilder macText = new StringBuilder();
            for (int i = 0; i < 12; i += 2) {
                macText.append(i > 0 ? ":" : "").append(m, i, i + 2);
            }
            text(out, "mac " + macText, macText.toString());
        }
        return out;
    }

    /** Every original number, for comparing decoded Parquet cells. */
    Set<Long> numbers() {
        Set<Long> all = new LinkedHashSet<>(keys);
        all.addAll(addresses);
        all.addAll(guids);
        for (int ip : ipv4) {
            all.add(ip & 0xffff_ffffL);
        }
        return all;
    }

    /** The textual encodings only (for decoded cell values). */
    List<String> texts() {
        List<String> texts = new ArrayList<>();
        for (Map.Entry<String, byte[]> e : encodings().entrySet()) {
            if (!e.getKey().contains(" raw ")) {
                texts.add(new String(e.getValue(), StandardCharsets.ISO_8859_1));
            }
        }
        return texts;
    }

    private static void number32(Map<String, byte[]> out, String what, long v) {
        text(out, what + " hex", "0x" + Long.toHexString(v));
        text(out, what + " bare hex", Long.toHexString(v));
        text(out, what + " hex8", String.format("%08x", v));
        text(out, what + " HEX8", String.format("%08X", v));
        text(out, what + " decimal", Long.toString(v));
        text(out, what + " signed decimal", Integer.toString((int) v));
        raw(out, what + " raw le", ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) v).array());
        raw(out, what + " raw be", ByteBuffer.allocate(4).putInt((int) v).array());
    }

    private static void number64(Map<String, byte[]> out, String what, long v) {
        text(out, what + " hex", "0x" + Long.toHexString(v));
        text(out, what + " bare hex", Long.toHexString(v));
        text(out, what + " hex16", String.format("%016x", v));
        text(out, what + " HEX16", String.format("%016X", v));
        text(out, what + " decimal", Long.toUnsignedString(v));
        text(out, what + " signed decimal", Long.toString(v));
        raw(out, what + " raw le", ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array());
        raw(out, what + " raw be", ByteBuffer.allocate(8).putLong(v).array());
    }

    private static void text(Map<String, byte[]> out, String what, String text) {
        if (text.length() >= 5) {
            out.put(what + " text", text.getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void raw(Map<String, byte[]> out, String what, byte[] bytes) {
        int nonZero = 0;
        for (byte b : bytes) {
            nonZero += b != 0 ? 1 : 0;
        }
        if (nonZero >= 3) {
            out.put(what, bytes);
        }
    }

    private static int ipToInt(String dotted) {
        String[] p = dotted.split("\\.");
        return Integer.parseInt(p[0]) << 24 | Integer.parseInt(p[1]) << 16 | Integer.parseInt(p[2]) << 8 | Integer.parseInt(p[3]);
    }

    /** Where each encoding occurs in {@code bytes}: descriptions of the leaks. */
    List<String> findIn(String where, byte[] bytes) {
        List<String> leaks = new ArrayList<>();
        for (Map.Entry<String, byte[]> e : encodings().entrySet()) {
            if (indexOf(bytes, e.getValue()) >= 0) {
                leaks.add(where + ": " + e.getKey());
            }
        }
        return leaks;
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
