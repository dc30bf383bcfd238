package io.rdmatrace.trace;

import io.rdmatrace.trace.model.AsyncEvent;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.CmEvent;
import io.rdmatrace.trace.model.CompletionEvent;
import io.rdmatrace.trace.model.CountersEvent;
import io.rdmatrace.trace.model.EndEvent;
import io.rdmatrace.trace.model.EventHeader;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.model.PacketEvent;
import io.rdmatrace.trace.model.SessionEvent;
import io.rdmatrace.trace.model.TraceEvent;

/** Test helper: compares event payloads, ignoring the writer-assigned header. */
final class Events {

    private Events() {
    }

    static final EventHeader BLANK = new EventHeader(0, 0, 0, 0, 0, "");

    static TraceEvent withoutHeader(TraceEvent e) {
        if (e instanceof SessionEvent s) {
            return new SessionEvent(BLANK, s.formatVersion(), s.info());
        } else if (e instanceof CallEvent c) {
            return new CallEvent(BLANK, c.verb(), c.handle(), c.ret(), c.errno(), c.durationNanos(), c.in(), c.out(), c.wrs());
        } else if (e instanceof CompletionEvent c) {
            return new CompletionEvent(BLANK, c.cq(), c.wc());
        } else if (e instanceof AsyncEvent a) {
            return new AsyncEvent(BLANK, a.eventType(), a.element(), a.qpNum());
        } else if (e instanceof OobEvent o) {
            return new OobEvent(BLANK, o.direction(), o.peer(), o.oobKind(), o.attrs());
        } else if (e instanceof MarkEvent m) {
            return new MarkEvent(BLANK, m.step(), m.verdict(), m.text());
        } else if (e instanceof CountersEvent c) {
            return new CountersEvent(BLANK, c.device(), c.phase(), c.counters());
        } else if (e instanceof EndEvent end) {
            return new EndEvent(BLANK, end.eventCount(), end.ending());
        } else if (e instanceof CmEvent c) {
            return new CmEvent(BLANK, c.eventType(), c.status(), c.id(), c.attrs());
        } else if (e instanceof PacketEvent p) {
            return new PacketEvent(BLANK, p.device(), p.direction(), p.reason(), p.opcode(), p.destQp(), p.psn(), p.ackReq(),
                    p.syndrome(), p.ipLength(), p.payloadLength(), p.peer());
        }
        throw new AssertionError(e);
    }
}
