package io.rdmatrace.capture.run;

import io.rdmatrace.verbs.CallStatus;
import io.rdmatrace.verbs.CmChannel;
import io.rdmatrace.verbs.CmId;
import io.rdmatrace.verbs.CmLibrary;
import io.rdmatrace.verbs.CmListener;
import io.rdmatrace.verbs.Outcome;
import io.rdmatrace.verbs.RdmaCm;
import io.rdmatrace.verbs.RdmaCmEvent;
import io.rdmatrace.verbs.VerbsCallException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * One agent's rdma_cm ({@code capture --cm}): the librdmacm, its event channel, the listening id
 * (listener side) and one id per QP. Events are taken and acked at once (everything needed is copied);
 * an event nobody waits for yet is kept until asked for, so connections of several QPs can interleave.
 * Every call and event reaches the recorder through the {@link CmListener}.
 */
final class CmLink implements AutoCloseable {
    /** enum rdma_cm_event_type values the bring-up waits for. */
    static final int ADDR_RESOLVED = 0;
    static final int ROUTE_RESOLVED = 2;
    static final int CONNECT_REQUEST = 4;
    static final int CONNECT_RESPONSE = 5;
    static final int ESTABLISHED = 9;
    static final int DISCONNECTED = 10;
    /** The disconnect handshake is local: a peer that does not answer costs this much at the end. */
    static final Duration DISCONNECT_WAIT = Duration.ofSeconds(2);

    final RdmaCm cm;
    final CmChannel channel;
    CmId listener;
    /** The connection id of each QP index. */
    final Map<Integer, CmId> ids = new HashMap<>();
    /** Ids that reached ESTABLISHED (or CONNECT_RESPONSE + establish): disconnected at the end. */
    final List<CmId> connected = new ArrayList<>();
    private final List<RdmaCmEvent> kept = new ArrayList<>();

    private CmLink(RdmaCm cm, CmChannel channel) {
        this.cm = cm;
        this.channel = channel;
    }

    /** Loads the librdmacm and makes the event channel; the failure text names the library. */
    static CmLink open(CmLibrary library, CmListener listener) {
        RdmaCm cm = RdmaCm.open(library, listener);
        Outcome<CmChannel> ch = cm.tryCreateEventChannel();
        if (!(ch instanceof Outcome.Ok<CmChannel> ok)) {
            throw new IllegalStateException("rdma_create_event_channel with " + cm.loadedPath() + " failed: "
                    + ch.status().describe() + (cm.library().kind() == io.rdmatrace.verbs.VerbsLibrary.Kind.SYSTEM
                    ? " (the system librdmacm needs the kernel's /dev/infiniband/rdma_cm; use --soft for softverbs')" : ""));
        }
        return new CmLink(cm, ok.value());
    }

    /** rdma_create_id, rdma_bind_addr, rdma_listen: the listener the peer's REQs reach. */
    String listen(String ip, int port, int backlog) {
        Outcome<CmId> id = channel.tryCreateId(RdmaCm.PS_TCP);
        if (!(id instanceof Outcome.Ok<CmId> ok)) {
            return "rdma_create_id failed: " + id.status().describe();
        }
        listener = ok.value();
        CallStatus st = listener.bind(ip, port);
        if (!st.ok()) {
            return "rdma_bind_addr(" + ip + ":" + port + ") failed: " + st.describe();
        }
        st = listener.listen(backlog);
        return st.ok() ? null : "rdma_listen on " + ip + ":" + port + " failed: " + st.describe();
    }

    /**
     * The first event (kept or new) {@code wanted} accepts, waiting up to {@code wait}; null when none
     * came. Events of other ids or types are kept for later.
     */
    RdmaCmEvent await(Predicate<RdmaCmEvent> wanted, Duration wait) {
        for (Iterator<RdmaCmEvent> it = kept.iterator(); it.hasNext(); ) {
            RdmaCmEvent e = it.next();
            if (wanted.test(e)) {
                it.remove();
                return e;
            }
        }
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            RdmaCmEvent e;
            try {
                e = channel.next(Duration.ofNanos(left));
            } catch (VerbsCallException ex) {
                return null; // recorded as a failed rdma_get_cm_event
            }
            if (e == null) {
                return null;
            }
            channel.ack(e);
            if (wanted.test(e)) {
                return e;
            }
            kept.add(e);
        }
    }

    /** The next event of {@code id} (any type). */
    RdmaCmEvent awaitOn(CmId id, Duration wait) {
        long h = id.handle();
        return await(e -> e.id() == h, wait);
    }

    /**
     * The end: rdma_disconnect of every connection and its DISCONNECTED (bounded), then every id, the
     * listener and the channel destroyed. The library stays loaded (its CM thread may still run).
     */
    @Override
    public void close() {
        for (CmId id : connected) {
            if (!id.isDestroyed()) {
                id.disconnect();
            }
        }
        for (CmId id : connected) {
            if (!id.isDestroyed()) {
                long h = id.handle();
                await(e -> e.id() == h && e.event() == DISCONNECTED, DISCONNECT_WAIT);
            }
        }
        for (CmId id : ids.values()) {
            if (!id.isDestroyed()) {
                id.destroy();
            }
        }
        if (listener != null && !listener.isDestroyed()) {
            listener.destroy();
        }
        if (!channel.isDestroyed()) {
            channel.destroy();
        }
    }
}
