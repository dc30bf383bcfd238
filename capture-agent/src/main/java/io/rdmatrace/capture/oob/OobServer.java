package io.rdmatrace.capture.oob;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * The --listen side: binds first (so a test can learn the port), then accepts until one peer passes the
 * handshake. Connections that fail it (garbage, wrong version, wrong token, silence) are refused and reported
 * to the observer, and the server keeps waiting for the real peer until the deadline.
 */
public final class OobServer implements AutoCloseable {
    private final ServerSocket server;

    private OobServer(ServerSocket server) {
        this.server = server;
    }

    public static OobServer bind(InetSocketAddress address) throws OobException {
        try {
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(address, 4);
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

    public OobChannel accept(OobSettings settings, OobObserver observer) throws OobException {
        Deadline deadline = Deadline.after(settings.peerWait());
        OobException lastRefusal = null;
        int refused = 0;
        while (true) {
            long left = deadline.remainingMillis();
            if (left <= 0) {
                String where = "port " + port();
                if (lastRefusal == null) {
                    throw new OobException(OobException.Kind.CONNECT_FAILED, "no peer connected to " + where + " within "
                            + settings.peerWait().toMillis() + " ms; start the other side with --connect HOST:" + port());
                }
                throw new OobException(lastRefusal.kind(), "no acceptable peer on " + where + " within "
                        + settings.peerWait().toMillis() + " ms; refused " + refused + " connection(s), last because: "
                        + lastRefusal.getMessage(), lastRefusal);
            }
            Socket s;
            try {
                server.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
                s = server.accept();
            } catch (SocketTimeoutException e) {
                continue; // the loop reports the deadline
            } catch (IOException e) {
                throw new OobException(OobException.Kind.CONNECT_FAILED, "accept on port " + port() + " failed: " + e.getMessage(), e);
            }
            String remote = OobChannel.remoteText(s);
            try {
                return OobChannel.accepted(s, settings, observer, Deadline.after(settings.messageWait()).min(deadline));
            } catch (OobException e) {
                refused++;
                lastRefusal = e;
                observer.rejected(remote, e);
            }
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
