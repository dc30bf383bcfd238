package io.rdmatrace.analyzer.export;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.rdmatrace.trace.model.AsyncEvent;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.CompletionEvent;
import io.rdmatrace.trace.model.CountersEvent;
import io.rdmatrace.trace.model.EndEvent;
import io.rdmatrace.trace.model.EventHeader;
import io.rdmatrace.trace.model.GidEntry;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.model.PacketEvent;
import io.rdmatrace.trace.model.SessionEvent;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.model.WorkRequest;

/**
 * Rewrites trace events with every sensitive value pseudonymised ({@link Sensitivity}): GIDs,
 * IPv4 addresses, host names, lkeys/rkeys, virtual addresses and handles, GUIDs, and whatever
 * free text quotes them. Built from all hosts' events at once (pass 1), so one value maps to one
 * pseudonym across hosts and cross-host rules (QPN/GID/rkey agreement) still hold.
 *
 * <p>Kept: QPNs, PSNs, Q_Keys, P_Keys, timestamps, pids, sequence numbers, firmware versions,
 * counters, everything else numeric.
 */
public final class Redactor {
    private static final int MAX_REMEMBERED_TEXTS = 100_000;
    private final Pseudonyms pseudonyms;
    private final TextScrubber scrubber;
    private final SensitiveValues originals;
    private final Map<String, String> scrubbed = new HashMap<>();
    private int textFields;

    private Redactor(SensitiveValues originals, Pseudonyms pseudonyms) {
        this.originals = originals;
        this.pseudonyms = pseudonyms;
        this.scrubber = new TextScrubber(pseudonyms, originals.hostNames(), this::numberInText);
    }

    /** Plans the redaction of these hosts' events with a fresh random key. */
    public static Redactor plan(List<List<TraceEvent>> hosts) {
        return plan(hosts, List.of(), null);
    }

    /**
     * Same, with more host names to hide (folders that could not be read) and a given key
     * (tests that need a stable mapping; null means a fresh random one).
     */
    static Redactor plan(List<List<TraceEvent>> hosts, List<String> moreHostNames, byte[] key) {
        SensitiveValues values = new SensitiveValues();
        for (List<TraceEvent> events : hosts) {
            events.forEach(values::add);
        }
        moreHostNames.forEach(values::hostName);
        return new Redactor(values, key == null ? Pseudonyms.random(values) : new Pseudonyms(key, values));
    }

    /** The pseudonym of a host id or host name. */
    public String host(String original) {
        return pseudonyms.host(original);
    }

    /** Original host name → pseudonym, for the person exporting (never written into a bundle). */
    public Map<String, String> hostMap() {
        Map<String, String> map = new LinkedHashMap<>();
        for (String h : originals.hostNames()) {
            map.put(h, pseudonyms.host(h));
        }
        return map;
    }

    /** Free text with its sensitive parts replaced. */
    public String text(String original) {
        if (original == null || original.isEmpty()) {
            return original;
        }
        // the same texts recur on every event (thread names, poll summaries): scrub each once
        if (scrubbed.size() > MAX_REMEMBERED_TEXTS) {
            scrubbed.clear();
        }
        String result = scrubbed.computeIfAbsent(original, scrubber::scrub);
        if (!Objects.equals(result, original)) {
            textFields++;
        }
        return result;
    }

    public List<TraceEvent> redact(List<TraceEvent> events) {
        List<TraceEvent> out = new ArrayList<>(events.size());
        for (TraceEvent e : events) {
            out.add(redact(e));
        }
        return out;
    }

    public TraceEvent redact(TraceEvent event) {
        EventHeader h = header(event.header());
        if (event instanceof SessionEvent s) {
            return new SessionEvent(h, s.formatVersion(), session(s.info()));
        } else if (event instanceof CallEvent c) {
            return new CallEvent(h, c.verb(), pseudonyms.address(c.handle()), c.ret(), c.errno(), c.durationNanos(),
                    attrs(c.in()), attrs(c.out()), wrs(c.wrs()));
        } else if (event instanceof CompletionEvent c) {
            return new CompletionEvent(h, pseudonyms.address(c.cq()), c.wc());
        } else if (event instanceof AsyncEvent a) {
            return new AsyncEvent(h, a.eventType(), elementIsHandle(a) ? pseudonyms.address(a.element()) : a.element(),
                    a.qpNum());
        } else if (event instanceof OobEvent o) {
            return new OobEvent(h, o.direction(), text(o.peer()), o.oobKind(), attrs(o.attrs()));
        } else if (event instanceof MarkEvent m) {
            return new MarkEvent(h, m.step(), m.verdict(), text(m.text()));
        } else if (event instanceof CountersEvent c) {
            return new CountersEvent(h, text(c.device()), c.phase(), c.counters());
        } else if (event instanceof PacketEvent p) {
            return new PacketEvent(h, text(p.device()), p.direction(), p.reason(), p.opcode(), p.destQp(), p.psn(),
                    p.ackReq(), p.syndrome(), p.ipLength(), p.payloadLength(), text(p.peer()));
        } else if (event instanceof EndEvent e) {
            return new EndEvent(h, e.eventCount(), e.ending()); // the ending's detail is the recorder's own sentence
        }
        throw new IllegalArgumentException("unknown event kind " + event.kind());
    }

