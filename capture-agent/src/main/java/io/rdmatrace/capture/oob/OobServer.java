package io.rdmatrace.capture.oob;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The --listen side: binds first (so a test can learn the port), then accepts until one peer passes the
 * handshake. Handshakes run concurrently, each with its own deadline; connections that fail one (garbage,
 * wrong version, wrong token, silence) are refused and reported to the observer once, as refused, and the
 * server keeps waiting for the real peer until the deadline.
 */
public final class OobServer implements AutoCloseable {
    /** A real peer sends its HELLO (and AUTH) as soon as it connects: longer is a silent or slow client. */
    static final Duration HANDSHAKE_WAIT = Duration.ofSeconds(10);
    /** Handshakes in flight at once; further connections are refused at once. */
    static final int MAX_PENDING = 16;
    private static final int ACCEPT_POLL_MS = 100;

    private final ServerSocket server;

    private OobServer(ServerSocket server) {
        this.server = server;
    }

    public static OobServer bind(InetSocketAddress address) throws OobException {
        try {
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(address, 50);
            return new OobServer(s);
        } catch (IOException e) {
            throw new OobException(OobException.Kind.CONNECT_FAILED, "cannot listen on " + address + ": " + e.getMessage(), e);
        }
    }

    public int port() {
        return server.getLocalPort();
    }

    /** "127.0.0.1:7471", or "*:7471" when bound to every address. */
    public String address() {
        java.net.InetAddress a = server.getInetAddress();
        return (a == null || a.isAnyLocalAddress() ? "*" : a.getHostAddress()) + ":" + port();
    }

    /**
     * Waits for the peer: every connection gets its own handshake thread with its own deadline
     * ({@link #HANDSHAKE_WAIT} at most), so a silent or slow client costs one of
     * {@link #MAX_PENDING} slots for a few seconds and never blocks the real peer. The first
     * connection that passes the handshake is returned; the others are closed.
     */
    public OobChannel accept(OobSettings settings, OobObserver observer) throws OobException {
        Deadline deadline = Deadline.after(settings.peerWait());
        BlockingQueue<Object> done = new LinkedBlockingQueue<>(); // OobChannel on success, OobException on refusal
        Set<Socket> pending = ConcurrentHashMap.newKeySet();
        ExecutorService handshakes = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "rdmatrace-oob-handshake");
            t.setDaemon(true);
            return t;
        });
        OobException lastRefusal = null;
        int refused = 0;
        try {
            while (true) {
                for (Object o; (o = done.poll()) != null; ) {
                    if (o instanceof OobChannel ch) {
                        return ch;
                    }
                    refused++;
                    lastRefusal = (OobException) o;
                }
                long left = deadline.remainingMillis();
                if (left <= 0) {
                    // handshakes end by the same deadline: let the last refusals arrive to say why
                    for (long until = System.nanoTime() + 1_000_000_000L; !pending.isEmpty() && System.nanoTime() < until; ) {
                        Object o = done.poll(20, TimeUnit.MILLISECONDS);
                        if (o instanceof OobChannel ch) {
                            return ch;
                        } else if (o != null) {
                            refused++;
                            lastRefusal = (OobException) o;
                        }
                    }
                    throw noPeer(settings, lastRefusal, refused);
                }
                Socket s;
                try {
                    server.setSoTimeout((int) Math.min(ACCEPT_POLL_MS, left));
                    s = server.accept();
                } catch (SocketTimeoutException e) {
                    continue; // look at finished handshakes, then at the deadline
                } catch (IOException e) {
                    throw new OobException(OobException.Kind.CONNECT_FAILED, "accept on port " + port() + " failed: " + e.getMessage(), e);
                }
                String remote = OobChannel.remoteText(s);
                if (pending.size() >= MAX_PENDING) {
                    closeQuietly(s);
                    OobException e = new OobException(OobException.Kind.UNEXPECTED, "refused " + remote + ": "
                            + MAX_PENDING + " other connections are still in their handshake");
                    observer.rejected(remote, e);
                    done.add(e);
                    continue;
                }
                pending.add(s);
                Deadline handshake = Deadline.after(settings.messageWait().compareTo(HANDSHAKE_WAIT) < 0
                        ? settings.messageWait() : HANDSHAKE_WAIT).min(deadline);
                handshakes.execute(() -> {
                    try {
                        done.add(OobChannel.accepted(s, settings, observer, handshake));
                    } catch (OobException e) {
                        observer.rejected(remote, e);
                        done.add(e);
                    } catch (RuntimeException e) {
                        closeQuietly(s);
                        OobException wrapped = new OobException(OobException.Kind.UNEXPECTED, "refused " + remote + ": " + e, e);
                        observer.rejected(remote, wrapped);
                        done.add(wrapped);
                    } finally {
                        pending.remove(s);
                    }
                });
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OobException(OobException.Kind.CONNECT_FAILED, "interrupted while waiting for the peer", e);
        } finally {
            handshakes.shutdownNow();
            pending.forEach(OobServer::closeQuietly); // the handshakes still running fail at once
            // a second peer that passed the handshake while the first was returned: tell it and close it
            for (Object o; (o = done.poll()) != null; ) {
                if (o instanceof OobChannel extra) {
                    extra.sendError("another peer connected first");
                    extra.close();
                }
            }
        }
    }

    private OobException noPeer(OobSettings settings, OobException lastRefusal, int refused) {
        String where = "port " + port();
        if (lastRefusal == null) {
            return new OobException(OobException.Kind.CONNECT_FAILED, "no peer connected to " + where + " within "
                    + settings.peerWait().toMillis() + " ms; start the other side with --connect HOST:" + port());
        }
        return new OobException(lastRefusal.kind(), "no acceptable peer on " + where + " within "
                + settings.peerWait().toMillis() + " ms; refused " + refused + " connection(s), last because: "
                + lastRefusal.getMessage(), lastRefusal);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // closing a listening socket has no failure worth reporting
        }
    }
}
