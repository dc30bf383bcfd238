package io.rdmatrace.trace;

import java.util.List;
import java.util.Map;
import net.openhft.chronicle.bytes.Bytes;

/**
 * Writes the fields of one trace document into Chronicle {@link Bytes} (layout in FORMAT.md):
 * kind byte, [SESSION: magic + version], common header, payload, check value. Stateless; the
 * writer calls it inside {@code writingDocument()}.
 */
final class EventEncoder {

    private EventEncoder() {
    }

    /** "RDMT" read as a little-endian int: the first bytes after the kind byte of a SESSION. */
    static final int SESSION_MAGIC = 'R' | 'D' << 8 | 'M' << 16 | 'T' << 24;

    static void kind(Bytes<?> b, EventKind kind) {
        b.writeUnsignedByte(kind.code());
    }

    static void sessionPrefix(Bytes<?> b, FormatVersion v) {
        b.writeInt(SESSION_MAGIC);
        b.writeUnsignedShort(v.major());
        b.writeUnsignedShort(v.minor());
    }

    static void header(Bytes<?> b, long seq, long monoNanos, long wallNanos, long pid, long threadId,
                       String threadName) {
        b.writeStopBit(seq);
        b.writeLong(monoNanos);
        b.writeLong(wallNanos);
        b.writeStopBit(pid);
        b.writeStopBit(threadId);
        b.writeUtf8(threadName);
    }

    static void header(Bytes<?> b, EventHeader h) {
        header(b, h.seq(), h.monoNanos(), h.wallNanos(), h.pid(), h.threadId(), h.threadName());
    }

    /** Appends the check value over everything written since {@code start}. */
    static void seal(Bytes<?> b, long start) {
        b.writeInt(DocumentCheck.compute(b, start, b.writePosition()));
    }

    static void attrs(Bytes<?> b, Attrs a) {
        int n = a.size();
        b.writeStopBit(n);
        for (int i = 0; i < n; i++) {
            b.writeStopBit(a.attr(i).code());
            b.writeStopBit(a.value(i));
        }
        int t = a.textSize();
        b.writeStopBit(t);
        for (int i = 0; i < t; i++) {
            b.writeStopBit(a.textAttr(i).code());
            b.writeUtf8(a.text(i));
        }
    }

    static void session(Bytes<?> b, SessionInfo s) {
        b.writeUtf8(s.toolVersion());
        b.writeUtf8(s.hostId());
        b.writeUtf8(s.commandLine());
        b.writeUtf8(s.verbsLib());
        b.writeUtf8(s.scenario());
        b.writeStopBit(s.overrides().size());
        for (Map.Entry<String, String> e : s.overrides().entrySet()) {
            b.writeUtf8(e.getKey());
            b.writeUtf8(e.getValue());
        }
        attrs(b, s.device());
        b.writeStopBit(s.ports().size());
        for (Attrs port : s.ports()) {
            attrs(b, port);
        }
        b.writeStopBit(s.gids().size());
        for (GidEntry g : s.gids()) {
            b.writeStopBit(g.portNum());
            b.writeStopBit(g.index());
            b.writeUtf8(g.gid());
            b.writeStopBit(g.type());
        }
    }

    static void call(Bytes<?> b, Verb verb, long handle, int ret, int errno, long durationNanos, Attrs in, Attrs out) {
        b.writeStopBit(verb.code());
        b.writeStopBit(handle);
        b.writeStopBit(ret);
        b.writeStopBit(errno);
        b.writeStopBit(durationNanos);
        attrs(b, in);
        attrs(b, out);
    }

    static void completion(Bytes<?> b, long cq, Wc wc) {
        b.writeStopBit(cq);
        b.writeStopBit(wc.wrId());
        b.writeStopBit(wc.status());
        b.writeStopBit(wc.opcode());
        b.writeStopBit(wc.vendorErr());
        b.writeStopBit(wc.byteLen());
        b.writeStopBit(wc.immData());
        b.writeStopBit(wc.qpNum());
        b.writeStopBit(wc.srcQp());
        b.writeStopBit(wc.wcFlags());
        b.writeStopBit(wc.pkeyIndex());
        b.writeStopBit(wc.slid());
        b.writeStopBit(wc.sl());
        b.writeStopBit(wc.dlidPathBits());
    }

    static void async(Bytes<?> b, int eventType, long element, int qpNum) {
        b.writeStopBit(eventType);
        b.writeStopBit(element);
        b.writeStopBit(qpNum);
    }

    static void oob(Bytes<?> b, OobEvent.Direction direction, String peer, OobEvent.Kind kind, Attrs attrs) {
        b.writeUnsignedByte(direction.code());
        b.writeUtf8(peer);
        b.writeUnsignedByte(kind.code());
        attrs(b, attrs);
    }

    static void mark(Bytes<?> b, String step, MarkEvent.Verdict verdict, String text) {
        b.writeUtf8(step);
        b.writeUnsignedByte(verdict.code());
        b.writeUtf8(text);
    }

    static void counters(Bytes<?> b, String device, CountersEvent.Phase phase, List<CountersEvent.Counter> counters) {
        b.writeUtf8(device);
        b.writeUnsignedByte(phase.code());
        b.writeStopBit(counters.size());
        for (CountersEvent.Counter c : counters) {
            b.writeUtf8(c.name());
            b.writeStopBit(c.value());
        }
    }

    static void end(Bytes<?> b, long eventCount) {
        b.writeStopBit(eventCount);
    }

    /** Writes a whole event as it is, header included (for copies such as a redacted export). */
    static void event(Bytes<?> b, TraceEvent e) {
        long start = b.writePosition();
        kind(b, e.kind());
        if (e instanceof SessionEvent s) {
            sessionPrefix(b, s.formatVersion());
        }
        header(b, e.header());
        if (e instanceof SessionEvent s) {
            session(b, s.info());
        } else if (e instanceof CallEvent c) {
            call(b, c.verb(), c.handle(), c.ret(), c.errno(), c.durationNanos(), c.in(), c.out());
        } else if (e instanceof CompletionEvent c) {
            completion(b, c.cq(), c.wc());
        } else if (e instanceof AsyncEvent a) {
            async(b, a.eventType(), a.element(), a.qpNum());
        } else if (e instanceof OobEvent o) {
            oob(b, o.direction(), o.peer(), o.oobKind(), o.attrs());
        } else if (e instanceof MarkEvent m) {
            mark(b, m.step(), m.verdict(), m.text());
        } else if (e instanceof CountersEvent c) {
            counters(b, c.device(), c.phase(), c.counters());
        } else if (e instanceof EndEvent end) {
            end(b, end.eventCount());
        } else {
            throw new IllegalArgumentException("unknown event " + e);
        }
        seal(b, start);
    }
}
