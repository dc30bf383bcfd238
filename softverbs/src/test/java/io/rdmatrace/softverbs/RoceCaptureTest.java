package io.rdmatrace.softverbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packets softverbs puts on the wire during an unmodified pingpong are RoCEv2 as tshark
 * decodes it: expected opcodes, QPNs and PSNs, no malformed packets, and a correct ICRC (checked
 * here, since tshark 4.0 does not). Uses its own loopback pair so the capture sees only this run.
 */
class RoceCaptureTest {
    private static final SoftverbsEnv.Hosts HOSTS = new SoftverbsEnv.Hosts("capa", "127.0.0.11", "capb", "127.0.0.12");
    private static final int ITERATIONS = 5;
    private static final int PATH_MTU = 1024;           // rc_pingpong's default -m
    private static final int PSN_SPACE = 1 << 24;
    /** Both pingpongs fill their buffers with 0x7b before exchanging them. */
    private static final byte PINGPONG_FILL = 0x7b;
    private static final int RC_SEND_FIRST = 0x00;
    private static final int RC_SEND_MIDDLE = 0x01;
    private static final int RC_SEND_LAST = 0x02;
    private static final int RC_ACKNOWLEDGE = 0x11;
    private static final int UD_SEND_ONLY = 0x64;
    private static final long UD_PINGPONG_QKEY = 0x11111111L;
    private static final int BTH_LEN = 12;
    private static final int DETH_LEN = 8;

    private record Captured(Pingpong.Run run, List<RoceCapture.Packet> packets, List<PcapFile.Datagram> datagrams) {
    }

    private static Captured captureRun(Pingpong.Kind kind, List<String> options, Path work) throws IOException {
        try (RoceCapture capture = RoceCapture.start(work, HOSTS.serverIp())) {
            Pingpong.Run run = Pingpong.run(kind, HOSTS, options, ITERATIONS, work);
            Path pcap = capture.stop();
            Pingpong.assertCompleted(run, ITERATIONS);
            return new Captured(run, capture.decode(), RoceCapture.roceDatagrams(pcap));
        }
    }

    @Test
    void rcPingpong_largerThanPathMtu_decodesAsRoceWithExpectedHeaders(@TempDir Path work) throws IOException {
        int size = 8192;
        int packetsPerMessage = size / PATH_MTU;
        Captured c = captureRun(Pingpong.Kind.RC, List.of("-s", Integer.toString(size)), work);
        Pingpong.Run run = c.run();
        assertWellFormed(c);

        String server = HOSTS.serverIp();
        String client = HOSTS.clientIp();
        Predicate<RoceCapture.Packet> isSend = p -> p.opcode() <= RC_SEND_LAST;
        List<RoceCapture.Packet> clientSends = filter(c.packets(), p -> p.src().equals(client) && isSend.test(p));
        List<RoceCapture.Packet> serverSends = filter(c.packets(), p -> p.src().equals(server) && isSend.test(p));
        List<RoceCapture.Packet> acksToClient = filter(c.packets(), p -> p.src().equals(server) && p.opcode() == RC_ACKNOWLEDGE);
        List<RoceCapture.Packet> acksToServer = filter(c.packets(), p -> p.src().equals(client) && p.opcode() == RC_ACKNOWLEDGE);

        assertThat(c.packets()).extracting(RoceCapture.Packet::opcode)
                .containsOnly(RC_SEND_FIRST, RC_SEND_MIDDLE, RC_SEND_LAST, RC_ACKNOWLEDGE)
                .contains(RC_SEND_FIRST, RC_SEND_MIDDLE, RC_SEND_LAST, RC_ACKNOWLEDGE);
        // requests go to the peer's QP, ACKs back to the requester's QP
        assertThat(clientSends).extracting(RoceCapture.Packet::destQp).containsOnly(run.serverLocal().qpn());
        assertThat(serverSends).extracting(RoceCapture.Packet::destQp).containsOnly(run.clientLocal().qpn());
        assertThat(acksToClient).extracting(RoceCapture.Packet::destQp).containsOnly(run.clientLocal().qpn());
        assertThat(acksToServer).extracting(RoceCapture.Packet::destQp).containsOnly(run.serverLocal().qpn());
        // each side's request PSNs start at the PSN it announced and run on without gaps
        Set<Integer> clientPsns = expectedPsns(run.clientLocal().psn(), ITERATIONS * packetsPerMessage);
        Set<Integer> serverPsns = expectedPsns(run.serverLocal().psn(), ITERATIONS * packetsPerMessage);
        assertThat(psns(clientSends)).isEqualTo(clientPsns);
        assertThat(psns(serverSends)).isEqualTo(serverPsns);
        // ACKs acknowledge PSNs that were sent
        assertThat(psns(acksToClient)).isNotEmpty().isSubsetOf(clientPsns);
        assertThat(psns(acksToServer)).isNotEmpty().isSubsetOf(serverPsns);
        // the last packet of every message asks for an ACK
        assertThat(filter(c.packets(), p -> p.opcode() == RC_SEND_LAST)).allMatch(RoceCapture.Packet::ackReq);
        // segmentation: FIRST and MIDDLE carry exactly the path MTU, LAST the rest; bytes are the app's
        for (PcapFile.Datagram d : c.datagrams()) {
            int opcode = d.payload()[0] & 0xFF;
            if (opcode <= RC_SEND_LAST) {
                assertThat(sendPayload(d, BTH_LEN)).as("frame %d", d.frame())
                        .hasSize(PATH_MTU).containsOnly(PINGPONG_FILL);
            }
        }
    }

