package io.rdmatrace.capture.record;

import io.rdmatrace.abi.QpMask;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.AttrRow;
import io.rdmatrace.verbs.QpAnswer;
import io.rdmatrace.verbs.QpCap;
import java.util.List;

/**
 * What an ibv_query_qp event's {@code out} holds: every recorded ibv_qp_attr field of the answer
 * (its cap excepted) plus the init attributes (CQs, type, sq_sig_all, granted caps, QP number), as
 * one {@link AttrRow} refilled per event straight from the answer's bytes ({@link QpAnswer#get}): no
 * decoded {@link io.rdmatrace.verbs.QpAttr}, no builder. The row is this object's: reuse it only
 * for one event at a time.
 */
public final class QueryOutputs {
    // the caps recorded are the init attributes' (what the QP was granted), not the answer's
    private final QpFieldRow fields = new QpFieldRow(f -> f.mask() != QpMask.CAP, List.of(Attr.SEND_CQ,
            Attr.RECV_CQ, Attr.QP_TYPE, Attr.SQ_SIG_ALL, Attr.MAX_SEND_WR, Attr.MAX_RECV_WR, Attr.MAX_SEND_SGE,
            Attr.MAX_RECV_SGE, Attr.MAX_INLINE_DATA, Attr.QP_NUM));
    private final int sendCqAt = fields.indexOf(Attr.SEND_CQ);
    private final int recvCqAt = fields.indexOf(Attr.RECV_CQ);
    private final int qpTypeAt = fields.indexOf(Attr.QP_TYPE);
    private final int sqSigAllAt = fields.indexOf(Attr.SQ_SIG_ALL);
    private final int maxSendWrAt = fields.indexOf(Attr.MAX_SEND_WR);
    private final int maxRecvWrAt = fields.indexOf(Attr.MAX_RECV_WR);
    private final int maxSendSgeAt = fields.indexOf(Attr.MAX_SEND_SGE);
    private final int maxRecvSgeAt = fields.indexOf(Attr.MAX_RECV_SGE);
    private final int maxInlineDataAt = fields.indexOf(Attr.MAX_INLINE_DATA);
    private final int qpNumAt = fields.indexOf(Attr.QP_NUM);

    /** Fills the row from {@code q}, the GIDs' text through {@code gids}, and returns it. */
    public AttrRow fill(QpAnswer q, GidCache gids) {
        QpFieldRow s = fields;
        AttrRow r = s.row();
        r.set(sendCqAt, q.sendCqHandle());
        r.set(recvCqAt, q.recvCqHandle());
        r.set(qpTypeAt, q.qpType().value());
        r.set(sqSigAllAt, q.sqSigAll() ? 1 : 0);
        QpCap cap = q.initCap();
        r.set(maxSendWrAt, Integer.toUnsignedLong(cap.maxSendWr()));
        r.set(maxRecvWrAt, Integer.toUnsignedLong(cap.maxRecvWr()));
        r.set(maxSendSgeAt, Integer.toUnsignedLong(cap.maxSendSge()));
        r.set(maxRecvSgeAt, Integer.toUnsignedLong(cap.maxRecvSge()));
        r.set(maxInlineDataAt, Integer.toUnsignedLong(cap.maxInlineData()));
        r.set(qpNumAt, Integer.toUnsignedLong(q.qpNum()));
        s.fill(q, gids);
        return r;
    }
}
