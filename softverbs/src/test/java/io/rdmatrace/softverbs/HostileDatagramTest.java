package io.rdmatrace.softverbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Malformed, truncated, oversized and garbage datagrams blasted at both devices' UDP port 4791
 * while an RC pingpong runs: the devices drop them and the pingpong still completes.
 */
class HostileDatagramTest {
    private static final SoftverbsEnv.Hosts HOSTS = new SoftverbsEnv.Hosts("hosta", "127.0.0.21", "hostb", "127.0.0.22");
    private static final String ATTACKER_IP = "127.0.0.23";
    private static final int ROCE_PORT = 4791;
    private static final int ITERATIONS = 3000;
    private static final int MAX_DATAGRAMS = 24_000;
    /** At least this many must land while the pingpong is running, or the test proves nothing. */
    private static final int MIN_DATAGRAMS_DURING_RUN = 600;
    private static final long SEED = 0x5EED_4791L;

    @Test
    void rcPingpong_completes_whileHostileDatagramsArrive(@TempDir Path work) throws IOException {
        List<HostileDatagrams.Datagram> datagrams = new HostileDatagrams(SEED).make(MAX_DATAGRAMS);
        Map<HostileDatagrams.Kind, Integer> sentByKind = new EnumMap<>(HostileDatagrams.Kind.class);
        int sentWhileRunning = 0;
        Pingpong.Run run;
        try (Pingpong pingpong = Pingpong.start(Pingpong.Kind.RC, HOSTS, List.of(), ITERATIONS, work);
             DatagramSocket socket = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(ATTACKER_IP), 0))) {
            InetSocketAddress[] targets = {
                new InetSocketAddress(InetAddress.getByName(HOSTS.serverIp()), ROCE_PORT),
                new InetSocketAddress(InetAddress.getByName(HOSTS.clientIp()), ROCE_PORT)};
            // bounded: at most MAX_DATAGRAMS, and only while the client is still exchanging
            for (int i = 0; i < datagrams.size() && pingpong.clientAlive(); i++) {
                HostileDatagrams.Datagram d = datagrams.get(i);
                byte[] b = d.bytes();
                socket.send(new DatagramPacket(b, b.length, targets[i % 2]));
                sentByKind.merge(d.kind(), 1, Integer::sum);
                sentWhileRunning++;
                if (i % 64 == 63) {
                    Thread.onSpinWait();
                }
            }
            run = pingpong.await(Pingpong.RUN_DEADLINE);
        }

        Pingpong.assertCompleted(run, ITERATIONS);
        assertThat(sentWhileRunning).as("hostile datagrams sent while the pingpong ran; by kind: %s", sentByKind)
                .isGreaterThanOrEqualTo(MIN_DATAGRAMS_DURING_RUN);
        assertThat(sentByKind.keySet()).as("every kind was sent").containsAll(List.of(HostileDatagrams.Kind.values()));
    }
}
