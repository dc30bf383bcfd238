package io.rdmatrace.trace;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.openhft.chronicle.bytes.Bytes;

/**
 * Decodes one trace document (the bytes between Chronicle's readPosition and readLimit) into a
 * {@link TraceEvent}, checking the check value first and every count and code on the way.
 * Anything it cannot make sense of is a {@link CorruptDocumentException}.
 */
final class EventDecoder {

    /** Counts and string lengths beyond this are corruption, not data (a SESSION is a few KB). */
    private static final int MAX_COUNT = 1 << 20;

    private final FormatVersion traceVersion;
    private final boolean newerMinor;
    private long skippedUnknownAttrs;

    /** @param traceVersion the version from this trace's SESSION (same major as this build) */
    EventDecoder(FormatVersion traceVersion) {
        this.traceVersion = traceVersion;
        this.newerMinor = traceVersion.minor() > FormatVersion.FORMAT_MINOR;
    }

    /** Attributes with codes this build does not know, skipped in traces of a newer minor version. */
    long skippedUnknownAttrs() {
        return skippedUnknownAttrs;
    }

    /** The version prefix of a SESSION document, without decoding the rest; null if not a SESSION. */
    static FormatVersion peekSessionVersion(Bytes<?> b) {
        long p = b.readPosition();
        if (b.readRemaining() < 1 + 4 + 4 + DocumentCheck.SIZE) {
            return null;
        }
        if (b.readUnsignedByte(p) != EventKind.SESSION.code() || b.readInt(p + 1) != EventEncoder.SESSION_MAGIC) {
            return null;
        }
        return new FormatVersion(b.readUnsignedShort(p + 5), b.readUnsignedShort(p + 7));
    }

    TraceEvent decode(Bytes<?> b) {
        long start = b.readPosition();
        long end = b.readLimit();
        if (end - start < 1 + DocumentCheck.SIZE) {
            throw new CorruptDocumentException("document of " + (end - start) + " bytes is too short");
        }
        int stored = b.readInt(end - DocumentCheck.SIZE);
        int actual = DocumentCheck.compute(b, start, end - DocumentCheck.SIZE);
        if (stored != actual) {
            throw new CorruptDocumentException(String.format(
                    "check value mismatch (stored %08x, computed %08x): bytes changed after writing", stored, actual));
        }
        b.readLimit(end - DocumentCheck.SIZE);
        try {
            TraceEvent e = decodeBody(b);
            if (b.readRemaining() > 0 && !newerMinor) {
                throw new CorruptDocumentException(b.readRemaining() + " unexpected bytes after a " + e.kind()
                        + " event of format " + traceVersion);
            }
            return e;
        } finally {
            b.readLimit(end);
            b.readPosition(end);
        }
    }

    private TraceEvent decodeBody(Bytes<?> b) {
        int kindCode = u8(b);
        EventKind kind = EventKind.byCode(kindCode);
        if (kind == null) {
            throw new CorruptDocumentException("unknown event kind byte " + kindCode);
        }
        FormatVersion version = null;
        if (kind == EventKind.SESSION) {
            if (readInt(b) != EventEncoder.SESSION_MAGIC) {
                throw new CorruptDocumentException("SESSION without the RDMT magic");
            }
            version = new FormatVersion(readU16(b), readU16(b));
        }
        EventHeader h = new EventHeader(stop(b), readLong(b), readLong(b), stop(b), stop(b), text(b));
        switch (kind) {
            case SESSION:
                return new SessionEvent(h, version, session(b));
            case CALL:
                return call(h, b);
            case COMPLETION:
                return new CompletionEvent(h, stop(b), new Wc(stop(b), int32(b), int32(b), stop(b), stop(b), stop(b),
                        int32(b), int32(b), int32(b), int32(b), int32(b), int32(b), int32(b)));
            case ASYNC_EVENT:
                return new AsyncEvent(h, int32(b), stop(b), int32(b));
            case OOB:
                return oob(h, b);
            case MARK:
                return mark(h, b);
            case COUNTERS:
                return counters(h, b);
            case END:
                return new EndEvent(h, stop(b));
            default:
                throw new CorruptDocumentException("unhandled kind " + kind);
        }
    }

    private CallEvent call(EventHeader h, Bytes<?> b) {
        int code = int32(b);
        Verb verb = Verb.byCode(code);
        if (verb == null) {
            throw new CorruptDocumentException("unknown verb code " + code);
        }
        long handle = stop(b);
        int ret = int32(b);
        int errno = int32(b);
        long duration = stop(b);
        Attrs in = attrs(b);
        Attrs out = attrs(b);
        return new CallEvent(h, verb, handle, ret, errno, duration, in, out);
    }