    @Test
    void udPingpong_decodesAsRoceWithDeth(@TempDir Path work) throws IOException {
        int size = 1024;      // ud_pingpong's default, = the active MTU of a 1500-byte link
        Captured c = captureRun(Pingpong.Kind.UD, List.of(), work);
        Pingpong.Run run = c.run();
        assertWellFormed(c);

        List<RoceCapture.Packet> fromClient = filter(c.packets(), p -> p.src().equals(HOSTS.clientIp()));
        List<RoceCapture.Packet> fromServer = filter(c.packets(), p -> p.src().equals(HOSTS.serverIp()));
        assertThat(c.packets()).extracting(RoceCapture.Packet::opcode).containsOnly(UD_SEND_ONLY);
        assertThat(c.packets()).extracting(RoceCapture.Packet::qkey).containsOnly(UD_PINGPONG_QKEY);
        assertThat(fromClient).extracting(RoceCapture.Packet::destQp).containsOnly(run.serverLocal().qpn());
        assertThat(fromClient).extracting(RoceCapture.Packet::srcQp).containsOnly(run.clientLocal().qpn());
        assertThat(fromServer).extracting(RoceCapture.Packet::destQp).containsOnly(run.clientLocal().qpn());
        assertThat(fromServer).extracting(RoceCapture.Packet::srcQp).containsOnly(run.serverLocal().qpn());
        assertThat(psns(fromClient)).isEqualTo(expectedPsns(run.clientLocal().psn(), ITERATIONS));
        assertThat(psns(fromServer)).isEqualTo(expectedPsns(run.serverLocal().psn(), ITERATIONS));
        for (PcapFile.Datagram d : c.datagrams()) {
            assertThat(sendPayload(d, BTH_LEN + DETH_LEN)).as("frame %d", d.frame())
                    .hasSize(size).containsOnly(PINGPONG_FILL);
        }
    }

    /** tshark found RoCE in every packet and nothing malformed; every ICRC is right. */
    private static void assertWellFormed(Captured c) {
        assertThat(c.packets()).as("captured packets").isNotEmpty();
        assertThat(c.datagrams()).hasSameSizeAs(c.packets());
        for (RoceCapture.Packet p : c.packets()) {
            assertThat(p.protocols()).as("frame %d", p.frame()).contains(":udp:infiniband");
            assertThat(p.dstPort()).as("frame %d", p.frame()).isEqualTo(4791);
            assertThat(p.malformed()).as("frame %d malformed", p.frame()).isFalse();
            assertThat(p.maxExpertSeverity()).as("frame %d expert severity", p.frame())
                    .isLessThan(RoceCapture.EXPERT_ERROR);
            assertThat(p.opcode()).as("frame %d opcode", p.frame()).isNotNegative();
        }
        for (PcapFile.Datagram d : c.datagrams()) {
            assertThat(d.payload().length % 4).as("frame %d length", d.frame()).isZero();
            assertThat(RoceIcrc.carried(d)).as("frame %d ICRC", d.frame()).isEqualTo(RoceIcrc.expected(d));
            // the IP header the ICRC covers: DF set, so Linux sends IP ID 0 (sv_icrc.c relies on it)
            assertThat(d.dontFragment()).as("frame %d DF", d.frame()).isTrue();
            assertThat(d.ipId()).as("frame %d IP ID", d.frame()).isZero();
        }
    }

    /** The payload of a SEND datagram: after the headers, before pad and ICRC. */
    private static byte[] sendPayload(PcapFile.Datagram d, int headerLen) {
        byte[] p = d.payload();
        int pad = (p[1] >> 4) & 0x3;
        return Arrays.copyOfRange(p, headerLen, p.length - pad - 4);
    }

    private static List<RoceCapture.Packet> filter(List<RoceCapture.Packet> packets, Predicate<RoceCapture.Packet> p) {
        return packets.stream().filter(p).collect(Collectors.toList());
    }

    private static Set<Integer> psns(List<RoceCapture.Packet> packets) {
        return packets.stream().map(RoceCapture.Packet::psn).collect(Collectors.toCollection(TreeSet::new));
    }

    private static Set<Integer> expectedPsns(int first, int count) {
        Set<Integer> s = new TreeSet<>();
        for (int i = 0; i < count; i++) {
            s.add((first + i) % PSN_SPACE);
        }
        return s;
    }
}
