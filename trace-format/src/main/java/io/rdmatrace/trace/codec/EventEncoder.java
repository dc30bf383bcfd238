package io.rdmatrace.trace.codec;

import io.rdmatrace.trace.model.AsyncEvent;
import io.rdmatrace.trace.model.AttrEntries;
import io.rdmatrace.trace.model.AttrRow;
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

import java.util.List;
import java.util.Map;

/**
 * Encodes the fields of one trace document (layout in FORMAT.md): kind byte, [SESSION: magic +
 * version], common header, payload, check value. Stateless; the writer encodes into its
 * {@link ByteSink} and copies the result into a Chronicle document.
 */
public final class EventEncoder {

    private EventEncoder() {
    }

    /** "RDMT" read as a little-endian int: the first bytes after the kind byte of a SESSION. */
    static final int SESSION_MAGIC = 'R' | 'D' << 8 | 'M' << 16 | 'T' << 24;

    public static void kind(ByteSink b, EventKind kind) {
        b.u8(kind.code());
    }

    public static void sessionPrefix(ByteSink b, FormatVersion v) {
        b.i32(SESSION_MAGIC);
        b.u16(v.major());
        b.u16(v.minor());
    }

    public static void header(ByteSink b, long seq, long monoNanos, long wallNanos, long pid, long threadId,
                       String threadName) {
        b.stop(seq);
        b.i64(monoNanos);
        b.i64(wallNanos);
        b.stop(pid);
        b.stop(threadId);
        b.utf8(threadName);
    }

    public static void header(ByteSink b, EventHeader h) {
        header(b, h.seq(), h.monoNanos(), h.wallNanos(), h.pid(), h.threadId(), h.threadName());
    }

    /** Appends the check value over everything written since {@code start}. */
    public static void seal(ByteSink b, int start) {
        b.i32(DocumentCheck.compute(b.array(), start, b.length()));
    }

    /** An attribute set's bytes: {@code stop n}, n × (code, value), {@code stop t}, t × (code, utf8). */
    public static void attrs(ByteSink b, AttrEntries a) {
        int n = a.size();
        b.stop(n);
        for (int i = 0; i < n; i++) {
            b.stop(a.attr(i).code());
            b.stop(a.value(i));
        }
        int t = a.textSize();
        b.stop(t);
        for (int i = 0; i < t; i++) {
            b.stop(a.textAttr(i).code());
            b.utf8(a.text(i));
        }
    }

    /**
     * The same bytes for a row. A copy of the loop above with the concrete type: a third kind of
     * entries at that loop's call sites would make them megamorphic for every event.
     */
    public static void attrs(ByteSink b, AttrRow a) {
        int n = a.size();
        b.stop(n);
        for (int i = 0; i < n; i++) {
            b.stop(a.attr(i).code());
            b.stop(a.value(i));
        }
        int t = a.textSize();
        b.stop(t);
        for (int i = 0; i < t; i++) {
            b.stop(a.textAttr(i).code());
            b.utf8(a.text(i));
        }
    }

    public static void session(ByteSink b, SessionInfo s) {
        b.utf8(s.toolVersion());
        b.utf8(s.hostId());
        b.utf8(s.commandLine());
        b.utf8(s.verbsLib());
        b.utf8(s.scenario());
        b.stop(s.overrides().size());
        for (Map.Entry<String, String> e : s.overrides().entrySet()) {
            b.utf8(e.getKey());
            b.utf8(e.getValue());
        }
        attrs(b, s.device());
        b.stop(s.ports().size());
        for (Attrs port : s.ports()) {
            attrs(b, port);
        }
        b.stop(s.gids().size());
        for (GidEntry g : s.gids()) {
            b.stop(g.portNum());
            b.stop(g.index());
            b.utf8(g.gid());
            b.stop(g.type());
        }
    }

    /** A call; {@code in}/{@code out} in ascending code order (an {@link Attrs}, or a builder sorted in place). */
    public static void call(ByteSink b, Verb verb, long handle, int ret, int errno, long durationNanos, AttrEntries in,
                     AttrEntries out, List<WorkRequest> wrs) {
        callHead(b, verb, handle, ret, errno, durationNanos);
        attrs(b, in);
        attrs(b, out);
        wrs(b, wrs); // 1.1
    }

    /** A call without work requests whose attributes are rows. */
    public static void call(ByteSink b, Verb verb, long handle, int ret, int errno, long durationNanos, AttrRow in,
                     AttrRow out) {
        callHead(b, verb, handle, ret, errno, durationNanos);
        attrs(b, in);
        attrs(b, out);
        b.stop(0); // no work requests (1.1)
    }