    private SessionInfo session(Bytes<?> b) {
        String tool = text(b);
        String host = text(b);
        String cmd = text(b);
        String lib = text(b);
        String scenario = text(b);
        int n = count(b, "overrides");
        Map<String, String> overrides = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            overrides.put(text(b), text(b));
        }
        Attrs device = attrs(b);
        int np = count(b, "ports");
        List<Attrs> ports = new ArrayList<>(np);
        for (int i = 0; i < np; i++) {
            ports.add(attrs(b));
        }
        int ng = count(b, "gids");
        List<GidEntry> gids = new ArrayList<>(ng);
        for (int i = 0; i < ng; i++) {
            gids.add(new GidEntry(int32(b), int32(b), text(b), int32(b)));
        }
        return new SessionInfo(tool, host, cmd, lib, scenario, overrides, device, ports, gids);
    }

    private OobEvent oob(EventHeader h, Bytes<?> b) {
        int d = u8(b);
        OobEvent.Direction dir = OobEvent.Direction.byCode(d);
        if (dir == null) {
            throw new CorruptDocumentException("unknown OOB direction " + d);
        }
        String peer = text(b);
        int k = u8(b);
        OobEvent.Kind kind = OobEvent.Kind.byCode(k);
        if (kind == null) {
            throw new CorruptDocumentException("unknown OOB kind " + k);
        }
        return new OobEvent(h, dir, peer, kind, attrs(b));
    }

    private MarkEvent mark(EventHeader h, Bytes<?> b) {
        String step = text(b);
        int v = u8(b);
        MarkEvent.Verdict verdict = MarkEvent.Verdict.byCode(v);
        if (verdict == null) {
            throw new CorruptDocumentException("unknown MARK verdict " + v);
        }
        return new MarkEvent(h, step, verdict, text(b));
    }

    private CountersEvent counters(EventHeader h, Bytes<?> b) {
        String device = text(b);
        int p = u8(b);
        CountersEvent.Phase phase = CountersEvent.Phase.byCode(p);
        if (phase == null) {
            throw new CorruptDocumentException("unknown COUNTERS phase " + p);
        }
        int n = count(b, "counters");
        List<CountersEvent.Counter> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            list.add(new CountersEvent.Counter(text(b), stop(b)));
        }
        return new CountersEvent(h, device, phase, list);
    }

    private Attrs attrs(Bytes<?> b) {
        int n = count(b, "attributes");
        int t;
        Attrs.Builder builder = null;
        for (int i = 0; i < n; i++) {
            Attr a = attr(b, false);
            long v = stop(b);
            if (a != null) {
                builder = builder != null ? builder : Attrs.builder();
                builder.put(a, v);
            }
        }
        t = count(b, "text attributes");
        for (int i = 0; i < t; i++) {
            Attr a = attr(b, true);
            String v = text(b);
            if (a != null) {
                builder = builder != null ? builder : Attrs.builder();
                builder.put(a, v);
            }
        }
        return builder == null ? Attrs.EMPTY : builder.build();
    }

    /** The attribute for the next code, or null when a newer minor version added it (skipped). */
    private Attr attr(Bytes<?> b, boolean text) {
        long code = stop(b);
        Attr a = code > 0 && code <= 0xFFFF ? Attr.byCode((int) code) : null;
        if (a == null) {
            if (newerMinor) {
                skippedUnknownAttrs++;
                return null;
            }
            throw new CorruptDocumentException("unknown attribute code " + code);
        }
        if (a.isText() != text) {
            throw new CorruptDocumentException("attribute " + a.column() + " (code " + code + ") stored as "
                    + (text ? "text" : "a number") + " but is " + a.kind());
        }
        return a;
    }

    // --- bounds-checked primitives: a corrupt length must end in a clear reason, never a hang

    private static int u8(Bytes<?> b) {
        need(b, 1);
        return b.readUnsignedByte();
    }

    private static int readU16(Bytes<?> b) {
        need(b, 2);
        return b.readUnsignedShort();
    }

    private static int readInt(Bytes<?> b) {
        need(b, 4);
        return b.readInt();
    }

    private static long readLong(Bytes<?> b) {
        need(b, 8);
        return b.readLong();
    }

    private static long stop(Bytes<?> b) {
        need(b, 1);
        try {
            return b.readStopBit();
        } catch (RuntimeException e) {
            throw new CorruptDocumentException("bad variable-length number: " + e.getMessage());
        }
    }

    private static int int32(Bytes<?> b) {
        long v = stop(b);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new CorruptDocumentException("value " + v + " does not fit a 32-bit field");
        }
        return (int) v;
    }

    private static int count(Bytes<?> b, String what) {
        long n = stop(b);
        if (n < 0 || n > MAX_COUNT || n > b.readRemaining()) {
            throw new CorruptDocumentException("implausible number of " + what + ": " + n);
        }
        return (int) n;
    }

    private static String text(Bytes<?> b) {
        need(b, 1);
        long p = b.readPosition();
        String s;
        try {
            s = b.readUtf8();
        } catch (RuntimeException e) {
            throw new CorruptDocumentException("bad string at offset " + p + ": " + e.getMessage());
        }
        if (s == null) {
            throw new CorruptDocumentException("null string at offset " + p);
        }
        return s;
    }

    private static void need(Bytes<?> b, int n) {
        if (b.readRemaining() < n) {
            throw new CorruptDocumentException("document ends early (needs " + n + " more bytes)");
        }
    }
}
