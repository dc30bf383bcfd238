package io.rdmatrace.capture.replay;

import io.rdmatrace.trace.Attr;
import io.rdmatrace.trace.Attrs;
import io.rdmatrace.trace.GidText;
import io.rdmatrace.verbs.AhAttr;
import io.rdmatrace.verbs.Gid;
import io.rdmatrace.verbs.GlobalRoute;
import io.rdmatrace.verbs.MigState;
import io.rdmatrace.verbs.Mtu;
import io.rdmatrace.verbs.QpAttr;
import io.rdmatrace.verbs.QpCap;
import io.rdmatrace.verbs.QpState;

/**
 * Recorded call arguments back into the binding's structs, with the numbers that belong to the
 * peer or to local objects (destination QPN, GIDs) moved to their replay-time values.
 */
final class QpAttrs {
    private QpAttrs() {
    }

    /** The ibv_qp_attr of a recorded ibv_modify_qp: the recorded fields, zero elsewhere (as after memset). */
    static QpAttr modify(Attrs in, ValueMap values) {
        QpAttr.Builder b = QpAttr.builder();
        if (in.has(Attr.QP_STATE)) {
            b.qpState(QpState.of((int) in.get(Attr.QP_STATE, 0)));
        }
        if (in.has(Attr.CUR_QP_STATE)) {
            b.curQpState(QpState.of((int) in.get(Attr.CUR_QP_STATE, 0)));
        }
        if (in.has(Attr.PATH_MTU)) {
            b.pathMtu(Mtu.of((int) in.get(Attr.PATH_MTU, 0)));
        }
        if (in.has(Attr.PATH_MIG_STATE)) {
            b.pathMigState(MigState.of((int) in.get(Attr.PATH_MIG_STATE, 0)));
        }
        if (in.has(Attr.QKEY)) {
            b.qkey((int) in.get(Attr.QKEY, 0));
        }
        if (in.has(Attr.RQ_PSN)) {
            b.rqPsn((int) in.get(Attr.RQ_PSN, 0));
        }
        if (in.has(Attr.SQ_PSN)) {
            b.sqPsn((int) in.get(Attr.SQ_PSN, 0));
        }
        if (in.has(Attr.DEST_QP_NUM)) {
            b.destQpNum((int) values.peerQpn(in.get(Attr.DEST_QP_NUM, 0)));
        }
        if (in.has(Attr.QP_ACCESS_FLAGS)) {
            b.qpAccessFlags((int) in.get(Attr.QP_ACCESS_FLAGS, 0));
        }
        if (in.has(Attr.MAX_SEND_WR)) {
            b.cap(cap(in));
        }
        if (in.has(Attr.IS_GLOBAL) || in.has(Attr.DLID) || in.has(Attr.AH_PORT_NUM)) {
            b.ahAttr(ah(in, values));
        }
        if (in.has(Attr.PKEY_INDEX)) {
            b.pkeyIndex((int) in.get(Attr.PKEY_INDEX, 0));
        }
        if (in.has(Attr.ALT_PKEY_INDEX)) {
            b.altPkeyIndex((int) in.get(Attr.ALT_PKEY_INDEX, 0));
        }
        if (in.has(Attr.EN_SQD_ASYNC_NOTIFY)) {
            b.enSqdAsyncNotify((int) in.get(Attr.EN_SQD_ASYNC_NOTIFY, 0));
        }
        if (in.has(Attr.MAX_RD_ATOMIC)) {
            b.maxRdAtomic((int) in.get(Attr.MAX_RD_ATOMIC, 0));
        }
        if (in.has(Attr.MAX_DEST_RD_ATOMIC)) {
            b.maxDestRdAtomic((int) in.get(Attr.MAX_DEST_RD_ATOMIC, 0));
        }
        if (in.has(Attr.MIN_RNR_TIMER)) {
            b.minRnrTimer((int) in.get(Attr.MIN_RNR_TIMER, 0));
        }
        if (in.has(Attr.PORT_NUM)) {
            b.portNum((int) in.get(Attr.PORT_NUM, 0));
        }
        if (in.has(Attr.TIMEOUT)) {
            b.timeout((int) in.get(Attr.TIMEOUT, 0));
        }
        if (in.has(Attr.RETRY_CNT)) {
            b.retryCnt((int) in.get(Attr.RETRY_CNT, 0));
        }
        if (in.has(Attr.RNR_RETRY)) {
            b.rnrRetry((int) in.get(Attr.RNR_RETRY, 0));
        }
        if (in.has(Attr.ALT_PORT_NUM)) {
            b.altPortNum((int) in.get(Attr.ALT_PORT_NUM, 0));
        }
        if (in.has(Attr.ALT_TIMEOUT)) {
            b.altTimeout((int) in.get(Attr.ALT_TIMEOUT, 0));
        }
        if (in.has(Attr.RATE_LIMIT)) {
            b.rateLimit((int) in.get(Attr.RATE_LIMIT, 0));
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