    private static void callHead(ByteSink b, Verb verb, long handle, int ret, int errno, long durationNanos) {
        b.stop(verb.code());
        b.stop(handle);
        b.stop(ret);
        b.stop(errno);
        b.stop(durationNanos);
    }

    /** The work-request chain of a post: {@code stop n}, n × (attrs fields, stop nSge, nSge × (addr, length, lkey)). */
    public static void wrs(ByteSink b, List<WorkRequest> wrs) {
        int n = wrs.size();
        b.stop(n);
        for (int i = 0; i < n; i++) {
            WorkRequest wr = wrs.get(i);
            attrs(b, wr.fields());
            List<WorkRequest.Sge> sges = wr.sges();
            b.stop(sges.size());
            for (int j = 0; j < sges.size(); j++) {
                WorkRequest.Sge sge = sges.get(j);
                b.stop(sge.addr());
                b.stop(sge.length());
                b.stop(sge.lkey());
            }
        }
    }

    public static void completion(ByteSink b, long cq, Wc wc) {
        b.stop(cq);
        b.stop(wc.wrId());
        b.stop(wc.status());
        b.stop(wc.opcode());
        b.stop(wc.vendorErr());
        b.stop(wc.byteLen());
        b.stop(wc.immData());
        b.stop(wc.qpNum());
        b.stop(wc.srcQp());
        b.stop(wc.wcFlags());
        b.stop(wc.pkeyIndex());
        b.stop(wc.slid());
        b.stop(wc.sl());
        b.stop(wc.dlidPathBits());
    }

    public static void async(ByteSink b, int eventType, long element, int qpNum) {
        b.stop(eventType);
        b.stop(element);
        b.stop(qpNum);
    }

    public static void cm(ByteSink b, int eventType, int status, long id, Attrs attrs) {
        b.stop(eventType);
        b.stop(status);
        b.stop(id);
        attrs(b, attrs);
    }

    public static void packet(ByteSink b, PacketEvent p) {
        b.u8(p.direction().code());
        b.utf8(p.device());
        b.utf8(p.reason());
        b.stop(p.opcode());
        b.stop(p.destQp());
        b.stop(p.psn());
        b.u8(p.ackReq() ? 1 : 0);
        b.stop(p.syndrome());
        b.stop(p.ipLength());
        b.stop(p.payloadLength());
        b.utf8(p.peer());
    }

    public static void oob(ByteSink b, OobEvent.Direction direction, String peer, OobEvent.Kind kind, Attrs attrs) {
        b.u8(direction.code());
        b.utf8(peer);
        b.u8(kind.code());
        attrs(b, attrs);
    }

    public static void mark(ByteSink b, String step, MarkEvent.Verdict verdict, String text) {
        b.utf8(step);
        b.u8(verdict.code());
        b.utf8(text);
    }

    public static void counters(ByteSink b, String device, CountersEvent.Phase phase, List<CountersEvent.Counter> counters) {
        b.utf8(device);
        b.u8(phase.code());
        b.stop(counters.size());
        for (CountersEvent.Counter c : counters) {
            b.utf8(c.name());
            b.stop(c.value());
        }
    }

    public static void end(ByteSink b, long eventCount, TraceEnding ending) {
        b.stop(eventCount);
        // since 1.4: how the recording ended
        b.u8(ending.how().code());
        b.stop(ending.exitStatus());
        b.stop(ending.signal());
        b.stop(ending.recorderSignal());
        b.utf8(ending.detail());
    }

    /** Writes a whole event as it is, header included (for copies such as a redacted export). */
    public static void event(ByteSink b, TraceEvent e) {
        int start = b.length();
        kind(b, e.kind());
        if (e instanceof SessionEvent s) {
            sessionPrefix(b, s.formatVersion());
        }
        header(b, e.header());
        if (e instanceof SessionEvent s) {
            session(b, s.info());
        } else if (e instanceof CallEvent c) {
            call(b, c.verb(), c.handle(), c.ret(), c.errno(), c.durationNanos(), c.in(), c.out(), c.wrs());
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
        } else if (e instanceof CmEvent c) {
            cm(b, c.eventType(), c.status(), c.id(), c.attrs());
        } else if (e instanceof PacketEvent p) {
            packet(b, p);
        } else if (e instanceof EndEvent end) {
            end(b, end.eventCount(), end.ending());
        } else {
            throw new IllegalArgumentException("unknown event " + e);
        }
        seal(b, start);
    }
}
