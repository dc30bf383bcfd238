package io.rdmatrace.trace.codec;

import io.rdmatrace.trace.model.AsyncEvent;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.CmEvent;
import io.rdmatrace.trace.model.CompletionEvent;
import io.rdmatrace.trace.model.CountersEvent;
import io.rdmatrace.trace.model.EndEvent;
import io.rdmatrace.trace.model.EventHeader;
import io.rdmatrace.trace.model.EventKind;
import io.rdmatrace.trace.model.FormatVersion;
import io.rdmatrace.trace.model.GidEntry;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.model.PacketEvent;
import io.rdmatrace.trace.model.SessionEvent;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.model.TraceEnding;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.model.Wc;
import io.rdmatrace.trace.model.WorkRequest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes one trace document (the bytes between Chronicle's readPosition and readLimit) into a
 * {@link TraceEvent}, checking the check value first and every count and code on the way.
 * Anything it cannot make sense of is a {@link CorruptDocumentException}.
 */
public final class EventDecoder {

    /** Counts and string lengths beyond this are corruption, not data (a SESSION is a few KB). */
    private static final int MAX_COUNT = 1 << 20;

    private final FormatVersion traceVersion;
    private final boolean newerMinor;
    /** Format 1.1 added the CALL's work-request chain. */
    private final boolean hasChains;
    /** Format 1.4 added how the recording ended to the END. */
    private final boolean hasEnding;
    private long skippedUnknownAttrs;
    private final ByteSource source = new ByteSource();
    private String lastThreadName = "";

    /** @param traceVersion the version from this trace's SESSION (a major this build reads) */
    public EventDecoder(FormatVersion traceVersion) {
        this.traceVersion = traceVersion;
        this.newerMinor = traceVersion.newerMinorThanCurrent();
        this.hasChains = traceVersion.atLeast(1, 1);
        this.hasEnding = traceVersion.atLeast(1, 4);
    }

    /** Attributes with codes this build does not know, skipped in traces of a newer minor version. */
    public long skippedUnknownAttrs() {
        return skippedUnknownAttrs;
    }

    /** The version prefix of a SESSION document, without decoding the rest; null if not a SESSION. */
    public static FormatVersion peekSessionVersion(byte[] d, int len) {
        if (len < 1 + 4 + 4 + DocumentCheck.SIZE || (d[0] & 0xFF) != EventKind.SESSION.code()) {
            return null;
        }
        ByteSource in = new ByteSource();
        in.wrap(d, 1, len);
        if (in.i32() != EventEncoder.SESSION_MAGIC) {
            return null;
        }
        return new FormatVersion(in.u16(), in.u16());
    }

    /** Decodes the document {@code d[0, len)}. */
    public TraceEvent decode(byte[] d, int len) {
        return decode(d, 0, len);
    }

    /** Decodes the event {@code d[from, from + len)}: a whole document, or one event of a batch document. */
    public TraceEvent decode(byte[] d, int from, int len) {
        if (len < 1 + DocumentCheck.SIZE) {
            throw new CorruptDocumentException("event of " + len + " bytes is too short");
        }
        int end = from + len;
        ByteSource b = source;
        b.wrap(d, end - DocumentCheck.SIZE, end);
        int stored = b.i32();
        int actual = DocumentCheck.compute(d, from, end - DocumentCheck.SIZE);
        if (stored != actual) {
            throw new CorruptDocumentException(String.format(
                    "check value mismatch (stored %08x, computed %08x): bytes changed after writing", stored, actual));
        }
        b.wrap(d, from, end - DocumentCheck.SIZE);
        TraceEvent e;
        try {
            e = decodeBody(b);
        } catch (CorruptDocumentException x) {
            throw x;
        } catch (RuntimeException x) {
            // e.g. a model constructor refusing a decoded value: still bad data, never a crash
            throw new CorruptDocumentException("undecodable document: " + x);
        }
        if (b.remaining() > 0 && !newerMinor) {
            throw new CorruptDocumentException(b.remaining() + " unexpected bytes after a " + e.kind()
                    + " event of format " + traceVersion);
        }
        return e;
    }

    private TraceEvent decodeBody(ByteSource b) {
        int kindCode = b.u8();
        EventKind kind = EventKind.byCode(kindCode);
        if (kind == null) {
            throw new CorruptDocumentException("unknown event kind byte " + kindCode);
        }
        FormatVersion version = null;
        if (kind == EventKind.SESSION) {
            if (b.i32() != EventEncoder.SESSION_MAGIC) {
                throw new CorruptDocumentException("SESSION without the RDMT magic");
            }
            version = new FormatVersion(b.u16(), b.u16());
        }
        EventHeader h = new EventHeader(b.stop(), b.i64(), b.i64(), b.stop(), b.stop(), threadName(b));
        switch (kind) {
            case SESSION:
                return new SessionEvent(h, version, session(b));
            case CALL:
                return call(h, b);
            case COMPLETION:
                return new CompletionEvent(h, b.stop(), new Wc(b.stop(), b.stopInt(), b.stopInt(), b.stop(), b.stop(), b.stop(),
                        b.stopInt(), b.stopInt(), b.stopInt(), b.stopInt(), b.stopInt(), b.stopInt(), b.stopInt()));
            case ASYNC_EVENT:
                return new AsyncEvent(h, b.stopInt(), b.stop(), b.stopInt());
            case OOB:
                return oob(h, b);
            case MARK:
                return mark(h, b);
            case COUNTERS:
                return counters(h, b);
            case END:
                return end(h, b);
            case CM_EVENT:
                return new CmEvent(h, b.stopInt(), b.stopInt(), b.stop(), attrs(b));
            case PACKET:
                return packet(h, b);
            default:
                throw new CorruptDocumentException("unhandled kind " + kind);
        }
    }

    private EndEvent end(EventHeader h, ByteSource b) {
        long count = b.stop();
        if (!hasEnding) {
            return new EndEvent(h, count);
        }
        int code = b.u8();
        TraceEnding.How how = TraceEnding.How.byCode(code);
        if (how == null) {
            throw new CorruptDocumentException("unknown END ending code " + code);
        }
        return new EndEvent(h, count, new TraceEnding(how, b.stopInt(), b.stopInt(), b.stopInt(), b.utf8()));
    }

    private CallEvent call(EventHeader h, ByteSource b) {
        int code = b.stopInt();
        Verb verb = Verb.byCode(code);
        if (verb == null) {
            throw new CorruptDocumentException("unknown verb code " + code);
        }
        long handle = b.stop();
        int ret = b.stopInt();
        int errno = b.stopInt();
        long duration = b.stop();
        Attrs in = attrs(b);
        Attrs out = attrs(b);
        if (!hasChains) {
            return new CallEvent(h, verb, handle, ret, errno, duration, in, out);
        }
        int n = count(b, "work requests");
        if (n == 0) {
            return new CallEvent(h, verb, handle, ret, errno, duration, in, out, List.of());
        }
        if (!WorkRequest.isPost(verb)) {
            throw new CorruptDocumentException(verb.function() + " carries " + n + " work requests");
        }
        List<WorkRequest> wrs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Attrs fields = attrs(b);
            int ns = count(b, "SGEs");
            List<WorkRequest.Sge> sges = new ArrayList<>(ns);
            for (int j = 0; j < ns; j++) {
                sges.add(new WorkRequest.Sge(b.stop(), b.stop(), b.stop()));
            }
            wrs.add(new WorkRequest(fields, sges));
        }
        return new CallEvent(h, verb, handle, ret, errno, duration, in, out, wrs);
    }

    private SessionInfo session(ByteSource b) {
        String tool = b.utf8();
        String host = b.utf8();
        String cmd = b.utf8();
        String lib = b.utf8();
        String scenario = b.utf8();
        int n = count(b, "overrides");
        Map<String, String> overrides = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            overrides.put(b.utf8(), b.utf8());
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
            gids.add(new GidEntry(b.stopInt(), b.stopInt(), b.utf8(), b.stopInt()));
        }
        return new SessionInfo(tool, host, cmd, lib, scenario, overrides, device, ports, gids);
    }

    private OobEvent oob(EventHeader h, ByteSource b) {
        int d = b.u8();
        OobEvent.Direction dir = OobEvent.Direction.byCode(d);
        if (dir == null) {
            throw new CorruptDocumentException("unknown OOB direction " + d);
        }
        String peer = b.utf8();
        int k = b.u8();
        OobEvent.Kind kind = OobEvent.Kind.byCode(k);
        if (kind == null) {
            throw new CorruptDocumentException("unknown OOB kind " + k);
        }
        return new OobEvent(h, dir, peer, kind, attrs(b));
    }

    private MarkEvent mark(EventHeader h, ByteSource b) {
        String step = b.utf8();
        int v = b.u8();
        MarkEvent.Verdict verdict = MarkEvent.Verdict.byCode(v);
        if (verdict == null) {
            throw new CorruptDocumentException("unknown MARK verdict " + v);
        }
        return new MarkEvent(h, step, verdict, b.utf8());
    }

    private PacketEvent packet(EventHeader h, ByteSource b) {
        int d = b.u8();
        PacketEvent.Direction dir = PacketEvent.Direction.byCode(d);
        if (dir == null) {
            throw new CorruptDocumentException("unknown PACKET direction " + d);
        }
        String device = b.utf8();
        String reason = b.utf8();
        int opcode = b.stopInt();
        int destQp = b.stopInt();
        int psn = b.stopInt();
        boolean ackReq = b.u8() != 0;
        int syndrome = b.stopInt();
        int ipLength = b.stopInt();
        int payloadLength = b.stopInt();
        return new PacketEvent(h, device, dir, reason, opcode, destQp, psn, ackReq, syndrome, ipLength, payloadLength, b.utf8());
    }

    private CountersEvent counters(EventHeader h, ByteSource b) {
        String device = b.utf8();
        int p = b.u8();
        CountersEvent.Phase phase = CountersEvent.Phase.byCode(p);
        if (phase == null) {
            throw new CorruptDocumentException("unknown COUNTERS phase " + p);
        }
        int n = count(b, "counters");
        List<CountersEvent.Counter> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            list.add(new CountersEvent.Counter(b.utf8(), b.stop()));
        }
        return new CountersEvent(h, device, phase, list);
    }

    private static final Attr[] NO_ATTRS = new Attr[0];
    private static final long[] NO_LONGS = new long[0];
    private static final String[] NO_STRINGS = new String[0];

    /** Reads an attribute set straight into exact-size arrays: codes are ascending on disk. */
    private Attrs attrs(ByteSource b) {
        int n = count(b, "attributes");
        Attr[] na = n == 0 ? NO_ATTRS : new Attr[n];
        long[] nv = n == 0 ? NO_LONGS : new long[n];
        int kept = 0;
        int prevCode = 0;
        for (int i = 0; i < n; i++) {
            long code = b.stop();
            prevCode = ascending(prevCode, code);
            Attr a = attr(code, false);
            long v = b.stop();
            if (a != null) {
                na[kept] = a;
                nv[kept++] = v;
            }
        }
        if (kept < n) {
            na = java.util.Arrays.copyOf(na, kept);
            nv = java.util.Arrays.copyOf(nv, kept);
        }
        int t = count(b, "text attributes");
        Attr[] ta = t == 0 ? NO_ATTRS : new Attr[t];
        String[] tv = t == 0 ? NO_STRINGS : new String[t];
        kept = 0;
        prevCode = 0;
        for (int i = 0; i < t; i++) {
            long code = b.stop();
            prevCode = ascending(prevCode, code);
            Attr a = attr(code, true);
            String v = b.utf8();
            if (a != null) {
                ta[kept] = a;
                tv[kept++] = v;
            }
        }
        if (kept < t) {
            ta = java.util.Arrays.copyOf(ta, kept);
            tv = java.util.Arrays.copyOf(tv, kept);
        }
        return Attrs.ofSorted(na, nv, ta, tv);
    }

    private static int ascending(int prevCode, long code) {
        if (code <= prevCode || code > 0xFFFF) {
            throw new CorruptDocumentException("attribute code " + code + " out of order or range (after " + prevCode + ")");
        }
        return (int) code;
    }

    /** The attribute for the next code, or null when a newer minor version added it (skipped). */
    private Attr attr(long code, boolean text) {
        Attr a = Attr.byCode((int) code);
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

    private static int count(ByteSource b, String what) {
        long n = b.stop();
        if (n < 0 || n > MAX_COUNT || n > b.remaining()) {
            throw new CorruptDocumentException("implausible number of " + what + ": " + n);
        }
        return (int) n;
    }

    /** Thread names repeat in almost every event: reuse the previous String when the bytes are the same. */
    private String threadName(ByteSource b) {
        if (b.skipIfAsciiEquals(lastThreadName)) {
            return lastThreadName;
        }
        lastThreadName = b.utf8();
        return lastThreadName;
    }
}
