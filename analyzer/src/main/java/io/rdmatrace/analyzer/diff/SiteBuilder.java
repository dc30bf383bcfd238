package io.rdmatrace.analyzer.diff;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import io.rdmatrace.trace.model.AsyncEvent;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.CompletionEvent;
import io.rdmatrace.trace.names.ErrnoNames;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.model.Wc;

/**
 * Gives every behaviour event of one host its {@link Site} in one pass over the events: objects
 * are numbered by creation attempt per kind (so a failed creation keeps the later ones aligned),
 * handles and QPNs are resolved to those numbers, and occurrences are counted per step.
 *
 * <p>Not compared, because they vary from run to run without meaning anything: the number of
 * {@code ibv_poll_cq} calls (a poll loop spins until work arrives; only failed polls are
 * sites), errno after a successful call (stale), and the fields of an error completion that
 * the verbs API leaves undefined (opcode, byte_len, flags).
 */
final class SiteBuilder {
    private static final Map<Verb, String> CREATES = new EnumMap<>(Verb.class);
    private static final Map<Verb, String> DESTROYS = new EnumMap<>(Verb.class);
    private static final int IBV_QPT_UD = 4;
    private static final int IBV_WC_RECV = 128;
    private static final int IBV_WC_WITH_IMM = 1 << 1;

    static {
        object(Verb.IBV_GET_DEVICE_LIST, Verb.IBV_FREE_DEVICE_LIST, "device_list");
        object(Verb.IBV_OPEN_DEVICE, Verb.IBV_CLOSE_DEVICE, "context");
        object(Verb.IBV_ALLOC_PD, Verb.IBV_DEALLOC_PD, "pd");
        object(Verb.IBV_REG_MR, Verb.IBV_DEREG_MR, "mr");
        object(Verb.IBV_CREATE_COMP_CHANNEL, Verb.IBV_DESTROY_COMP_CHANNEL, "comp_channel");
        object(Verb.IBV_CREATE_CQ, Verb.IBV_DESTROY_CQ, "cq");
        object(Verb.IBV_CREATE_QP, Verb.IBV_DESTROY_QP, "qp");
        object(Verb.IBV_CREATE_AH, Verb.IBV_DESTROY_AH, "ah");
        object(Verb.IBV_CREATE_SRQ, Verb.IBV_DESTROY_SRQ, "srq");
    }

    /** "in.<attr>" / "out.<attr>" / "<attr>" value names per attribute ordinal, null when ignored. */
    private final String[] inKey = new String[Attr.values().length];
    private final String[] outKey = new String[Attr.values().length];
    private final String[] bareKey = new String[Attr.values().length];
    private final boolean keepRet;
    private final boolean keepErrno;
    private final boolean keepVerdict;
    private final String role;
    private final Map<String, Integer> created = new HashMap<>();
    private final Map<Long, String> byHandle = new HashMap<>();
    private final Map<Long, String> byQpn = new HashMap<>();
    private final Map<String, Integer> qpType = new HashMap<>();
    private final Map<Slot, Integer> occurrences = new HashMap<>();
    /** handle → the last call on it, to say which modify a query follows */
    private final Map<Long, String> lastModify = new HashMap<>();
    private final Map<String, LongStream.Builder> durations = new LinkedHashMap<>();
    private final List<Observation> out = new java.util.ArrayList<>();
    private String step = "setup";

    /** What occurrences are counted per. */
    private record Slot(String step, String object, String what) {
    }

    private SiteBuilder(String role, DiffOptions options) {
        this.role = role;
        // ignored fields are never rendered: most of them (PSNs, QPNs, keys, addresses) change on every event
        for (Attr a : Attr.values()) {
            inKey[a.ordinal()] = options.ignores("in." + a.column()) ? null : "in." + a.column();
            outKey[a.ordinal()] = options.ignores("out." + a.column()) ? null : "out." + a.column();
            bareKey[a.ordinal()] = options.ignores(a.column()) ? null : a.column();
        }
        keepRet = !options.ignores("ret");
        keepErrno = !options.ignores("errno");
        keepVerdict = !options.ignores("verdict");
    }

