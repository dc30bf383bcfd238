package io.rdmatrace.capture.run;

import io.rdmatrace.capture.config.PathMtu;
import io.rdmatrace.capture.config.PeerLink;
import io.rdmatrace.capture.oob.OobChannel;
import io.rdmatrace.capture.oob.OobEndpoint;
import io.rdmatrace.capture.oob.OobException;
import io.rdmatrace.capture.oob.OobMessage;
import io.rdmatrace.capture.oob.OobRole;
import io.rdmatrace.capture.oob.OobSettings;
import io.rdmatrace.capture.oob.QpParams;
import java.util.List;

/** The scenario's side of the out-of-band link: open it on first use, exchange, barriers, and the end. */
final class PeerExchange {
    private static final java.time.Duration LAST_WORD_WAIT = java.time.Duration.ofSeconds(2);
    private final AgentState s;

    PeerExchange(AgentState s) {
        this.s = s;
    }

    private OobSettings settings() {
        PeerLink l = s.config.link();
        return new OobSettings(s.config.hostId(), s.config.workload().qps(), l.token(), l.peerWait(), l.messageWait());
    }

    /** The channel, connecting or accepting first if needed. */
    OobChannel channel() throws OobException {
        if (s.channel == null) {
            if (s.linkDead) {
                throw new OobException(OobException.Kind.CONNECT_FAILED, "the peer link already failed");
            }
            try {
                if (s.role() == OobRole.LISTEN) {
                    s.channel = s.server.accept(settings(), s.recorder);
                } else {
                    s.channel = OobChannel.connect(OobEndpoint.parseConnect(s.config.link().endpoint()), settings(), s.recorder);
                }
            } catch (OobException e) {
                s.linkDead = true; // one attempt per capture: do not wait for the peer a second time
                throw e;
            }
        }
        return s.channel;
    }

    StepOutcome exchange(List<QpParams> local) {
        try {
            List<QpParams> remote = channel().exchangeParams(local);
            Integer override = s.config.knobs().pathMtu();
            int activeMtu = Math.max(PathMtu.MIN, s.port.activeMtu().value());
            for (QpSlot slot : s.slots) {
                slot.peer = remote.get(slot.index);
                slot.pathMtu = PathMtu.negotiate(activeMtu, slot.peer.pathMtu(), override);
            }
            QpParams first = remote.get(0);
            return StepOutcome.ok(String.format("peer %s QPN 0x%06x", s.channel.peerHello().hostId(), first.qpNum()));
        } catch (OobException e) {
            return failed(e);
        }
    }

    /** Opens the link (connect or accept, HELLO) without exchanging parameters: --cm brings the QPs up. */
    StepOutcome link() {
        try {
            channel();
            return StepOutcome.OK;
        } catch (OobException e) {
            return failed(e);
        }
    }

    /** While this agent waits on something else: the failure when the peer gave up meanwhile, else null. */
    StepOutcome peerGaveUpMeanwhile() {
        if (s.channel == null || s.linkDead || !s.channel.inputPending()) {
            return null;
        }
        try {
            io.rdmatrace.capture.oob.OobMessage m = s.channel.receive("the rdma_cm exchange to end", LAST_WORD_WAIT);
            return StepOutcome.fail("the peer sent " + m.kindName() + " during the rdma_cm exchange");
        } catch (OobException e) {
            return failed(e);
        }
    }

    StepOutcome barrier(String phase) {
        if (s.channel == null) {
            return StepOutcome.fail("barrier '" + phase + "' before the exchange: the peer is not connected yet");
        }
        try {
            s.channel.barrier(phase);
            return StepOutcome.OK;
        } catch (OobException e) {
            return failed(e);
        }
    }

    private StepOutcome failed(OobException e) {
        switch (e.kind()) {
            case PEER_ERROR -> {
                s.peerGaveUp = e.detail();
                s.linkDead = true;
            }
            case BAD_MAGIC, BAD_VERSION, OVERSIZED, MALFORMED, AUTH_REQUIRED, AUTH_FAILED, TRUNCATED, UNEXPECTED, MISMATCH -> {
                s.recorder.invalid(s.channel != null ? s.channel.remote() : s.config.link().endpoint(), e);
                s.linkDead = true; // the link is unusable: do not wait for a DONE on it
            }
            default -> {
                // timeouts and closed connections: the peer may still read an ERROR from us
            }
        }
        return StepOutcome.fail(e.getMessage());
    }

    /** Tells the peer we stop (so its waits end now, not at their timeout); opens the link if needed. */
    void abort(String why) {
        if (s.linkDead || s.weGaveUp) {
            return;
        }
        try {
            channel().sendError(s.config.hostId() + " gave up: " + why);
            s.weGaveUp = true;
        } catch (OobException e) {
            s.linkDead = true; // no peer to tell: it will time out on its own
        }
    }

    /**
     * Exchanges the final verdicts and returns the peer's: its DONE, or a failing one carrying what it
     * said when it gave up; null when it said nothing usable (never connected, vanished, silent).
     */
    OobMessage.Done finish(boolean passed, String text) {
        if (s.peerGaveUp != null) {
            return new OobMessage.Done(false, s.peerGaveUp);
        }
        if (s.channel == null || s.linkDead) {
            return null;
        }
        try {
            if (s.weGaveUp) {
                // the peer may have given up first and said why: take a short look
                OobMessage last = s.channel.receive("the peer's last word", LAST_WORD_WAIT);
                return last instanceof OobMessage.Done d ? d : null;
            }
            return s.channel.exchangeDone(passed, text);
        } catch (OobException e) {
            return e.kind() == OobException.Kind.PEER_ERROR ? new OobMessage.Done(false, e.detail()) : null;
        }
    }
}
