package io.rdmatrace.capture.oob;

import static io.rdmatrace.capture.oob.OobTestPeers.at;
import static io.rdmatrace.capture.oob.OobTestPeers.bindLoopback;
import static io.rdmatrace.capture.oob.OobTestPeers.params;
import static io.rdmatrace.capture.oob.OobTestPeers.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Two real agents' OOB sides on loopback: the happy path, authentication and the protocol order. */
class OobChannelTest {
    private static final Duration GUARD = Duration.ofSeconds(60);   // a deadlock, not a slow machine (1,000 QPs at load 20+ took > 10 s)
    private final OobTestPeers peers = new OobTestPeers();

    @AfterEach
    void tearDown() {
        peers.close();
    }

    /** Records what a channel sent and received, as the recorder will. */
    static final class Log implements OobObserver {
        final List<String> events = new CopyOnWriteArrayList<>();

        @Override
        public void sent(String remote, OobMessage m) {
            events.add("SENT " + m.kindName());
        }

        @Override
        public void received(String remote, OobMessage m) {
            events.add("RECEIVED " + m.kindName());
        }

        @Override
        public void rejected(String remote, OobException why) {
            events.add("REJECTED " + why.kind());
        }
    }

    private void runExchange(String listenToken, String connectToken, int qps) throws Exception {
        try (OobServer server = bindLoopback()) {
            Log listenLog = new Log();
            CompletableFuture<OobChannel> l = peers.listen(server, settings("hostA", qps, listenToken, 5000, 5000), listenLog);
            Log connectLog = new Log();
            try (OobChannel c = OobChannel.connect(at(server.port()), settings("hostB", qps, connectToken, 5000, 5000), connectLog);
                 OobChannel a = l.get(5, TimeUnit.SECONDS)) {
                assertThat(a.peerHello().hostId()).isEqualTo("hostB");
                assertThat(c.peerHello().hostId()).isEqualTo("hostA");
                assertThat(a.authenticated()).isEqualTo(listenToken != null);
                List<QpParams> mineA = java.util.stream.IntStream.range(0, qps).mapToObj(i -> params(i, 0x11 + i, 0x100 + i)).toList();
                List<QpParams> mineB = java.util.stream.IntStream.range(0, qps).mapToObj(i -> params(i, 0x40 + i, 0xabcdef - i)).toList();
                CompletableFuture<List<QpParams>> gotByA = peers.async(() -> a.exchangeParams(mineA));
                List<QpParams> gotByB = c.exchangeParams(mineB);
                assertThat(gotByB).isEqualTo(mineA);
                assertThat(gotByA.get(5, TimeUnit.SECONDS)).isEqualTo(mineB);

                CompletableFuture<Void> barrierA = peers.async(() -> {
                    a.barrier("rts");
                    return null;
                });
                c.barrier("rts");
                barrierA.get(5, TimeUnit.SECONDS);

                CompletableFuture<OobMessage.Done> doneA = peers.async(() -> a.exchangeDone(true, "TC04 PASS"));
                OobMessage.Done doneB = c.exchangeDone(false, "TC04 FAIL: pattern mismatch");
                assertThat(doneB).isEqualTo(new OobMessage.Done(true, "TC04 PASS"));
                assertThat(doneA.get(5, TimeUnit.SECONDS)).isEqualTo(new OobMessage.Done(false, "TC04 FAIL: pattern mismatch"));
            }
            // the connector sends its PARAMS first, the listener replies after reading all of them
            assertThat(connectLog.events).startsWith("SENT HELLO", "RECEIVED HELLO");
            assertThat(connectLog.events).containsSubsequence("SENT PARAMS", "RECEIVED PARAMS", "SENT BARRIER", "RECEIVED BARRIER",
                    "SENT BARRIER_ACK", "RECEIVED BARRIER_ACK", "SENT DONE", "RECEIVED DONE");
            assertThat(connectLog.events.stream().filter("SENT PARAMS"::equals).count()).isEqualTo(qps);
            assertThat(listenLog.events.stream().filter("RECEIVED PARAMS"::equals).count()).isEqualTo(qps);
            if (listenToken != null) {
                assertThat(listenLog.events).contains("SENT AUTH", "RECEIVED AUTH");
            }
        }
    }

    @Test
    void exchange_withoutToken_carriesEveryField() {
        assertTimeoutPreemptively(GUARD, () -> runExchange(null, null, 1));
    }

    @Test
    void exchange_withToken_authenticatesEveryMessage() {
        assertTimeoutPreemptively(GUARD, () -> runExchange("s3cret", "s3cret", 3));
    }

    @Test
    void exchange_manyQps_doesNotDeadlock() {
        assertTimeoutPreemptively(GUARD, () -> runExchange("t", "t", 1000));
    }

    @Test
    void connect_peerStartsLater_retriesUntilItListens() {
        assertTimeoutPreemptively(GUARD, () -> {
            int port;
            try (OobServer probe = bindLoopback()) {
                port = probe.port();
            }
            CompletableFuture<OobChannel> late = peers.async(() -> {
                Thread.sleep(600);
                try (OobServer server = OobServer.bind(at(port))) {
                    return server.accept(settings("hostA", 1, null, 3000, 3000), OobObserver.NONE);
                }
            });
            try (OobChannel c = OobChannel.connect(at(port), settings("hostB", 1, null, 4000, 3000), OobObserver.NONE);
                 OobChannel a = late.get(5, TimeUnit.SECONDS)) {
                assertThat(c.peerHello().hostId()).isEqualTo("hostA");
                assertThat(a.peerHello().hostId()).isEqualTo("hostB");
            }
        });
    }

    @Test
    void listen_strayPeerFirst_refusesItAndAcceptsTheRealOne() {
        assertTimeoutPreemptively(GUARD, () -> {
            try (OobServer server = bindLoopback()) {
                Log log = new Log();
                CompletableFuture<OobChannel> l = peers.listen(server, settings("hostA", 1, "tok", 5000, 2000), log);
                peers.rawClient(server.port(), "GET / HTTP/1.0\r\n\r\n".getBytes(), 200).get(5, TimeUnit.SECONDS);
                try (OobChannel c = OobChannel.connect(at(server.port()), settings("hostB", 1, "tok", 3000, 3000), OobObserver.NONE);
                     OobChannel a = l.get(5, TimeUnit.SECONDS)) {
                    assertThat(a.peerHello().hostId()).isEqualTo("hostB");
                    assertThat(c.authenticated()).isTrue();
                }
                assertThat(log.events).contains("REJECTED BAD_MAGIC");
            }
        });
    }
}
