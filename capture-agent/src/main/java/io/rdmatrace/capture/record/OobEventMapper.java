package io.rdmatrace.capture.record;

import io.rdmatrace.capture.oob.OobMessage;
import io.rdmatrace.capture.oob.QpParams;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.OobEvent;

/** An out-of-band message as the kind and attributes of its OOB trace event (not thread-safe: one per recorder). */
final class OobEventMapper {
    private final Attrs.Builder builder = Attrs.builder();
    private final GidCache gids = new GidCache();

    static OobEvent.Kind kind(OobMessage m) {
        if (m instanceof OobMessage.Hello || m instanceof OobMessage.Auth) {
            return OobEvent.Kind.HELLO;
        } else if (m instanceof OobMessage.Params) {
            return OobEvent.Kind.PARAMS;
        } else if (m instanceof OobMessage.Barrier) {
            return OobEvent.Kind.BARRIER;
        } else if (m instanceof OobMessage.BarrierAck) {
            return OobEvent.Kind.BARRIER_ACK;
        } else if (m instanceof OobMessage.Done) {
            return OobEvent.Kind.DONE;
        }
        return OobEvent.Kind.ERROR;
    }

    Attrs attrs(OobMessage m, int oobVersion) {
        Attrs.Builder b = builder.clear();
        if (m instanceof OobMessage.Hello h) {
            b.put(Attr.OOB_VERSION, oobVersion);
            b.put(Attr.AUTHENTICATED, h.authenticated());
            b.put(Attr.MESSAGE, "host " + h.hostId() + ", " + h.role().label() + ", " + h.qpCount() + " QP(s)");
        } else if (m instanceof OobMessage.Auth) {
            b.put(Attr.AUTHENTICATED, true);
            b.put(Attr.MESSAGE, "auth");
        } else if (m instanceof OobMessage.Params p) {
            params(b, p.params());
        } else if (m instanceof OobMessage.Barrier x) {
            b.put(Attr.MESSAGE, x.phase());
        } else if (m instanceof OobMessage.BarrierAck x) {
            b.put(Attr.MESSAGE, x.phase());
        } else if (m instanceof OobMessage.Done d) {
            b.put(Attr.MESSAGE, (d.passed() ? "PASS" : "FAIL") + (d.text().isEmpty() ? "" : ": " + d.text()));
        } else if (m instanceof OobMessage.Error e) {
            b.put(Attr.MESSAGE, e.text());
        }
        return b.build();
    }

    /** The sender's local parameters; psn is what it told the peer. */
    private void params(Attrs.Builder b, QpParams p) {
        // ascending attribute codes
        b.put(Attr.LID, p.lid());
        b.put(Attr.GID_INDEX, p.gidIndex());
        b.put(Attr.PKEY_INDEX, p.pkeyIndex());
        b.put(Attr.ADDR, p.mrAddr());
        b.put(Attr.LENGTH, p.mrLength());
        b.put(Attr.RKEY, Integer.toUnsignedLong(p.rkey()));
        b.put(Attr.QP_TYPE, p.qpType());
        b.put(Attr.QP_NUM, p.qpNum());
        b.put(Attr.PATH_MTU, p.pathMtu());
        b.put(Attr.PSN, p.psn());
        b.put(Attr.CONN_INDEX, p.qpIndex());
        b.put(Attr.GID, gids.text(p.gid()));
    }
}
