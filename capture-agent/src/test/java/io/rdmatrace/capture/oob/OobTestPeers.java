package io.rdmatrace.capture.oob;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Loopback helpers: real agents on threads, and raw sockets that misbehave on purpose. */
final class OobTestPeers implements AutoCloseable {
    static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "oob-test-peer");
        t.setDaemon(true);
        return t;
    });

    static OobSettings settings(String host, int qps, String token, long peerWaitMs, long messageWaitMs) {
        return new OobSettings(host, qps, Optional.ofNullable(token), Duration.ofMillis(peerWaitMs), Duration.ofMillis(messageWaitMs));
    }

    static QpParams params(int index, int qpn, int psn) {
        byte[] gid = new byte[16];
        gid[10] = (byte) 0xff;
        gid[11] = (byte) 0xff;
        gid[12] = 127;
        gid[15] = (byte) (1 + index);
        return new QpParams(index, qpn, 0, gid, 3, psn, 3, 0x7f00_0000_1000L + index, 0x1234 + index, 4096, 0, 2);
    }

    /** Runs a listener on a free loopback port; the future holds the channel or the failure. */
    CompletableFuture<OobChannel> listen(OobServer server, OobSettings s, OobObserver observer) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return server.accept(s, observer);
            } catch (OobException e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        }, pool);
    }

    <T> CompletableFuture<T> async(java.util.concurrent.Callable<T> body) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return body.call();
            } catch (Exception e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        }, pool);
    }

    static OobServer bindLoopback() throws OobException {
        return OobServer.bind(new InetSocketAddress(LOOPBACK, 0));
    }

    static InetSocketAddress at(int port) {
        return new InetSocketAddress(LOOPBACK, port);
    }

    /** A server that accepts one connection, writes the given bytes, then either keeps it open or closes it. */
    CompletableFuture<Void> rawServer(ServerSocket server, byte[] reply, boolean closeAfter, long holdMs) {
        return CompletableFuture.runAsync(() -> {
            try (Socket s = server.accept()) {
                OutputStream out = s.getOutputStream();
                out.write(reply);
                out.flush();
                if (!closeAfter) {
                    Thread.sleep(holdMs);
                }
            } catch (IOException | InterruptedException ignored) {
                // the test asserts what the agent saw, not what the raw peer saw
            }
        }, pool);
    }

    /** A client that connects, writes the given bytes, holds the connection for holdMs, then closes. */
    CompletableFuture<Void> rawClient(int port, byte[] bytes, long holdMs) {
        return CompletableFuture.runAsync(() -> {
            try (Socket s = new Socket(LOOPBACK, port)) {
                s.getOutputStream().write(bytes);
                s.getOutputStream().flush();
                Thread.sleep(holdMs);
            } catch (IOException | InterruptedException ignored) {
                // see rawServer
            }
        }, pool);
    }

    static byte[] frame(int magic, int version, int type, int flags, long length, byte[] payload) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(12 + payload.length);
        b.putInt(magic).putShort((short) version).put((byte) type).put((byte) flags).putInt((int) length).put(payload);
        return b.array();
    }

    static byte[] validHello(String host, OobRole role, int qps) {
        byte[] payload = OobCodec.encode(new OobMessage.Hello(host, role, qps, new byte[16], false));
        return frame(OobFrame.MAGIC, OobFrame.VERSION, OobMessage.Hello.TYPE, 0, payload.length, payload);
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
