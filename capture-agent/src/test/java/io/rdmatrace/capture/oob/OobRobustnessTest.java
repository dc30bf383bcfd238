package io.rdmatrace.capture.oob;

import static io.rdmatrace.capture.oob.OobTestPeers.LOOPBACK;
import static io.rdmatrace.capture.oob.OobTestPeers.at;
import static io.rdmatrace.capture.oob.OobTestPeers.bindLoopback;
import static io.rdmatrace.capture.oob.OobTestPeers.frame;
import static io.rdmatrace.capture.oob.OobTestPeers.settings;
import static io.rdmatrace.capture.oob.OobTestPeers.validHello;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A misbehaving peer on either side of the exchange: every case must end in a typed OobException with a
 * readable message, well inside the guard, never a hang. The guard only catches hangs; it measures nothing.
 */
class OobRobustnessTest {
    private static final Duration GUARD = Duration.ofSeconds(30);   // a hang, not a slow machine (load 20+ on 2 cores took > 8 s)
    private final OobTestPeers peers = new OobTestPeers();

    @AfterEach
    void tearDown() {
        peers.close();
    }

    /** Connects an agent to a raw server that answers with {@code reply}; returns the agent's failure. */
    private OobException connectAgainstRawServer(byte[] reply, boolean closeAfter, String token) throws Exception {
        try (ServerSocket raw = new ServerSocket(0, 1, LOOPBACK)) {
            peers.rawServer(raw, reply, closeAfter, 4000);
            return catchThrowableOfType(OobException.class,
                    () -> OobChannel.connect(at(raw.getLocalPort()), settings("agent", 1, token, 2000, 1000), OobObserver.NONE));
        }
    }

    /** Lets a raw client send {@code bytes} to a listening agent; returns the listener's final failure. */
    private OobException listenAgainstRawClient(byte[] bytes, long holdMs) throws Exception {
        try (OobServer server = bindLoopback()) {
            OobChannelTest.Log log = new OobChannelTest.Log();
            CompletableFuture<OobChannel> l = peers.listen(server, settings("agent", 1, null, 700, 400), log);
            peers.rawClient(server.port(), bytes, holdMs);
            try {
                l.get(6, TimeUnit.SECONDS).close();
                throw new AssertionError("listener accepted a bad peer");
            } catch (ExecutionException e) {
                assertThat(log.events).anyMatch(s -> s.startsWith("REJECTED"));
                return (OobException) e.getCause();
            }
        }
    }

    @Test
    void garbage_fromListener_isBadMagic() {
        assertTimeoutPreemptively(GUARD, () -> {
            OobException e = connectAgainstRawServer("SSH-2.0-OpenSSH_9.2\r\n".getBytes(StandardCharsets.US_ASCII), false, null);
            assertThat(e.kind()).isEqualTo(OobException.Kind.BAD_MAGIC);
            assertThat(e.getMessage()).contains("not an rdmatrace agent");
        });
    }

