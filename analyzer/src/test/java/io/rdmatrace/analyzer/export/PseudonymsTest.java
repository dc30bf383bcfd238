package io.rdmatrace.analyzer.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.EventHeader;
import io.rdmatrace.trace.model.FormatVersion;
import io.rdmatrace.trace.model.GidEntry;
import io.rdmatrace.trace.names.GidText;
import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.model.SessionEvent;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.model.Verb;

/** The structure redaction keeps: GID kinds, /24s, EUI-64s, offsets in a buffer, text around values. */
class PseudonymsTest {
    private static final byte[] KEY = new byte[32];
    private static final EventHeader H = new EventHeader(1, 0, 0, 0, 0, "main");
    private static final long MR = 0x7f3a_1c2d_5000L;
    private static final long GUID = 0x021b_adff_fec0_ffe1L;

    /** Host A: an MR, an SGE inside it, a link-local and an IPv4-mapped GID, a peer by name. */
    private static List<TraceEvent> hostA() {
        SessionInfo info = new SessionInfo("t", "nodealpha", "rdmatrace capture --listen 10.1.2.3:7471 --out /home/al/x",
                "", "", Map.of(), Attrs.builder().put(Attr.NODE_GUID, GUID).build(), List.of(),
                List.of(new GidEntry(1, 0, "fe80::21b:adff:fec0:ffe1", 1), new GidEntry(1, 1, "::ffff:10.1.2.3", 2),
                        new GidEntry(1, 2, "2001:db8:1:2:21b:adff:fec0:ffe1", 2), new GidEntry(1, 3, "::", 0)));
        return List.of(new SessionEvent(new EventHeader(0, 0, 0, 0, 0, "main"), FormatVersion.CURRENT, info),
                new CallEvent(H, Verb.IBV_REG_MR, 0x5555_0000_1000L, 0, 0, 100,
                        Attrs.builder().put(Attr.ADDR, MR).put(Attr.LENGTH, 8192).build(),
                        Attrs.builder().put(Attr.LKEY, 0x1234_5678L).put(Attr.RKEY, 0x1234_5678L).build()),
                new CallEvent(H, Verb.IBV_POST_SEND, 0x5555_0000_2000L, 0, 0, 100,
                        Attrs.builder().put(Attr.ADDR, MR + 4096 + 8).put(Attr.LENGTH, 64)
                                .put(Attr.REMOTE_ADDR, 0x7f99_0000_0000L + 16).put(Attr.RKEY, 0x0bad_cafeL).build(),
                        Attrs.EMPTY),
                new OobEvent(H, OobEvent.Direction.RECEIVED, "server7.lab:7471", OobEvent.Kind.PARAMS,
                        Attrs.builder().put(Attr.ADDR, 0x7f99_0000_0000L).put(Attr.LENGTH, 4096).put(Attr.RKEY, 0x0bad_cafeL)
                                .put(Attr.GID, "::ffff:10.1.2.4").put(Attr.MESSAGE, "peer 10.1.2.4 rkey 0xbadcafe").build()));
    }

    private static Redactor redactor() {
        return Redactor.plan(List.of(hostA()), List.of(), KEY);
    }

    @Test
    void gids_keepTheirKind_andAgreeWithGuidsAndIpv4() {
        Redactor r = redactor();
        SessionEvent s = (SessionEvent) r.redact(hostA().get(0));
        List<GidEntry> gids = s.gids();

        byte[] linkLocal = GidText.parse(gids.get(0).gid());
        assertThat(GidText.isLinkLocal(linkLocal)).isTrue();
        assertThat(GidText.half(linkLocal, 0)).isEqualTo(0xfe80_0000_0000_0000L);
        long interfaceId = GidText.half(linkLocal, 8);
        assertThat(interfaceId).isNotEqualTo(GUID).isEqualTo(s.device().get(Attr.NODE_GUID, 0));
        assertThat(interfaceId >>> 24 & 0xffff).as("still MAC-derived (ff:fe)").isEqualTo(0xfffe);
        assertThat(interfaceId >>> 56 & 0x03).as("U/L and I/G bits kept").isEqualTo(GUID >>> 56 & 0x03);

        assertThat(gids.get(1).gid()).startsWith("::ffff:198.1");
        byte[] mapped = GidText.parse(gids.get(1).gid());
        assertThat(GidText.isIpv4Mapped(mapped)).isTrue();
        assertThat(s.commandLine()).contains("--listen " + Ipv4.format(ByteBuffer.wrap(mapped, 12, 4).getInt()) + ":7471");

        byte[] global = GidText.parse(gids.get(2).gid());
        assertThat(global[0] & 0xff).isEqualTo(0x20);
        assertThat(global[1] & 0xff).isEqualTo(0x01);
        assertThat(GidText.half(global, 8)).as("same interface id, same pseudonym").isEqualTo(interfaceId);
        assertThat(gids.get(3).gid()).isEqualTo("::");
    }