    private static void object(Verb create, Verb destroy, String kind) {
        CREATES.put(create, kind);
        DESTROYS.put(destroy, kind);
    }

    static HostSites build(HostEvents host, String role, DiffOptions options) {
        SiteBuilder b = new SiteBuilder(role, options);
        b.session(host);
        for (TraceEvent event : host.events()) {
            if (event instanceof CallEvent call) {
                b.call(call);
            } else if (event instanceof CompletionEvent completion) {
                b.completion(completion);
            } else if (event instanceof AsyncEvent async) {
                b.async(async);
            } else if (event instanceof MarkEvent mark) {
                b.mark(mark);
            }
        }
        Map<String, long[]> samples = new LinkedHashMap<>();
        b.durations.forEach((verb, values) -> samples.put(verb, values.build().toArray()));
        return new HostSites(role, host.host(), b.out, samples);
    }

    private void session(HostEvents host) {
        out.add(new Observation(new Site(role, "session", "device", "device", 1), SiteKind.DEVICE, -1, "",
                rendered(bareKey, host.device())));
        int index = 0;
        for (Attrs port : host.ports()) {
            index++;
            String object = "port#" + port.get(Attr.PORT_NUM, index);
            out.add(new Observation(new Site(role, "session", object, "port", 1), SiteKind.PORT, -1, "",
                    rendered(bareKey, port)));
        }
    }

    private void call(CallEvent call) {
        Verb verb = call.verb();
        boolean failed = verb == Verb.IBV_POLL_CQ ? call.ret() < 0 : call.ret() != 0;
        if (verb == Verb.IBV_POLL_CQ) {
            if (call.ret() > 0) {
                sample(verb, call.durationNanos()); // empty polls are summaries, not single calls
            }
            if (!failed) {
                return;
            }
        } else {
            sample(verb, call.durationNanos());
        }
        String object = objectOf(call);
        Map<String, String> values = new LinkedHashMap<>();
        if (keepRet) {
            values.put("ret", Integer.toString(call.ret()));
        }
        if (failed && keepErrno) {
            values.put("errno", ErrnoNames.name(call.errno()));
        }
        values.putAll(rendered(inKey, call.in()));
        values.putAll(rendered(outKey, call.out()));
        String what = verb == Verb.IBV_POLL_CQ ? "ibv_poll_cq failure" : verb.function();
        int occurrence = next(object, what);
        String detail = "";
        if (verb == Verb.IBV_MODIFY_QP) {
            Long state = call.in().getOrNull(Attr.QP_STATE);
            detail = state == null ? "" : "→ " + shortState(state);
            lastModify.put(call.handle(), "after ibv_modify_qp #" + occurrence + (detail.isEmpty() ? "" : " (" + detail + ")"));
        } else if (verb == Verb.IBV_QUERY_QP) {
            detail = lastModify.getOrDefault(call.handle(), "");
            lastModify.remove(call.handle());
        } else {
            lastModify.remove(call.handle());
        }
        out.add(new Observation(new Site(role, step, object, what, occurrence), SiteKind.CALL, call.seq(), detail, values));
        if (DESTROYS.containsKey(verb) && !failed) {
            byHandle.remove(call.handle());
        }
    }

    /** The object a call is about; creations number a new one (also when they fail). */
    private String objectOf(CallEvent call) {
        String kind = CREATES.get(call.verb());
        if (kind == null) {
            return call.handle() == 0 ? "-" : byHandle.getOrDefault(call.handle(), "unknown");
        }
        int n = created.merge(kind, 1, Integer::sum);
        String object = kind + "#" + n;
        if (call.ret() == 0 && call.handle() != 0) {
            byHandle.put(call.handle(), object);
            if (kind.equals("qp")) {
                Long qpn = call.out().getOrNull(Attr.QP_NUM);
                if (qpn != null) {
                    byQpn.put(qpn, object);
                }
                qpType.put(object, (int) call.in().get(Attr.QP_TYPE, -1));
            }
        }
        return object;
    }

