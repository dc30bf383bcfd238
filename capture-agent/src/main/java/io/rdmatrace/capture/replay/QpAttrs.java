package io.rdmatrace.capture.replay;

import io.rdmatrace.abi.QpField;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.names.GidText;
import io.rdmatrace.trace.model.QpFieldAttrs;
import io.rdmatrace.verbs.AhAttr;
import io.rdmatrace.verbs.Gid;
import io.rdmatrace.verbs.GlobalRoute;
import io.rdmatrace.verbs.QpAttr;
import io.rdmatrace.verbs.QpCap;

/**
 * Recorded call arguments back into the binding's structs, with the numbers that belong to the
 * peer or to local objects (destination QPN, GIDs) moved to their replay-time values.
 */
final class QpAttrs {
    private QpAttrs() {
    }

    /**
     * The ibv_qp_attr of a recorded ibv_modify_qp: every recorded field of the verbs ABI model the event
     * carries, zero elsewhere (as after memset); a peer's QPN or GID is moved to its replay-time value.
     */
    static QpAttr modify(Attrs in, ValueMap values) {
        QpAttr.Builder b = QpAttr.builder();
        for (QpField f : QpFieldAttrs.recorded()) {
            Attr attr = QpFieldAttrs.attr(f);
            if (!in.has(attr)) {
                continue;
            }
            switch (f.kind()) {
                case PEER_QPN -> b.set(f, values.peerQpn(in.get(attr, 0)));
                case PEER_GID -> b.set(f, Gid.of(GidText.bytes(values.peerGid(in.text(attr)))));
                default -> b.set(f, in.get(attr, 0));
            }
        }
        return b.build();
    }

    /** The address vector of a recorded modify or create_ah; the destination GID is the peer's as it is now. */
    static AhAttr ah(Attrs in, ValueMap values) {
        String dgid = in.text(Attr.DGID);
        Gid gid = dgid == null ? Gid.ZERO : Gid.of(GidText.bytes(values.peerGid(dgid)));
        GlobalRoute grh = new GlobalRoute(gid, (int) in.get(Attr.FLOW_LABEL, 0), (int) in.get(Attr.SGID_INDEX, 0),
                (int) in.get(Attr.HOP_LIMIT, 0), (int) in.get(Attr.TRAFFIC_CLASS, 0));
        return new AhAttr(grh, (int) in.get(Attr.DLID, 0), (int) in.get(Attr.SL, 0), (int) in.get(Attr.SRC_PATH_BITS, 0),
                (int) in.get(Attr.STATIC_RATE, 0), in.get(Attr.IS_GLOBAL, 0) != 0, (int) in.get(Attr.AH_PORT_NUM, 0));
    }

    /** Requested queue capabilities. */
    static QpCap cap(Attrs in) {
        return new QpCap((int) in.get(Attr.MAX_SEND_WR, 0), (int) in.get(Attr.MAX_RECV_WR, 0),
                (int) in.get(Attr.MAX_SEND_SGE, 0), (int) in.get(Attr.MAX_RECV_SGE, 0),
                (int) in.get(Attr.MAX_INLINE_DATA, 0));
    }
}
