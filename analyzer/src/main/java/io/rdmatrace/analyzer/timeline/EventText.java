package io.rdmatrace.analyzer.timeline;

import java.util.Locale;
import java.util.Map;

import io.rdmatrace.trace.model.AsyncEvent;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.names.VerbsNames;
import io.rdmatrace.trace.model.Wc;

/** The words a timeline shows for an event: a short label for the drawing and a full tooltip. */
final class EventText {

    private EventText() {
    }

    /** True when the call did what was asked (ibv_poll_cq returns a count; every other verb 0). */
    static boolean ok(CallEvent call) {
        return call.verb() == Verb.IBV_POLL_CQ ? call.ret() >= 0 : call.ret() == 0;
    }

    /** A QP state without its prefix: {@code RTS}. */
    static String state(long value) {
        return strip(VerbsNames.QP_STATE.render(value), "IBV_QPS_");
    }

    /** The bar label of a call; {@code fromState} is the QP's state before a modify (or null). */
    static String callLabel(CallEvent call, String fromState) {
        Attrs in = call.in();
        Attrs out = call.out();
        String label;
        switch (call.verb()) {
            case IBV_OPEN_DEVICE:
                label = "open " + nullToEmpty(in.text(Attr.DEV_NAME));
                break;
            case IBV_ALLOC_PD:
                label = "PD";
                break;
            case IBV_REG_MR:
                label = "MR " + in.get(Attr.LENGTH, 0) + " B";
                break;
            case IBV_CREATE_CQ:
                label = "CQ " + out.get(Attr.CQE, in.get(Attr.CQE, 0));
                break;
            case IBV_CREATE_QP:
                label = out.has(Attr.QP_NUM) ? String.format("QPN 0x%06x", out.get(Attr.QP_NUM, 0)) : "create QP";
                break;
            case IBV_MODIFY_QP:
                label = in.has(Attr.QP_STATE)
                        ? (fromState != null ? fromState : "?") + "→" + state(in.get(Attr.QP_STATE, 0))
                        : "modify";
                break;
            case IBV_QUERY_QP:
                label = out.has(Attr.QP_STATE) ? "query " + state(out.get(Attr.QP_STATE, 0)) : "query";
                break;
            case IBV_POST_SEND:
                label = (in.has(Attr.WR_OPCODE) ? strip(Attr.WR_OPCODE.render(in.get(Attr.WR_OPCODE, 0)), "IBV_WR_")
                        : "send") + count(in);
                break;
            case IBV_POST_RECV:
                label = "recv" + count(in);
                break;
            case IBV_POLL_CQ:
                label = out.text(Attr.MESSAGE) != null ? out.text(Attr.MESSAGE) : "poll " + out.get(Attr.POLLED, call.ret());
                break;
            default:
                label = call.verb().function().replaceFirst("^ibv_", "").replace('_', ' ');
        }
        if (!ok(call)) {
            label += " ✗ " + (call.errno() != 0 ? call.errnoName() : "ret " + call.ret());
        }
        return label;
    }

    /** Everything recorded about a call, one line per part. */
    static String callDetail(CallEvent call) {
        StringBuilder b = new StringBuilder();
        b.append(call.verb().function()).append("  ret=").append(call.ret());
        if (call.errno() != 0) {
            b.append(" errno=").append(call.errnoName());
        }
        b.append("  ").append(duration(call.durationNanos())).append("  #").append(call.seq());
        if (call.handle() != 0) {
            b.append(String.format("%nhandle 0x%x", call.handle()));
        }
        appendAttrs(b, "in", call.in());
        appendAttrs(b, "out", call.out());
        return b.toString();
    }

    static String completionLabel(Wc wc) {
        String op = strip(wc.opcodeName(), "IBV_WC_");
        return wc.status() == 0 ? op + " ✓" + (wc.byteLen() > 0 ? " " + wc.byteLen() + " B" : "")
                : op + " " + strip(wc.statusName(), "IBV_WC_");
    }

    static String completionDetail(Wc wc, long cq, long seq) {
        return String.format("completion  #%d%nstatus %s  opcode %s%nqp_num 0x%06x  wr_id %d  byte_len %d%n"
                        + "vendor_err 0x%x  cq 0x%x", seq, wc.statusName(), wc.opcodeName(), wc.qpNum(), wc.wrId(),
                wc.byteLen(), wc.vendorErr(), cq);
    }

    static boolean asyncIsError(AsyncEvent event) {
        String name = event.eventTypeName();
        return name.contains("ERR") || name.contains("FATAL");
    }

    static String asyncLabel(AsyncEvent event) {
        return strip(event.eventTypeName(), "IBV_EVENT_");
    }

    static String oobLabel(OobEvent event) {
        return (event.direction() == OobEvent.Direction.SENT ? "→ " : "← ") + event.oobKind();
    }

    static String oobDetail(OobEvent event) {
        StringBuilder b = new StringBuilder();
        b.append("OOB ").append(event.oobKind()).append(' ')
                .append(event.direction() == OobEvent.Direction.SENT ? "sent to " : "received from ")
                .append(event.peer()).append("  #").append(event.seq());
        appendAttrs(b, "", event.attrs());
        return b.toString();
    }

    static String markLabel(MarkEvent mark) {
        return mark.verdict() == MarkEvent.Verdict.INFO ? mark.step() : mark.step() + " " + mark.verdict();
    }

    /** Nanoseconds for people: 850 ns, 12.3 µs, 4.56 ms, 1.23 s. */
    static String duration(long nanos) {
        double n = nanos;
        if (Math.abs(n) < 1_000) {
            return nanos + " ns";
        }
        if (Math.abs(n) < 1_000_000) {
            return String.format(Locale.ROOT, "%.1f µs", n / 1e3);
        }
        if (Math.abs(n) < 1_000_000_000) {
            return String.format(Locale.ROOT, "%.2f ms", n / 1e6);
        }
        return String.format(Locale.ROOT, "%.2f s", n / 1e9);
    }

    private static void appendAttrs(StringBuilder b, String title, Attrs attrs) {
        if (attrs.isEmpty()) {
            return;
        }
        b.append(System.lineSeparator());
        if (!title.isEmpty()) {
            b.append(title).append(": ");
        }
        int n = 0;
        for (Map.Entry<String, String> e : attrs.rendered().entrySet()) {
            if (n++ > 0) {
                b.append(n % 4 == 1 ? System.lineSeparator() + "    " : "  ");
            }
            b.append(e.getKey()).append('=').append(e.getValue());
        }
    }

    private static String count(Attrs in) {
        long n = in.get(Attr.WR_COUNT, 1);
        return n > 1 ? " ×" + n : "";
    }

    static String strip(String name, String prefix) {
        return name.startsWith(prefix) ? name.substring(prefix.length()) : name;
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