    @Test
    void garbage_fromConnector_isRefusedAndReported() {
        assertTimeoutPreemptively(GUARD, () -> {
            OobException e = listenAgainstRawClient(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}, 300);
            assertThat(e.kind()).isEqualTo(OobException.Kind.BAD_MAGIC);
            assertThat(e.getMessage()).contains("refused 1 connection(s)");
        });
    }

    @Test
    void truncatedHeader_thenClose_isTruncated() {
        assertTimeoutPreemptively(GUARD, () -> {
            byte[] half = Arrays.copyOf(validHello("evil", OobRole.LISTEN, 1), 7);
            OobException e = connectAgainstRawServer(half, true, null);
            assertThat(e.kind()).isEqualTo(OobException.Kind.TRUNCATED);
            assertThat(e.getMessage()).contains("7 of 12 bytes");
        });
    }

    @Test
    void truncatedPayload_thenClose_isTruncated() {
        assertTimeoutPreemptively(GUARD, () -> {
            byte[] hello = validHello("evil", OobRole.LISTEN, 1);
            OobException e = connectAgainstRawServer(Arrays.copyOf(hello, hello.length - 3), true, null);
            assertThat(e.kind()).isEqualTo(OobException.Kind.TRUNCATED);
        });
    }

    @Test
    void truncatedPayload_peerStaysSilent_isTimeoutNamingThePartialMessage() {
        assertTimeoutPreemptively(GUARD, () -> {
            byte[] hello = validHello("evil", OobRole.LISTEN, 1);
            OobException e = connectAgainstRawServer(Arrays.copyOf(hello, hello.length - 3), false, null);
            assertThat(e.kind()).isEqualTo(OobException.Kind.TIMEOUT);
            assertThat(e.getMessage()).contains("partial message");
        });
    }

    @Test
    void oversizedLength_isRefusedBeforeReadingIt() {
        assertTimeoutPreemptively(GUARD, () -> {
            byte[] huge = frame(OobFrame.MAGIC, OobFrame.VERSION, OobMessage.Hello.TYPE, 0, 0xFFFF_FFF0L, new byte[0]);
            OobException e = connectAgainstRawServer(huge, false, null);
            assertThat(e.kind()).isEqualTo(OobException.Kind.OVERSIZED);
            assertThat(e.getMessage()).contains("4294967280-byte").contains("limit is 4096");
        });
    }

    @Test
    void oversizedLength_fromConnector_isRefused() {
        assertTimeoutPreemptively(GUARD, () -> {
            byte[] huge = frame(OobFrame.MAGIC, OobFrame.VERSION, OobMessage.Hello.TYPE, 0, 4097, new byte[0]);
            assertThat(listenAgainstRawClient(huge, 300).kind()).isEqualTo(OobException.Kind.OVERSIZED);
        });
    }

    @Test
    void wrongVersion_isBadVersionWithAdvice() {
        assertTimeoutPreemptively(GUARD, () -> {
            byte[] next = validHello("future", OobRole.LISTEN, 1);
            next[5] = (byte) (OobFrame.VERSION + 1);
            OobException e = connectAgainstRawServer(next, false, null);
            assertThat(e.kind()).isEqualTo(OobException.Kind.BAD_VERSION);
            assertThat(e.getMessage()).contains("version " + (OobFrame.VERSION + 1)).contains("same rdmatrace version");
        });
    }

    @Test
    void malformedHello_isMalformed() {
        assertTimeoutPreemptively(GUARD, () -> {
            byte[] payload = OobCodec.encode(new OobMessage.Hello("x", OobRole.LISTEN, 1, new byte[16], false));
            byte[] padded = Arrays.copyOf(payload, payload.length + 2); // trailing bytes
            OobException e = connectAgainstRawServer(
                    frame(OobFrame.MAGIC, OobFrame.VERSION, OobMessage.Hello.TYPE, 0, padded.length, padded), false, null);
            assertThat(e.kind()).isEqualTo(OobException.Kind.MALFORMED);
            assertThat(e.getMessage()).contains("trailing bytes");
        });
    }

    @Test
    void unknownType_isMalformed() {
        assertTimeoutPreemptively(GUARD, () -> {
            OobException e = connectAgainstRawServer(frame(OobFrame.MAGIC, OobFrame.VERSION, 99, 0, 0, new byte[0]), false, null);
            assertThat(e.kind()).isEqualTo(OobException.Kind.UNEXPECTED);
        });
    }

    @Test
    void silentListener_isTimeout() {
        assertTimeoutPreemptively(GUARD, () -> {
            OobException e = connectAgainstRawServer(new byte[0], false, null);
            assertThat(e.kind()).isEqualTo(OobException.Kind.TIMEOUT);
            assertThat(e.getMessage()).contains("HELLO");
        });
    }

    @Test
    void silentConnector_isRefusedAndListenerStopsAtItsDeadline() {
        assertTimeoutPreemptively(GUARD, () -> {
            OobException e = listenAgainstRawClient(new byte[0], 3000);
            assertThat(e.kind()).isEqualTo(OobException.Kind.TIMEOUT);
        });
    }

    @Test
    void nobodyListening_isConnectFailedAfterTheWait() {
        assertTimeoutPreemptively(GUARD, () -> {
            int port;
            try (OobServer probe = bindLoopback()) {
                port = probe.port();
            }
            OobException e = catchThrowableOfType(OobException.class,
                    () -> OobChannel.connect(at(port), settings("agent", 1, null, 700, 500), OobObserver.NONE));
            assertThat(e.kind()).isEqualTo(OobException.Kind.CONNECT_FAILED);
            assertThat(e.getMessage()).contains("--listen");
        });
    }

    @Test
    void nobodyConnecting_isConnectFailedAfterTheWait() {
        assertTimeoutPreemptively(GUARD, () -> {
            try (OobServer server = bindLoopback()) {
                OobException e = catchThrowableOfType(OobException.class,
                        () -> server.accept(settings("agent", 1, null, 500, 500), OobObserver.NONE));
                assertThat(e.kind()).isEqualTo(OobException.Kind.CONNECT_FAILED);
                assertThat(e.getMessage()).contains("--connect");
            }
        });
    }

    /** Two real agents with the given tokens; returns {listener failure, connector failure}. */
    private OobException[] agentsWithTokens(String listenToken, String connectToken) throws Exception {
        try (OobServer server = bindLoopback()) {
            CompletableFuture<OobChannel> l = peers.listen(server, settings("hostA", 1, listenToken, 700, 500), OobObserver.NONE);
            OobException connectErr = catchThrowableOfType(OobException.class,
                    () -> OobChannel.connect(at(server.port()), settings("hostB", 1, connectToken, 1500, 1000), OobObserver.NONE));
            OobException listenErr = null;
            try {
                l.get(6, TimeUnit.SECONDS).close();
            } catch (ExecutionException e) {
                listenErr = (OobException) e.getCause();
            }
            return new OobException[] {listenErr, connectErr};
        }
    }

    @Test
    void wrongToken_isRefusedOnBothSides() {
        assertTimeoutPreemptively(GUARD, () -> {
            OobException[] e = agentsWithTokens("right", "wrong");
            assertThat(e[0]).isNotNull();
            assertThat(e[0].kind()).isEqualTo(OobException.Kind.AUTH_FAILED);
            // the connector proved first and failed: the listener refuses without proving anything back
            assertThat(e[1]).isNotNull();
            assertThat(e[1].kind()).isEqualTo(OobException.Kind.PEER_ERROR);
            assertThat(e[1].getMessage()).contains("refused by hostA").contains("different --token");
        });
    }

    @Test
    void missingToken_onConnector_isAuthRequired() {
        assertTimeoutPreemptively(GUARD, () -> {
            OobException[] e = agentsWithTokens("right", null);
            assertThat(e[0].kind()).isEqualTo(OobException.Kind.AUTH_REQUIRED);
            assertThat(e[1].kind()).isEqualTo(OobException.Kind.AUTH_REQUIRED);
            assertThat(e[1].getMessage()).contains("requires a --token");
        });
    }

    @Test
    void missingToken_onListener_isAuthRequired() {
        assertTimeoutPreemptively(GUARD, () -> {
            OobException[] e = agentsWithTokens(null, "right");
            assertThat(e[0].kind()).isEqualTo(OobException.Kind.AUTH_REQUIRED);
            assertThat(e[1].kind()).isEqualTo(OobException.Kind.AUTH_REQUIRED);
        });
    }

    @Test
    void unsignedMessage_onAuthenticatedConnection_isRefused() {
        assertTimeoutPreemptively(GUARD, () -> {
            // a raw listener that says it authenticates, then sends an AUTH frame without a MAC
            byte[] helloPayload = OobCodec.encode(new OobMessage.Hello("evil", OobRole.LISTEN, 1, new byte[16], true));
            byte[] hello = frame(OobFrame.MAGIC, OobFrame.VERSION, OobMessage.Hello.TYPE, 0, helloPayload.length, helloPayload);
            byte[] auth = frame(OobFrame.MAGIC, OobFrame.VERSION, OobMessage.Auth.TYPE, 0, 0, new byte[0]);
            byte[] both = new byte[hello.length + auth.length];
            System.arraycopy(hello, 0, both, 0, hello.length);
            System.arraycopy(auth, 0, both, hello.length, auth.length);
            OobException e = connectAgainstRawServer(both, false, "tok");
            assertThat(e.kind()).isEqualTo(OobException.Kind.AUTH_REQUIRED);
        });
    }

    @Test
    void forgedMac_isAuthFailed() {
        assertTimeoutPreemptively(GUARD, () -> {
            byte[] helloPayload = OobCodec.encode(new OobMessage.Hello("evil", OobRole.LISTEN, 1, new byte[16], true));
            byte[] hello = frame(OobFrame.MAGIC, OobFrame.VERSION, OobMessage.Hello.TYPE, 0, helloPayload.length, helloPayload);
            byte[] auth = frame(OobFrame.MAGIC, OobFrame.VERSION, OobMessage.Auth.TYPE, OobFrame.FLAG_MAC, 0, new byte[32]);
            byte[] both = new byte[hello.length + auth.length];
            System.arraycopy(hello, 0, both, 0, hello.length);
            System.arraycopy(auth, 0, both, hello.length, auth.length);
            OobException e = connectAgainstRawServer(both, false, "tok");
            assertThat(e.kind()).isEqualTo(OobException.Kind.AUTH_FAILED);
        });
    }

    @Test
    void differentQpCounts_isMismatch() {
        assertTimeoutPreemptively(GUARD, () -> {
            try (OobServer server = bindLoopback()) {
                CompletableFuture<OobChannel> l = peers.listen(server, settings("hostA", 2, null, 700, 500), OobObserver.NONE);
                OobException e = catchThrowableOfType(OobException.class,
                        () -> OobChannel.connect(at(server.port()), settings("hostB", 3, null, 1500, 1000), OobObserver.NONE));
                assertThat(e.kind()).isEqualTo(OobException.Kind.MISMATCH);
                assertThat(e.getMessage()).contains("--qps 2").contains("--qps 3");
                assertThat(catchThrowableOfType(ExecutionException.class, () -> l.get(6, TimeUnit.SECONDS)))
                        .hasCauseInstanceOf(OobException.class);
            }
        });
    }

    @Test
    void peerError_endsTheWaitAtOnce() {
        assertTimeoutPreemptively(GUARD, () -> {
            try (OobServer server = bindLoopback()) {
                CompletableFuture<OobChannel> l = peers.listen(server, settings("hostA", 1, "k", 10000, 10000), OobObserver.NONE);
                try (OobChannel c = OobChannel.connect(at(server.port()), settings("hostB", 1, "k", 10000, 10000), OobObserver.NONE);
                     OobChannel a = l.get(20, TimeUnit.SECONDS)) {
                    a.sendError("TC01 failed: ibv_create_qp returned EINVAL");
                    OobException e = catchThrowableOfType(OobException.class, () -> c.barrier("rts"));
                    assertThat(e.kind()).isEqualTo(OobException.Kind.PEER_ERROR);
                    assertThat(e.getMessage()).contains("ibv_create_qp returned EINVAL");
                }
            }
        });
    }

    @Test
    void barrierPhasesDiffer_isUnexpected() {
        assertTimeoutPreemptively(GUARD, () -> {
            try (OobServer server = bindLoopback()) {
                CompletableFuture<OobChannel> l = peers.listen(server, settings("hostA", 1, null, 10000, 10000), OobObserver.NONE);
                try (OobChannel c = OobChannel.connect(at(server.port()), settings("hostB", 1, null, 10000, 10000), OobObserver.NONE);
                     OobChannel a = l.get(20, TimeUnit.SECONDS)) {
                    peers.async(() -> {
                        a.barrier("rtr");
                        return null;
                    });
                    OobException e = catchThrowableOfType(OobException.class, () -> c.barrier("rts"));
                    assertThat(e.kind()).isEqualTo(OobException.Kind.UNEXPECTED);
                    assertThat(e.getMessage()).contains("'rtr'").contains("'rts'");
                }
            }
        });
    }

    @Test
    void peerClosesBetweenMessages_isClosed() {
        assertTimeoutPreemptively(GUARD, () -> {
            try (OobServer server = bindLoopback()) {
                CompletableFuture<OobChannel> l = peers.listen(server, settings("hostA", 1, null, 10000, 10000), OobObserver.NONE);
                try (OobChannel c = OobChannel.connect(at(server.port()), settings("hostB", 1, null, 10000, 10000), OobObserver.NONE)) {
                    l.get(20, TimeUnit.SECONDS).close();
                    OobException e = catchThrowableOfType(OobException.class, () -> c.expect(OobMessage.Barrier.class, "BARRIER rts"));
                    assertThat(e.kind()).isEqualTo(OobException.Kind.CLOSED);
                    assertThat(e.getMessage()).contains("BARRIER rts");
                }
            }
        });
    }

    @Test
    void endpoints_parseAndRefuseBadSpecs() {
        assertThat(OobEndpoint.parseListen("18515").getPort()).isEqualTo(18515);
        InetSocketAddress a = OobEndpoint.parseListen("127.0.0.2:7000");
        assertThat(a.getAddress().getHostAddress()).isEqualTo("127.0.0.2");
        assertThat(OobEndpoint.parseConnect("[::1]:9").getHostString()).isEqualTo("::1");
        assertThat(catchThrowableOfType(IllegalArgumentException.class, () -> OobEndpoint.parseConnect("nohost")))
                .hasMessageContaining("HOST:PORT");
        assertThat(catchThrowableOfType(IllegalArgumentException.class, () -> OobEndpoint.parseListen("70000")))
                .hasMessageContaining("bad port");
    }


    @Test
    void silentClients_doNotBlockTheRealPeer() {
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            try (OobServer server = bindLoopback()) {
                OobChannelTest.Log log = new OobChannelTest.Log();
                CompletableFuture<OobChannel> l = peers.listen(server, settings("hostA", 1, null, 8000, 3000), log);
                java.util.List<java.net.Socket> silent = new java.util.ArrayList<>();
                try {
                    for (int i = 0; i < 5; i++) {
                        silent.add(new java.net.Socket(LOOPBACK, server.port())); // connects, then says nothing
                    }
                    // the real peer waits for the listener's HELLO less long than one silent client is given
                    try (OobChannel c = OobChannel.connect(at(server.port()), settings("hostB", 1, null, 3000, 1500), OobObserver.NONE);
                         OobChannel a = l.get(10, TimeUnit.SECONDS)) {
                        assertThat(a.peerHello().hostId()).isEqualTo("hostB");
                        assertThat(c.peerHello().hostId()).isEqualTo("hostA");
                    }
                } finally {
                    for (java.net.Socket s : silent) {
                        s.close();
                    }
                }
                assertThat(log.events).contains("RECEIVED HELLO", "SENT HELLO");
            }
        });
    }

    @Test
    void tokenGuesser_getsNothingMacdFromTheListener_andIsRecordedAsRefused() {
        assertTimeoutPreemptively(GUARD, () -> {
            try (OobServer server = bindLoopback()) {
                OobChannelTest.Log log = new OobChannelTest.Log();
                CompletableFuture<OobChannel> l = peers.listen(server, settings("hostA", 1, "secret", 3000, 1000), log);
                byte[] hello = OobCodec.encode(new OobMessage.Hello("guesser", OobRole.CONNECT, 1, new byte[16], true));
                byte[] forgedMac = new byte[OobMac.MAC_BYTES];
                java.util.Arrays.fill(forgedMac, (byte) 0x5a);
                java.io.ByteArrayOutputStream received = new java.io.ByteArrayOutputStream();
                try (java.net.Socket s = new java.net.Socket(LOOPBACK, server.port())) {
                    s.setSoTimeout(5000);
                    s.getOutputStream().write(frame(OobFrame.MAGIC, OobFrame.VERSION, OobMessage.Hello.TYPE, 0, hello.length, hello));
                    byte[] auth = frame(OobFrame.MAGIC, OobFrame.VERSION, OobMessage.Auth.TYPE, OobFrame.FLAG_MAC, 0, new byte[0]);
                    s.getOutputStream().write(auth);
                    s.getOutputStream().write(forgedMac);
                    s.getOutputStream().flush();
                    s.getInputStream().transferTo(received); // until the listener closes the connection
                }
                java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(received.toByteArray());
                java.util.List<Integer> types = new java.util.ArrayList<>();
                while (in.remaining() >= OobFrame.HEADER_BYTES) {
                    assertThat(in.getInt()).isEqualTo(OobFrame.MAGIC);
                    in.getShort();
                    types.add((int) in.get());
                    int flags = in.get();
                    assertThat(flags & OobFrame.FLAG_MAC).as("the listener signs nothing for an unproven connector").isZero();
                    int length = in.getInt();
                    in.position(in.position() + length);
                }
                assertThat(types).containsExactly((int) OobMessage.Hello.TYPE, (int) OobMessage.Error.TYPE);
                OobException e = catchThrowableOfType(ExecutionException.class, () -> l.get(6, TimeUnit.SECONDS)).getCause() instanceof OobException o ? o : null;
                assertThat(e).isNotNull();
                assertThat(e.kind()).isEqualTo(OobException.Kind.AUTH_FAILED);
                // one refusal, and none of the guesser's handshake as if it were a peer
                assertThat(log.events).containsExactly("REJECTED AUTH_FAILED");
            }
        });
    }
}