    @Test
    void ipv4_sameSlash24StaysInOneSlash24_inTheBenchmarkRange() {
        Pseudonyms p = new Pseudonyms(KEY, new SensitiveValues());
        int a = p.ipv4(0x0A010203);
        int b = p.ipv4(0x0A010204);
        int c = p.ipv4(0x0A020203);
        assertThat(a >>> 8).isEqualTo(b >>> 8).isNotEqualTo(c >>> 8);
        assertThat(a).isNotEqualTo(b);
        for (int v : List.of(a, b, c)) {
            assertThat(v >>> 17).as(Ipv4.format(v)).isEqualTo(0xC612 >>> 1); // 198.18.0.0/15
        }
        assertThat(p.ipv4(0x0A010203)).isEqualTo(a);
    }

    @Test
    void addresses_keepOffsetsInsideABuffer_andAlignment() {
        Redactor r = redactor();
        List<TraceEvent> out = r.redact(hostA());
        CallEvent reg = (CallEvent) out.get(1);
        CallEvent post = (CallEvent) out.get(2);
        OobEvent params = (OobEvent) out.get(3);
        long mr = reg.in().get(Attr.ADDR, 0);
        long sge = post.in().get(Attr.ADDR, 0);
        long remote = post.in().get(Attr.REMOTE_ADDR, 0);
        long advertised = params.attrs().get(Attr.ADDR, 0);

        assertThat(mr).isNotEqualTo(MR);
        assertThat(sge - mr).isEqualTo(4096 + 8);
        assertThat(mr & 0xfff).isEqualTo(MR & 0xfff);
        assertThat(remote - advertised).as("remote address at the same offset of the peer's buffer").isEqualTo(16);
        assertThat(reg.out().get(Attr.LKEY, 0)).isEqualTo(reg.out().get(Attr.RKEY, 0)).isNotEqualTo(0x1234_5678L);
        assertThat(post.in().get(Attr.RKEY, 0)).isEqualTo(params.attrs().get(Attr.RKEY, 0)).isNotEqualTo(0x0bad_cafeL);
        assertThat(reg.handle()).isNotEqualTo(0x5555_0000_1000L);
    }

    @Test
    void text_valuesAndNamesReplaced_restKept() {
        Redactor r = redactor();
        List<TraceEvent> out = r.redact(hostA());
        OobEvent params = (OobEvent) out.get(3);
        SessionEvent s = (SessionEvent) out.get(0);
        String key = Long.toHexString(params.attrs().get(Attr.RKEY, 0));

        assertThat(params.peer()).matches("host-[0-9a-f]{6}:7471");
        assertThat(params.attrs().text(Attr.MESSAGE)).matches("peer 198\\.1[89]\\.\\d+\\.\\d+ rkey 0x" + key);
        assertThat(s.commandLine()).startsWith("rdmatrace capture --listen 198.1").endsWith("--out …/x");
        assertThat(s.hostId()).matches("host-[0-9a-f]{6}");
        assertThat(r.hostMap()).containsOnlyKeys("nodealpha", "server7.lab");
    }

    @Test
    void ipv6Text_roundTrips_andRejectsNonAddresses() {
        for (String gid : List.of("::", "::1", "fe80::1", "fe80::21b:adff:fec0:ffe1", "::ffff:127.0.0.1",
                "2001:db8::1:0:0:1", "1:2:3:4:5:6:7:8", "fe80::1:0:0:0")) {
            assertThat(GidText.format(GidText.parse(gid))).isEqualTo(gid);
        }
        for (String bad : List.of("10:57:45", "1::2::3", "fe80::12345", "::ffff:1.2.3.256", "hostA:7471", "")) {
            assertThat(GidText.parse(bad)).as(bad).isNull();
        }
    }

    @Test
    void pseudonyms_areDistinct_andNeverAnOriginal() {
        SensitiveValues originals = new SensitiveValues();
        hostA().forEach(originals::add);
        Pseudonyms p = new Pseudonyms(KEY, originals);
        Set<Long> seen = new HashSet<>();
        for (long k = 1; k <= 2000; k++) {
            long pk = p.key32(k);
            assertThat(seen.add(pk)).as("key " + k).isTrue();
            assertThat(originals.allNumbers()).doesNotContain(pk);
        }
        assertThat(p.key32(0)).isZero();
        assertThat(p.address(0x1000)).as("below mmap_min_addr: not an address").isEqualTo(0x1000);
    }
}