    private void completion(CompletionEvent event) {
        Wc wc = event.wc();
        String object = byQpn.getOrDefault((long) wc.qpNum(), "unknown qp");
        String what = "completion " + (wc.opcode() >= IBV_WC_RECV ? "recv" : "send");
        Map<String, String> values = new LinkedHashMap<>();
        put(values, Attr.WC_STATUS, wc.status());
        put(values, Attr.VENDOR_ERR, wc.vendorErr());
        put(values, Attr.WR_ID, wc.wrId());
        put(values, Attr.QP_NUM, wc.qpNum());
        if (wc.status() == 0) {
            // man ibv_poll_cq: on error only wr_id, status, qp_num and vendor_err are valid
            put(values, Attr.WC_OPCODE, wc.opcode());
            put(values, Attr.BYTE_LEN, wc.byteLen());
            put(values, Attr.WC_FLAGS, wc.wcFlags());
            if ((wc.wcFlags() & IBV_WC_WITH_IMM) != 0) {
                put(values, Attr.IMM_DATA, wc.immData());
            }
            if (qpType.getOrDefault(object, -1) == IBV_QPT_UD) {
                put(values, Attr.SRC_QP, wc.srcQp());
                put(values, Attr.SLID, wc.slid());
                put(values, Attr.SL, wc.sl());
                put(values, Attr.PKEY_INDEX, wc.pkeyIndex());
            }
        }
        out.add(new Observation(new Site(role, step, object, what, next(object, what)), SiteKind.COMPLETION,
                event.seq(), "", values));
    }

    private void async(AsyncEvent event) {
        String object = switch (event.elementKind()) {
            case QP -> event.qpNum() >= 0 && byQpn.containsKey((long) event.qpNum())
                    ? byQpn.get((long) event.qpNum()) : byHandle.getOrDefault(event.element(), "unknown qp");
            case CQ, SRQ, WQ -> byHandle.getOrDefault(event.element(), "unknown");
            case PORT -> "port#" + event.element();
            case DEVICE -> "device";
        };
        String what = "async " + event.eventTypeName();
        out.add(new Observation(new Site(role, step, object, what, next(object, what)), SiteKind.ASYNC, event.seq(), "",
                Map.of()));
    }

    private void mark(MarkEvent mark) {
        step = mark.step().isEmpty() ? step : mark.step();
        if (mark.verdict() == MarkEvent.Verdict.INFO) {
            return;
        }
        out.add(new Observation(new Site(role, step, "-", "verdict", next("-", "verdict")), SiteKind.VERDICT, mark.seq(),
                mark.text(), keepVerdict ? Map.of("verdict", mark.verdict().name()) : Map.of()));
    }

    private int next(String object, String what) {
        return occurrences.merge(new Slot(step, object, what), 1, Integer::sum);
    }

    private void sample(Verb verb, long nanos) {
        durations.computeIfAbsent(verb.function(), v -> LongStream.builder()).add(nanos);
    }

    private void put(Map<String, String> values, Attr attr, long value) {
        String key = bareKey[attr.ordinal()];
        if (key != null) {
            values.put(key, attr.render(value));
        }
    }

    /** The kept attributes, named by {@code keys} (null entries are ignored fields). */
    private static Map<String, String> rendered(String[] keys, Attrs attrs) {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < attrs.size(); i++) {
            String key = keys[attrs.attr(i).ordinal()];
            if (key != null) {
                values.put(key, attrs.attr(i).render(attrs.value(i)));
            }
        }
        for (int i = 0; i < attrs.textSize(); i++) {
            String key = keys[attrs.textAttr(i).ordinal()];
            if (key != null) {
                values.put(key, attrs.text(i));
            }
        }
        return values;
    }

    private static String shortState(long state) {
        return Attr.QP_STATE.render(state).replace("IBV_QPS_", "");
    }
}
