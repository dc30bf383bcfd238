package io.rdmatrace.capture.replay;

import io.rdmatrace.capture.oob.OobChannel;
import io.rdmatrace.capture.oob.OobException;
import io.rdmatrace.capture.oob.OobMessage;
import io.rdmatrace.capture.oob.OobObserver;
import io.rdmatrace.capture.oob.OobServer;
import io.rdmatrace.capture.oob.OobSettings;
import io.rdmatrace.capture.oob.QpParams;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.names.GidText;
import io.rdmatrace.trace.model.OobEvent;

/**
 * The out-of-band exchange again, over the capture agent's own channel: every message the
 * recording sent is sent again in the same place, carrying this host's fresh values (its new
 * QPN, GID, buffer address and rkey; the recorded PSN), and every message it received is awaited
 * in the same place; a received PARAMS teaches the value map the peer's fresh numbers. Both
 * replaying hosts follow their recordings, whose orders were consistent when they were made, so
 * the exchange cannot deadlock; every wait is bounded by the settings' message wait.
 */
final class OobReplay implements AutoCloseable {
    /** How this host reaches its peer: by accepting on a bound server, or by connecting. */
    sealed interface Link permits Listen, Connect {
    }

    record Listen(OobServer server) implements Link {
    }

    record Connect(java.net.InetSocketAddress peer) implements Link {
    }

    private final Link link;
    private final OobSettings settings;
    private final OobObserver observer;
    private final ValueMap values;
    private OobChannel channel;

    OobReplay(Link link, OobSettings settings, OobObserver observer, ValueMap values) {
        this.link = link;
        this.settings = settings;
        this.observer = observer;
        this.values = values;
    }

    /** Replays one recorded message (HELLO is the channel's own handshake, made on the first message). */
    void replay(OobEvent event) throws OobException {
        if (event.oobKind() == OobEvent.Kind.INVALID) {
            return;
        }
        if (channel == null) {
            channel = link instanceof Listen l ? l.server().accept(settings, observer)
                    : OobChannel.connect(((Connect) link).peer(), settings, observer);
        }
        Attrs a = event.attrs();
        String text = a.text(Attr.MESSAGE) == null ? "" : a.text(Attr.MESSAGE);
        boolean sent = event.direction() == OobEvent.Direction.SENT;
        switch (event.oobKind()) {
            case HELLO -> {
                // exchanged by accept/connect above
            }
            case PARAMS -> {
                if (sent) {
                    channel.send(new OobMessage.Params(fresh(a)));
                } else {
                    learn(a, channel.expect(OobMessage.Params.class, "PARAMS").params());
                }
            }
            case BARRIER -> {
                if (sent) {
                    channel.send(new OobMessage.Barrier(text));
                } else {
                    channel.expect(OobMessage.Barrier.class, "BARRIER " + text);
                }
            }
            case BARRIER_ACK -> {
                if (sent) {
                    channel.send(new OobMessage.BarrierAck(text));
                } else {
                    channel.expect(OobMessage.BarrierAck.class, "BARRIER_ACK " + text);
                }
            }
            case DONE -> {
                if (sent) {
                    channel.send(new OobMessage.Done(text.startsWith("PASS"), text.replaceFirst("^(PASS|FAIL)(: )?", "")));
                } else {
                    channel.expect(OobMessage.Done.class, "DONE");
                }
            }
            case ERROR -> {
                if (sent) {
                    channel.sendError(text);
                } else {
                    try {
                        channel.receive("ERROR");
                    } catch (OobException e) {
                        if (e.kind() != OobException.Kind.PEER_ERROR) {
                            throw e;
                        }
                    }
                }
            }
            default -> {
                // INVALID handled above
            }
        }
    }

    /** The recorded PARAMS with this host's values where the recording had its own. */
    private QpParams fresh(Attrs a) {
        String gid = a.text(Attr.GID);
        byte[] raw = gid == null ? new byte[QpParams.GID_BYTES] : GidText.bytes(values.localGid(gid));
        return new QpParams((int) a.get(Attr.CONN_INDEX, 0), (int) values.localQpn(a.get(Attr.QP_NUM, 0)),
                (int) a.get(Attr.LID, 0), raw, (int) a.get(Attr.GID_INDEX, 0), (int) a.get(Attr.PSN, 0),
                (int) a.get(Attr.PATH_MTU, 3), values.localAddress(a.get(Attr.ADDR, 0)),
                (int) values.localKey(a.get(Attr.RKEY, 0)), a.get(Attr.LENGTH, 0), (int) a.get(Attr.PKEY_INDEX, 0),
                (int) a.get(Attr.QP_TYPE, 2));
    }

    /** What the recording was told, mapped to what the peer tells now. */
    private void learn(Attrs recorded, QpParams now) {
        values.remoteQpn(recorded.get(Attr.QP_NUM, 0), Integer.toUnsignedLong(now.qpNum()));
        values.remoteGid(recorded.text(Attr.GID), GidText.format(now.gid()));
        values.remoteKey(recorded.get(Attr.RKEY, 0), Integer.toUnsignedLong(now.rkey()));
        values.remoteRegion(recorded.get(Attr.ADDR, 0), recorded.get(Attr.LENGTH, 0), now.mrAddr());
    }

    /** The peer's host id once connected, else null. */
    String peerHost() {
        return channel == null ? null : channel.peerHello().hostId();
    }

    @Override
    public void close() {
        if (channel != null) {
            channel.close();
        }
        if (link instanceof Listen l) {
            l.server().close();
        }
    }
}
