package io.rdmatrace.capture.oob;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One authenticated-if-asked TCP connection to the peer agent, after the HELLO handshake.
 * Every read is bounded by the settings' message wait; nothing here can block forever.
 * Not thread-safe: one scenario thread drives it.
 */
public final class OobChannel implements AutoCloseable {
    /** The version of the OOB frame format this agent speaks. */
    public static final int PROTOCOL_VERSION = OobFrame.VERSION;
    private static final long FIRST_BACKOFF_MS = 50;
    private static final long MAX_BACKOFF_MS = 1000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final OobRole role;
    private final OobSettings settings;
    /** During a listener's handshake a {@link HandshakeLog}: a refused connection leaves no message events. */
    private OobObserver observer;
    private final String remote;
    private OobMac mac; // null until the handshake derived it (or when no --token)
    private OobMessage.Hello peerHello;
    private long sendSeq;
    private long recvSeq;

    private OobChannel(Socket socket, OobRole role, OobSettings settings, OobObserver observer) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.role = role;
        this.settings = settings;
        this.observer = observer;
        this.remote = remoteText(socket);
        socket.setTcpNoDelay(true);
    }

    /** Connects to a listening agent, retrying with backoff until settings.peerWait (the peer may start later). */
    public static OobChannel connect(InetSocketAddress peer, OobSettings settings, OobObserver observer) throws OobException {
        Objects.requireNonNull(peer, "peer");
        Deadline deadline = Deadline.after(settings.peerWait());
        long backoff = FIRST_BACKOFF_MS;
        String lastFailure = "no attempt";
        while (true) {
            Socket s = new Socket();
            try {
                InetSocketAddress resolved = peer.isUnresolved()
                        ? new InetSocketAddress(peer.getHostString(), peer.getPort()) : peer;
                if (resolved.isUnresolved()) {
                    throw new OobException(OobException.Kind.CONNECT_FAILED, "cannot resolve host '" + peer.getHostString() + "'");
                }
                s.connect(resolved, (int) Math.max(1, Math.min(deadline.remainingMillis(), 2000)));
                OobChannel ch = new OobChannel(s, OobRole.CONNECT, settings, observer);
                try {
                    ch.handshake(Deadline.after(settings.messageWait()));
                    return ch;
                } catch (OobException e) {
                    ch.abort(e);
                    throw e;
                }
            } catch (ConnectException | NoRouteToHostException | SocketTimeoutException e) {
                lastFailure = e.getMessage();
                closeQuietly(s);
            } catch (UnknownHostException e) {
                closeQuietly(s);
                throw new OobException(OobException.Kind.CONNECT_FAILED, "cannot resolve host '" + peer.getHostString() + "'", e);
            } catch (OobException e) {
                closeQuietly(s);
                throw e;
            } catch (IOException e) {
                lastFailure = e.getMessage();
                closeQuietly(s);
            }
            long left = deadline.remainingMillis();
            if (left <= 0) {
                throw new OobException(OobException.Kind.CONNECT_FAILED, "no agent listening at " + peer.getHostString() + ":"
                        + peer.getPort() + " within " + settings.peerWait().toMillis() + " ms (last attempt: " + lastFailure
                        + "); start the other side with --listen");
            }
            sleep(Math.min(backoff, left));
            backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
        }
    }

    /**
     * Wraps an accepted socket and runs the handshake; used by {@link OobServer}. The messages of
     * the handshake reach {@code observer} only once it passed: a refused connection is reported
     * once, by the server, as refused.
     */
    static OobChannel accepted(Socket s, OobSettings settings, OobObserver observer, Deadline deadline) throws OobException {
        OobChannel ch;
        HandshakeLog log = new HandshakeLog();
        try {
            ch = new OobChannel(s, OobRole.LISTEN, settings, log);
        } catch (IOException e) {
            closeQuietly(s);
            throw new OobException(OobException.Kind.CLOSED, "accepted connection failed: " + e.getMessage(), e);
        }
        try {
            ch.handshake(deadline);
        } catch (OobException e) {
            ch.abort(e);
            throw e;
        }
        log.replayTo(observer);
        ch.observer = observer;
        return ch;
    }

    /** Buffers what a listener's handshake sent and received until it is known to be the peer's. */
    private static final class HandshakeLog implements OobObserver {
        private final List<Runnable> seen = new ArrayList<>();
        private OobObserver target;

        @Override
        public void sent(String remote, OobMessage message) {
            seen.add(() -> target.sent(remote, message));
        }

        @Override
        public void received(String remote, OobMessage message) {
            seen.add(() -> target.received(remote, message));
        }

        void replayTo(OobObserver observer) {
            target = observer;
            seen.forEach(Runnable::run);
            seen.clear();
        }
    }

    private void handshake(Deadline deadline) throws OobException {
        byte[] nonce = new byte[OobMessage.Hello.NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        OobMessage.Hello mine = new OobMessage.Hello(settings.hostId(), role, settings.qpCount(), nonce,
                settings.token().isPresent());
        byte[] minePayload = OobCodec.encode(mine);
        writeFrame(mine, minePayload);
        OobFrame.Raw raw = OobFrame.read(socket, in, deadline, "HELLO");
        if (raw.type() == OobMessage.Error.TYPE) {
            throw peerError(OobCodec.decode(raw.type(), raw.payload()), raw);
        }
        if (raw.type() != OobMessage.Hello.TYPE) {
            throw new OobException(OobException.Kind.UNEXPECTED, "peer's first message has type " + raw.type() + ", expected HELLO");
        }
        OobMessage.Hello theirs = (OobMessage.Hello) OobCodec.decode(raw.type(), raw.payload());
        observer.received(remote, theirs);
        if (theirs.role() == role) {
            throw new OobException(OobException.Kind.MISMATCH, "both agents are in " + role.label() + " mode");
        }
        if (settings.token().isPresent() && !theirs.authenticated()) {
            throw new OobException(OobException.Kind.AUTH_REQUIRED, "peer '" + theirs.hostId()
                    + "' has no --token but this agent requires one; pass the same --token on both sides");
        }
        if (settings.token().isEmpty() && theirs.authenticated()) {
            throw new OobException(OobException.Kind.AUTH_REQUIRED, "peer '" + theirs.hostId()
                    + "' requires a --token; pass the same --token on both sides");
        }
        if (theirs.qpCount() != settings.qpCount()) {
            throw new OobException(OobException.Kind.MISMATCH, "peer '" + theirs.hostId() + "' runs --qps "
                    + theirs.qpCount() + ", this agent --qps " + settings.qpCount() + "; both sides need the same --qps");
        }
        peerHello = theirs;
        if (settings.token().isPresent()) {
            byte[] theirPayload = raw.payload();
            mac = role == OobRole.LISTEN
                    ? OobMac.derive(settings.token().get(), minePayload, theirPayload)
                    : OobMac.derive(settings.token().get(), theirPayload, minePayload);
            // challenge-response: the HELLOs carried each side's fresh nonce; the connector proves it
            // knows the token first, and the listener answers only a proof that verified, so a
            // connection that does not know the token learns nothing to guess the token from offline
            if (role == OobRole.CONNECT) {
                send(new OobMessage.Auth());
                receiveFrame(deadline, "AUTH");
            } else {
                try {
                    receiveFrame(deadline, "AUTH");
                } catch (OobException e) {
                    mac = null; // the refusal goes out unsigned: nothing keyed by the token reaches an unproven peer
                    throw e;
                }
                send(new OobMessage.Auth());
            }
        }
    }

    /** The peer's HELLO (host id, qp count). */
    public OobMessage.Hello peerHello() {
        return peerHello;
    }

    /** The peer's address as text ("127.0.0.2:7471"). */
    public String remote() {
        return remote;
    }

    static String remoteText(Socket s) {
        java.net.SocketAddress a = s.getRemoteSocketAddress();
        if (a instanceof InetSocketAddress i && i.getAddress() != null) {
            return i.getAddress().getHostAddress() + ":" + i.getPort();
        }
        return String.valueOf(a);
    }

    public OobRole role() {
        return role;
    }

    public boolean authenticated() {
        return mac != null;
    }

    public void send(OobMessage message) throws OobException {
        writeFrame(message, OobCodec.encode(message));
    }

    private void writeFrame(OobMessage message, byte[] payload) throws OobException {
        synchronized (out) { // a signal's shutdown hook may send an ERROR while the capture sends too
            writeFrameLocked(message, payload);
        }
    }

    private void writeFrameLocked(OobMessage message, byte[] payload) throws OobException {
        boolean signed = mac != null && !(message instanceof OobMessage.Hello);
        byte[] header = OobFrame.header(message.typeCode(), signed ? OobFrame.FLAG_MAC : 0, payload.length);
        byte[] tag = signed ? mac.sign(role, sendSeq++, header, payload) : null;
        try {
            OobFrame.write(out, header, payload, tag);
        } catch (IOException e) {
            throw new OobException(OobException.Kind.CLOSED, "cannot send " + message.kindName() + " to the peer: " + e.getMessage(), e);
        }
        observer.sent(remote, message);
    }

    /** Receives the next message, whatever it is; a peer ERROR becomes a PEER_ERROR exception. */
    public OobMessage receive(String waitingFor) throws OobException {
        return receiveFrame(Deadline.after(settings.messageWait()), waitingFor);
    }

    /** Same, waiting at most {@code wait} (e.g. a short look for the peer's last word). */
    public OobMessage receive(String waitingFor, java.time.Duration wait) throws OobException {
        return receiveFrame(Deadline.after(wait), waitingFor);
    }

    private OobMessage receiveFrame(Deadline deadline, String waitingFor) throws OobException {
        OobFrame.Raw raw = OobFrame.read(socket, in, deadline, waitingFor);
        if (raw.type() == OobMessage.Error.TYPE && !raw.hasMac()) {
            throw peerError(OobCodec.decode(raw.type(), raw.payload()), raw);
        }
        if (mac != null) {
            if (!raw.hasMac()) {
                throw new OobException(OobException.Kind.AUTH_REQUIRED, "peer sent a message without a MAC on an authenticated connection");
            }
            if (!mac.verify(role.peer(), recvSeq, raw.header(), raw.payload(), raw.mac())) {
                throw new OobException(OobException.Kind.AUTH_FAILED, "the peer's message authentication code does not verify: "
                        + "the two sides have different --token values (or the message was altered)");
            }
            recvSeq++;
        } else if (raw.hasMac()) {
            throw new OobException(OobException.Kind.UNEXPECTED, "peer sent a MAC on an unauthenticated connection");
        }
        OobMessage m = OobCodec.decode(raw.type(), raw.payload());
        if (m instanceof OobMessage.Hello) {
            throw new OobException(OobException.Kind.UNEXPECTED, "peer sent a second HELLO while this agent waited for " + waitingFor);
        }
        observer.received(remote, m);
        if (m instanceof OobMessage.Error e) {
            throw new OobException(OobException.Kind.PEER_ERROR, e.text());
        }
        return m;
    }

    private OobException peerError(OobMessage m, OobFrame.Raw raw) {
        OobMessage.Error e = (OobMessage.Error) m;
        observer.received(remote, e);
        return new OobException(OobException.Kind.PEER_ERROR, e.text() + (mac != null ? " (unauthenticated message)" : ""));
    }

    /**
     * True when the peer sent something this agent has not read yet: while it waits on something else
     * (the rdma_cm exchange), that can only be the peer giving up. A broken link counts as input.
     */
    public boolean inputPending() {
        try {
            return in.available() > 0;
        } catch (java.io.IOException e) {
            return true; // let the receive that follows say what happened
        }
    }

    /** Receives the next message and insists on its type. */
    public <T extends OobMessage> T expect(Class<T> type, String waitingFor) throws OobException {
        OobMessage m = receive(waitingFor);
        if (!type.isInstance(m)) {
            throw new OobException(OobException.Kind.UNEXPECTED, "peer sent " + m.kindName() + " while this agent waited for " + waitingFor);
        }
        return type.cast(m);
    }

    /**
     * Sends our parameters and receives the peer's, one PARAMS per QP, returned in qp-index order.
     * The connector sends first and the listener replies after reading, so neither can block on a full socket.
     */
    public List<QpParams> exchangeParams(List<QpParams> local) throws OobException {
        if (local.size() != settings.qpCount()) {
            throw new IllegalArgumentException("expected " + settings.qpCount() + " local QpParams, got " + local.size());
        }
        List<QpParams> remote;
        if (role == OobRole.CONNECT) {
            for (QpParams p : local) {
                send(new OobMessage.Params(p));
            }
            remote = receiveParams();
        } else {
            remote = receiveParams();
            for (QpParams p : local) {
                send(new OobMessage.Params(p));
            }
        }
        return remote;
    }

    private List<QpParams> receiveParams() throws OobException {
        List<QpParams> remote = new ArrayList<>(settings.qpCount());
        for (int i = 0; i < settings.qpCount(); i++) {
            QpParams p = expect(OobMessage.Params.class, "PARAMS for qp#" + i).params();
            if (p.qpIndex() != i) {
                throw new OobException(OobException.Kind.UNEXPECTED, "peer sent PARAMS for qp#" + p.qpIndex() + ", expected qp#" + i);
            }
            remote.add(p);
        }
        return remote;
    }

    /**
     * Two-phase barrier: both sides announce the phase and wait for the other's announcement, then both
     * acknowledge and wait for the other's acknowledgement. After it returns, each side knows the peer
     * reached the phase AND knows the peer knows the same of it, so neither acts on a half-passed barrier.
     */
    public void barrier(String phase) throws OobException {
        send(new OobMessage.Barrier(phase));
        OobMessage.Barrier b = expect(OobMessage.Barrier.class, "BARRIER " + phase);
        if (!b.phase().equals(phase)) {
            throw new OobException(OobException.Kind.UNEXPECTED, "peer is at barrier '" + b.phase() + "', this agent at '" + phase + "'");
        }
        send(new OobMessage.BarrierAck(phase));
        OobMessage.BarrierAck ack = expect(OobMessage.BarrierAck.class, "BARRIER_ACK " + phase);
        if (!ack.phase().equals(phase)) {
            throw new OobException(OobException.Kind.UNEXPECTED, "peer acknowledged barrier '" + ack.phase() + "', expected '" + phase + "'");
        }
    }

    /** Exchanges final verdicts; returns the peer's. */
    public OobMessage.Done exchangeDone(boolean passed, String text) throws OobException {
        send(new OobMessage.Done(passed, text));
        return expect(OobMessage.Done.class, "DONE");
    }

    /** Tells the peer why we give up; best effort (the peer may be gone already). */
    public void sendError(String text) {
        try {
            send(new OobMessage.Error(text.length() > 900 ? text.substring(0, 900) : text));
        } catch (OobException | RuntimeException ignored) {
            // the peer may have closed first; its own read then reports CLOSED
        }
    }

    private void abort(OobException why) {
        sendError("refused by " + settings.hostId() + ": " + why.getMessage());
        close();
    }

    @Override
    public void close() {
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing useful to do when closing a socket fails
        }
    }

    private static void sleep(long ms) throws OobException {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OobException(OobException.Kind.CONNECT_FAILED, "interrupted while waiting to reconnect", e);
        }
    }
}
