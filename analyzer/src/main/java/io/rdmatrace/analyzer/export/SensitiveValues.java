package io.rdmatrace.analyzer.export;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.rdmatrace.trace.model.AsyncEvent;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.AttrMeaning;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.CompletionEvent;
import io.rdmatrace.trace.model.CountersEvent;
import io.rdmatrace.trace.model.GidEntry;
import io.rdmatrace.trace.names.GidText;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.model.SessionEvent;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.model.WorkRequest;

/**
 * Pass 1 of the redaction: every sensitive value the trace holds, so that pseudonyms can avoid
 * all originals, address regions can be merged before any is mapped, and host names seen
 * anywhere are replaced everywhere.
 */
final class SensitiveValues implements TextScrubber.Found {
    /** Options whose value names the peer or this host. */
    private static final List<String> HOST_OPTIONS = List.of("connect", "peer", "host", "bind", "server", "listen", "addr");

    private static final int MAX_REMEMBERED_TEXTS = 100_000;

    private final Set<String> scannedTexts = new HashSet<>();
    private final Set<String> hostNames = new LinkedHashSet<>();
    private final Set<Integer> ipv4 = new LinkedHashSet<>();
    private final Set<String> gids = new LinkedHashSet<>();
    private final Set<Long> interfaceIds = new LinkedHashSet<>();
    private final Set<Long> gidPrefixes = new LinkedHashSet<>();
    private final Set<Long> keys = new LinkedHashSet<>();
    private final Set<Long> addresses = new LinkedHashSet<>();
    private final Set<Long> handles = new LinkedHashSet<>();
    private final List<long[]> regions = new ArrayList<>();

    void add(TraceEvent event) {
        text(event.header().threadName());
        if (event instanceof SessionEvent session) {
            session(session.info());
        } else if (event instanceof CallEvent call) {
            handle(call.handle());
            attrs(call.in());
            attrs(call.out());
            for (WorkRequest wr : call.wrs()) {
                attrs(wr.fields());
                for (WorkRequest.Sge sge : wr.sges()) {
                    attrs(Attrs.builder().put(Attr.ADDR, sge.addr()).put(Attr.LENGTH, sge.length())
                            .put(Attr.LKEY, sge.lkey()).build());
                }
            }
        } else if (event instanceof CompletionEvent completion) {
            handle(completion.cq());
        } else if (event instanceof AsyncEvent async) {
            if (Redactor.elementIsHandle(async)) {
                handle(async.element());
            }
        } else if (event instanceof OobEvent oob) {
            text(oob.peer());
            hostName(TextScrubber.hostOf(oob.peer()));
            attrs(oob.attrs());
        } else if (event instanceof MarkEvent mark) {
            text(mark.text());
        } else if (event instanceof CountersEvent counters) {
            text(counters.device());
        }
    }

    private void session(SessionInfo info) {
        hostName(info.hostId());
        text(info.commandLine());
        text(info.verbsLib());
        text(info.scenario());
        for (Map.Entry<String, String> o : info.overrides().entrySet()) {
            text(o.getKey());
            text(o.getValue());
            String name = o.getKey().toLowerCase(Locale.ROOT);
            if (HOST_OPTIONS.stream().anyMatch(name::contains)) {
                hostName(TextScrubber.hostOf(o.getValue()));
            }
        }
        attrs(info.device());
        info.ports().forEach(this::attrs);
        for (GidEntry gid : info.gids()) {
            gid(gid.gid());
        }
    }

    private void attrs(Attrs attrs) {
        for (int i = 0; i < attrs.size(); i++) {
            Attr attr = attrs.attr(i);
            long v = attrs.value(i);
            switch (Sensitivity.of(attr)) {
                case ADDRESS -> {
                    if (AddressSpans.isAddress(v)) {
                        addresses.add(v);
                        boolean buffer = attr.meaning() == AttrMeaning.ADDRESS;
                        regions.add(new long[] {v, buffer ? attrs.get(Attr.LENGTH, 0) : 0});
                        if (!buffer) {
                            handles.add(v);
                        }
                    }
                }
                case KEY -> {
                    if ((v & 0xffff_ffffL) != 0) {
                        keys.add(v & 0xffff_ffffL);
                    }
                }
                case GUID -> guid(v);
                default -> {
                }
            }
        }
        for (int i = 0; i < attrs.textSize(); i++) {
            Sensitivity s = Sensitivity.of(attrs.textAttr(i));
            if (s == Sensitivity.GID) {
                gid(attrs.text(i));
            } else if (s == Sensitivity.TEXT) {
                text(attrs.text(i));
            }
        }
    }

    private void handle(long value) {
        if (AddressSpans.isAddress(value)) {
            addresses.add(value);
            handles.add(value);
            regions.add(new long[] {value, 0});
        }
    }

    void hostName(String name) {
        if (name != null && !name.isBlank()) {
            hostNames.add(name);
        }
    }

    private void text(String text) {
        // thread names and summaries repeat on every event: scan each distinct text once
        if (text != null && !text.isEmpty() && (scannedTexts.size() > MAX_REMEMBERED_TEXTS || scannedTexts.add(text))) {
            TextScrubber.scan(text, this);
        }
    }

    @Override
    public void ipv4(int address) {
        if (address != 0 && address != -1) {
            ipv4.add(address);
        }
    }

    @Override
    public void gid(String text) {
        byte[] b = GidText.parse(text);
        if (b == null || GidText.isZero(b)) {
            return;
        }
        gids.add(text);
        if (GidText.isIpv4Mapped(b)) {
            ipv4(ByteBuffer.wrap(b, 12, 4).getInt());
            return;
        }
        if (!GidText.isLinkLocal(b)) {
            gidPrefixes.add(GidText.half(b, 0));
        }
        guid(GidText.half(b, 8));
    }

    @Override
    public void guid(long value) {
        if (value != 0) {
            interfaceIds.add(value);
        }
    }

    @Override
    public void mac(long value) {
        guid((value >>> 24) << 40 | 0xfffeL << 24 | value & 0xff_ffffL);
    }

    Set<String> hostNames() {
        return hostNames;
    }

    Set<Integer> ipv4() {
        return ipv4;
    }

    Set<String> gids() {
        return gids;
    }

    Set<Long> interfaceIds() {
        return interfaceIds;
    }

    Set<Long> keys() {
        return keys;
    }

    Set<Long> addresses() {
        return addresses;
    }

    Set<Long> handles() {
        return handles;
    }

    List<long[]> regions() {
        return regions;
    }

    /** Every original number: a pseudonym must never equal one (it would look like a leak). */
    Set<Long> allNumbers() {
        Set<Long> all = new HashSet<>(keys);
        all.addAll(interfaceIds);
        all.addAll(gidPrefixes);
        all.addAll(addresses);
        for (int a : ipv4) {
            all.add(a & 0xffff_ffffL);
        }
        return all;
    }
}
