package io.rdmatrace.cli;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.CompletionEvent;
import io.rdmatrace.trace.model.GidEntry;
import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.model.SessionEvent;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.store.TraceSet;

/**
 * The sensitive values of a real capture (host ids, IPs and GIDs from the SESSION, GUIDs, keys,
 * buffer addresses and handles), read straight from the trace model, with their text, hex,
 * decimal and raw-byte encodings. Encodings too short to be told from chance are left out: text
 * under 5 characters, raw bytes with fewer than 3 non-zero bytes.
 */
final class RealSecrets {
    private final Map<String, byte[]> encodings = new LinkedHashMap<>();

    static RealSecrets of(Path capture) throws Exception {
        RealSecrets s = new RealSecrets();
        for (Path host : TraceSet.discover(capture).hosts()) {
            for (TraceEvent e : TraceReader.readAll(host).events()) {
                s.add(e);
            }
        }
        return s;
    }

    int size() {
        return encodings.size();
    }

    private void add(TraceEvent e) {
        if (e instanceof SessionEvent session) {
            text("host", session.hostId());
            for (GidEntry g : session.gids()) {
                gid(g.gid());
            }
            number("guid", session.device().get(Attr.NODE_GUID, 0));
        } else if (e instanceof CallEvent c) {
            number("handle", c.handle());
            attrs(c.in());
            attrs(c.out());
        } else if (e instanceof CompletionEvent c) {
            number("cq", c.cq());
        } else if (e instanceof OobEvent o) {
            attrs(o.attrs());
        }
    }

    private void attrs(Attrs a) {
        for (Attr attr : List.of(Attr.ADDR, Attr.REMOTE_ADDR, Attr.LKEY, Attr.RKEY, Attr.QP, Attr.PD, Attr.CQ, Attr.MR)) {
            if (a.has(attr)) {
                number(attr.column(), a.get(attr, 0));
            }
        }
        for (Attr attr : List.of(Attr.GID, Attr.DGID)) {
            if (a.has(attr)) {
                gid(a.text(attr));
            }
        }
    }

    private void gid(String gid) {
        if (gid.equals("::")) {
            return;
        }
        text("gid", gid);
        if (gid.startsWith("::ffff:")) {
            text("ip", gid.substring(7));
        }
    }

    private void number(String what, long v) {
        if (Long.compareUnsigned(v, 0x10000) < 0 && !what.equals("lkey") && !what.equals("rkey") || v == 0) {
            return;
        }
        text(what + " hex", "0x" + Long.toHexString(v));
        text(what + " bare hex", Long.toHexString(v));
        text(what + " decimal", Long.toUnsignedString(v));
        raw(what + " le", ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array());
        raw(what + " be", ByteBuffer.allocate(8).putLong(v).array());
    }

    private void text(String what, String text) {
        if (text.length() >= 5) {
            encodings.put(what + " " + text, text.getBytes(StandardCharsets.UTF_8));
        }
    }

    private void raw(String what, byte[] bytes) {
        int nonZero = 0;
        for (byte b : bytes) {
            nonZero += b != 0 ? 1 : 0;
        }
        if (nonZero >= 3) {
            encodings.put(what + " raw", bytes);
        }
    }

    /**
     * The encodings found in {@code bytes}. A text encoding counts only as a whole token (no
     * letter or digit right before or after it): "0x101" inside a pseudonym "0x1013abcd" is not
     * the original.
     */
    List<String> findIn(String entry, byte[] bytes) {
        List<String> leaks = new ArrayList<>();
        String hay = new String(bytes, StandardCharsets.ISO_8859_1);
        for (Map.Entry<String, byte[]> e : encodings.entrySet()) {
            String needle = new String(e.getValue(), StandardCharsets.ISO_8859_1);
            boolean raw = e.getKey().endsWith(" raw");
            for (int at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
                if (raw || !alnum(hay, at - 1) && !alnum(hay, at + needle.length())) {
                    leaks.add(entry + ": " + e.getKey());
                    break;
                }
            }
        }
        return leaks;
    }

    private static boolean alnum(String s, int i) {
        return i >= 0 && i < s.length() && Character.isLetterOrDigit(s.charAt(i));
    }
}
