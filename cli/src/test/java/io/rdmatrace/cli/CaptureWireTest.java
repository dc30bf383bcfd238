package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.trace.model.CountersEvent;
import io.rdmatrace.trace.model.PacketEvent;
import io.rdmatrace.trace.model.TraceEvent;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * capture --wire on a PSN fault: hostB advertises its PSN 3 below the one it sends from, so hostA's
 * responder sees every request ahead of its expected PSN. Both traces carry softverbs' packets as
 * PACKET events that agree with the device counters, and analyze cites the NAK packets.
 */
class CaptureWireTest {
    private static final List<String> FAST = List.of("--wire", "--cq-timeout-ms", "1500", "--oob-timeout-ms", "15000");

    @Test
    void psnFault_packetEventsMatchTheCounters_andTheRuleCitesTheNaks(@TempDir Path out) throws Exception {
        CaptureHosts.Run r;
        try (CaptureHosts hosts = new CaptureHosts()) {
            r = hosts.capture(out, FAST, concat(FAST, List.of("--advertise-psn", "-3")));
        }
        System.out.println("---- hostA\n" + r.a().output() + "---- hostB\n" + r.b().output());
        List<TraceEvent> a = CaptureTraces.read(out, "hostA").assertComplete().events();
        List<TraceEvent> b = CaptureTraces.read(out, "hostB").assertComplete().events();
        List<PacketEvent> pa = packets(a);
        List<PacketEvent> pb = packets(b);
        assertThat(pa).isNotEmpty();
        assertThat(pb).isNotEmpty();

        // every packet a device counted is an event, and no more
        for (List<TraceEvent> events : List.of(a, b)) {
            Map<String, Long> delta = deltas(events);
            List<PacketEvent> p = packets(events);
            assertThat(count(p, PacketEvent.Direction.SENT, null)).isEqualTo(delta.get("sent_pkts"));
            assertThat(count(p, PacketEvent.Direction.RECEIVED, null)).isEqualTo(delta.get("rcvd_pkts"));
            assertThat(count(p, PacketEvent.Direction.DROPPED, "out_of_seq_request")).isEqualTo(delta.get("out_of_seq_request"));
            assertThat(count(p, PacketEvent.Direction.NOTED, "rcvd_seq_err")).isEqualTo(delta.get("rcvd_seq_err"));
        }
        // hostA's responder: requests ahead of its PSN, answered by one PSN sequence error NAK (class B)
        // for the PSN it expects; hostB received exactly the NAKs hostA sent
        assertThat(count(pa, PacketEvent.Direction.DROPPED, "out_of_seq_request")).isPositive();
        List<PacketEvent> naks = pa.stream().filter(p -> p.direction() == PacketEvent.Direction.SENT && p.syndrome() == 0x60).toList();
        assertThat(naks).hasSize(1);
        PacketEvent nak = naks.get(0);
        assertThat(nak.opcode()).as("RC_ACKNOWLEDGE").isEqualTo(0x11);
        int firstAhead = pa.stream().filter(p -> "out_of_seq_request".equals(p.reason())).findFirst().orElseThrow().psn();
        assertThat(nak.psn()).isEqualTo((firstAhead - 3) & 0xffffff);
        assertThat(pb).filteredOn(p -> p.direction() == PacketEvent.Direction.RECEIVED && p.syndrome() == 0x60)
                .extracting(PacketEvent::psn).containsExactly(nak.psn());
        // hostB's retransmissions of the first request: the same PSN sent again, at most once per retry
        long firstSends = pb.stream().filter(p -> p.direction() == PacketEvent.Direction.SENT && p.psn() == firstAhead).count();
        assertThat(firstSends).isGreaterThan(1).isLessThanOrEqualTo(1 + deltas(b).get("completer_retry_err"));
        // packet events are stamped when softverbs handled them: within the capture
        assertThat(pa).allMatch(p -> p.header().monoNanos() > a.get(0).header().monoNanos());

        MainTest.Run analyzed = MainTest.run("analyze", out.toString());
        assertThat(analyzed.out()).contains(String.format(
                "in the packet capture, hostA sent 1 NAK PSN sequence error for PSN 0x%06x (softverbs packet events host", nak.psn()));
    }

    @Test
    void pathMtuMismatch_ruleCitesThePacketsAboveThePeersMtu(@TempDir Path out) throws Exception {
        CaptureHosts.Run r;
        try (CaptureHosts hosts = new CaptureHosts("mtu=4200")) {
            // hostB sends one 1024-byte packet (valid at hostA's 2048), so only hostA's 2048-byte packet is refused:
            // with 4 KiB both ways, whichever side sent first was NAKed first and the other's packets met a QP in ERR
            r = hosts.capture(out, concat(FAST, List.of("--path-mtu", "2048", "--size", "2048")),
                    concat(FAST, List.of("--path-mtu", "1024", "--size", "1024")));
        }
        System.out.println("---- hostA\n" + r.a().output() + "---- hostB\n" + r.b().output());
        List<PacketEvent> pb = packets(CaptureTraces.read(out, "hostB").assertComplete().events());
        // hostB's responder got 2048-byte payloads at its 1024-byte path MTU and refused them
        List<PacketEvent> big = pb.stream().filter(p -> p.direction() == PacketEvent.Direction.RECEIVED
                && p.payloadLength() > 1024).toList();
        assertThat(big).isNotEmpty().allMatch(p -> p.payloadLength() == 2048 && p.ipLength() > 2048);
        assertThat(pb).anyMatch(p -> p.direction() == PacketEvent.Direction.SENT && p.syndrome() == 0x61);

        MainTest.Run analyzed = MainTest.run("analyze", out.toString());
        assertThat(analyzed.out()).containsPattern("in the packet capture, hostB received " + big.size() + " packets? with up"
                + " to 2048 payload bytes \\(\\d+-byte IPv4 datagrams\\) above its 1024-byte path MTU, answered with NAK"
                + " invalid request \\(softverbs packet events hostB#\\d+");
    }

    private static List<PacketEvent> packets(List<TraceEvent> events) {
        return events.stream().filter(e -> e instanceof PacketEvent).map(e -> (PacketEvent) e).toList();
    }

    private static long count(List<PacketEvent> packets, PacketEvent.Direction d, String reason) {
        return packets.stream().filter(p -> p.direction() == d && (reason == null || reason.equals(p.reason()))).count();
    }

    /** END - START of each counter of the capture's device. */
    private static Map<String, Long> deltas(List<TraceEvent> events) {
        List<CountersEvent> c = events.stream().filter(e -> e instanceof CountersEvent ce && !ce.device().equals("softverbs-wire"))
                .map(e -> (CountersEvent) e).toList();
        Map<String, Long> start = c.get(0).counters().stream().collect(Collectors.toMap(CountersEvent.Counter::name,
                CountersEvent.Counter::value));
        return c.get(c.size() - 1).counters().stream().collect(Collectors.toMap(CountersEvent.Counter::name,
                x -> x.value() - start.getOrDefault(x.name(), 0L)));
    }

    private static List<String> concat(List<String> x, List<String> y) {
        return java.util.stream.Stream.concat(x.stream(), y.stream()).toList();
    }
}