    public RedactionSummary summary() {
        return new RedactionSummary(originals.hostNames().size(), originals.ipv4().size(), originals.gids().size(),
                originals.interfaceIds().size(), originals.keys().size(), originals.addresses().size(),
                pseudonyms.addressSpans().spanCount(), textFields, scrubber.pathsShortened());
    }

    /** An async event's element is a handle for QP/CQ/SRQ/WQ events, a port number otherwise. */
    static boolean elementIsHandle(AsyncEvent a) {
        return switch (a.elementKind()) {
            case QP, CQ, SRQ, WQ -> true;
            case PORT, DEVICE -> false;
        };
    }

    private SessionInfo session(SessionInfo s) {
        Map<String, String> overrides = new LinkedHashMap<>();
        s.overrides().forEach((k, v) -> overrides.put(text(k), text(v)));
        List<Attrs> ports = new ArrayList<>();
        s.ports().forEach(p -> ports.add(attrs(p)));
        List<GidEntry> gids = new ArrayList<>();
        for (GidEntry g : s.gids()) {
            gids.add(new GidEntry(g.portNum(), g.index(), pseudonyms.gid(g.gid()), g.type()));
        }
        return new SessionInfo(s.toolVersion(), host(s.hostId()), text(s.commandLine()), text(s.verbsLib()),
                text(s.scenario()), overrides, attrs(s.device()), ports, gids);
    }

    /** A posted chain with each request's addresses and keys pseudonymised like the CALL's own. */
    private List<WorkRequest> wrs(List<WorkRequest> wrs) {
        if (wrs.isEmpty()) {
            return wrs;
        }
        List<WorkRequest> out = new ArrayList<>(wrs.size());
        for (WorkRequest wr : wrs) {
            List<WorkRequest.Sge> sges = new ArrayList<>(wr.sges().size());
            for (WorkRequest.Sge sge : wr.sges()) {
                sges.add(new WorkRequest.Sge(pseudonyms.address(sge.addr()), sge.length(), pseudonyms.key32(sge.lkey())));
            }
            out.add(new WorkRequest(attrs(wr.fields()), sges));
        }
        return out;
    }

    private EventHeader header(EventHeader h) {
        return new EventHeader(h.seq(), h.monoNanos(), h.wallNanos(), h.pid(), h.threadId(), text(h.threadName()));
    }

    private Attrs attrs(Attrs attrs) {
        if (attrs.isEmpty()) {
            return attrs;
        }
        Attrs.Builder b = Attrs.builder();
        for (int i = 0; i < attrs.size(); i++) {
            Attr attr = attrs.attr(i);
            long v = attrs.value(i);
            b.put(attr, switch (Sensitivity.of(attr)) {
                case ADDRESS -> pseudonyms.address(v);
                case KEY -> pseudonyms.key32(v);
                case GUID -> pseudonyms.interfaceId(v);
                default -> v;
            });
        }
        for (int i = 0; i < attrs.textSize(); i++) {
            Attr attr = attrs.textAttr(i);
            String t = attrs.text(i);
            b.put(attr, switch (Sensitivity.of(attr)) {
                case GID -> pseudonyms.gid(t);
                case TEXT -> text(t);
                default -> t;
            });
        }
        return b.build();
    }

    /** A number quoted in text: its pseudonym if it is one of the trace's keys, GUIDs or addresses. */
    private Long numberInText(long value, boolean exactOnly) {
        if (originals.keys().contains(value)) {
            return pseudonyms.key32(value);
        }
        if (originals.interfaceIds().contains(value)) {
            return pseudonyms.interfaceId(value);
        }
        if (originals.addresses().contains(value)) {
            return pseudonyms.address(value);
        }
        if (!exactOnly && pseudonyms.addressSpans().covers(value)) {
            return pseudonyms.address(value);
        }
        return null;
    }
}
