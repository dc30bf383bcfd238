package io.rdmatrace.analyzer.export;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.rdmatrace.analyzer.diff.TraceRewriter;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.GidEntry;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceSet;
import io.rdmatrace.trace.synth.SyntheticTrace;

/**
 * A synthetic two-host capture (with the PSN fault, so rules find something) whose sensitive
 * values are distinctive enough that finding one in a bundle's bytes cannot be chance: routable
 * IPv4 addresses instead of loopback, 32-bit keys with the top bit set, MAC-derived GUIDs with
 * a link-local GID built from them, a peer given by host name, and free text quoting them.
 */
final class DistinctiveCapture {
    static final String HOST_A = "nodealpha";
    static final String HOST_B = "nodebravo";
    static final String PEER_NAME = "nodealpha.lab.example";
    static final String IP_A = "10.213.57.201";
    static final String IP_B = "10.213.57.202";

    private DistinctiveCapture() {
    }

    static TraceSet write(Path work, SyntheticTrace.Fault fault) throws Exception {
        Path plain = work.resolve("plain");
        SyntheticTrace.write(new SyntheticTrace.Spec(plain, HOST_A, HOST_B, 2, 60, 7, fault));
        return TraceRewriter.rewrite(plain, work.resolve("capture"), DistinctiveCapture::session,
                DistinctiveCapture::event);
    }

    /** A distinctive 32-bit key for a synthetic one (the same on both hosts: the rkey crosses over). */
    static long key(long v) {
        return (v * 0x9E3779B1L + 0x5A5A5A5AL) & 0xffff_ffffL | 0x8000_0000L;
    }

    /** The MAC-derived EUI-64 of a host: 02:1b:ad:c0:ff:e0 + index with ff:fe in the middle. */
    static long guid(String host) {
        long mac = 0x021BADC0FFE0L + (host.equals(HOST_A) ? 1 : 2);
        return (mac >>> 24) << 40 | 0xFFFEL << 24 | mac & 0xFFFFFFL;
    }

    static String ip(String text) {
        return text.replace("127.0.0.1", IP_A).replace("127.0.0.2", IP_B);
    }

    private static SessionInfo session(SessionInfo s) {
        List<GidEntry> gids = new ArrayList<>();
        for (GidEntry g : s.gids()) {
            String gid = g.gid().startsWith("fe80") ? "fe80::" + Long.toHexString(guid(s.hostId()) >>> 48) + ":"
                    + Long.toHexString(guid(s.hostId()) >>> 32 & 0xffff) + ":" + Long.toHexString(guid(s.hostId()) >>> 16 & 0xffff)
                    + ":" + Long.toHexString(guid(s.hostId()) & 0xffff) : ip(g.gid());
            gids.add(new GidEntry(g.portNum(), g.index(), gid, g.type()));
        }
        Map<String, String> overrides = new LinkedHashMap<>(s.overrides());
        String commandLine = ip(s.commandLine()) + " --out /home/alice/captures/" + s.hostId();
        if (s.hostId().equals(HOST_B)) {
            overrides.put("--connect", PEER_NAME + ":18515");
            commandLine = commandLine.replace(IP_A + ":18515", PEER_NAME + ":18515");
        }
        Attrs device = guids(s.device(), s.hostId());
        return new SessionInfo(s.toolVersion(), s.hostId(), commandLine, "/opt/lab/" + s.hostId() + "/libibverbs.so.1",
                s.scenario(), overrides, device, s.ports(), gids);
    }

    private static TraceEvent event(String host, TraceEvent e) {
        if (e instanceof CallEvent c) {
            Attrs out = c.verb() == io.rdmatrace.trace.model.Verb.IBV_QUERY_DEVICE ? guids(c.out(), host) : c.out();
            return new CallEvent(c.header(), c.verb(), c.handle(), c.ret(), c.errno(), c.durationNanos(), values(c.in()),
                    values(out));
        }
        if (e instanceof OobEvent o) {
            String peer = ip(o.peer());
            if (host.equals(HOST_B)) {
                peer = peer.replace(IP_A, PEER_NAME); // B reached A by name
            }
            return new OobEvent(o.header(), o.direction(), peer, o.oobKind(), values(o.attrs()));
        }
        if (e instanceof MarkEvent m && m.verdict() == MarkEvent.Verdict.INFO && m.step().equals("TC03")) {
            return new MarkEvent(m.header(), m.step(), m.verdict(), m.text() + " with " + (host.equals(HOST_A) ? IP_B : IP_A)
                    + " via " + (host.equals(HOST_A) ? HOST_B : PEER_NAME) + ", node GUID " + guidText(guid(host)));
        }
        return e;
    }

    private static Attrs values(Attrs a) {
        if (a.isEmpty()) {
            return a;
        }
        Attrs.Builder b = a.toBuilder();
        for (Attr k : List.of(Attr.LKEY, Attr.RKEY)) {
            if (a.has(k)) {
                b.put(k, key(a.get(k, 0)));
            }
        }
        for (Attr g : List.of(Attr.GID, Attr.DGID)) {
            if (a.has(g)) {
                b.put(g, ip(a.text(g)));
            }
        }
        if (a.has(Attr.MESSAGE)) {
            b.put(Attr.MESSAGE, ip(a.text(Attr.MESSAGE)));
        }
        return b.build();
    }

    private static Attrs guids(Attrs a, String host) {
        Attrs.Builder b = a.toBuilder();
        if (a.has(Attr.NODE_GUID)) {
            b.put(Attr.NODE_GUID, guid(host));
        }
        if (a.has(Attr.SYS_IMAGE_GUID)) {
            b.put(Attr.SYS_IMAGE_GUID, guid(host));
        }
        return b.build();
    }

    static String guidText(long v) {
        String h = String.format("%016x", v);
        return h.substring(0, 4) + ':' + h.substring(4, 8) + ':' + h.substring(8, 12) + ':' + h.substring(12);
    }
}
