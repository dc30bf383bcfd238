package io.rdmatrace.capture.record;

import io.rdmatrace.abi.CType;
import io.rdmatrace.abi.QpField;
import io.rdmatrace.abi.QpMask;
import io.rdmatrace.abi.ValueKind;
import io.rdmatrace.trace.Attr;
import io.rdmatrace.trace.AttrRow;
import io.rdmatrace.trace.QpFieldAttrs;
import io.rdmatrace.verbs.QpCap;
import io.rdmatrace.verbs.QpQuery;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What an ibv_query_qp event's {@code out} holds: every recorded ibv_qp_attr field of the answer
 * (its cap excepted) plus the init attributes (CQs, type, sq_sig_all, granted caps, QP number), as
 * one {@link AttrRow} refilled per event straight from the answer's bytes ({@link QpQuery#get}): no
 * decoded {@link io.rdmatrace.verbs.QpAttr}, no builder. The row is this object's: reuse it only
 * for one event at a time.
 */
public final class QueryOutputs {
    private final AttrRow row;
    private final int sendCqAt;
    private final int recvCqAt;
    private final int qpTypeAt;
    private final int sqSigAllAt;
    private final int maxSendWrAt;
    private final int maxRecvWrAt;
    private final int maxSendSgeAt;
    private final int maxRecvSgeAt;
    private final int maxInlineDataAt;
    private final int qpNumAt;
    /** The answer's number fields, their row index, and whether each is a boolean (written as 0/1). */
    private final QpField[] fields;
    private final int[] fieldAt;
    private final boolean[] bool;
    /** The answer's GID fields and their text index. */
    private final QpField[] gidFields;
    private final int[] gidAt;

    public QueryOutputs() {
        List<QpField> numbers = new ArrayList<>();
        List<QpField> gids = new ArrayList<>();
        for (QpField f : QpFieldAttrs.recorded()) {
            if (f.mask() == QpMask.CAP) {
                continue; // the caps recorded are the init attributes' (what the QP was granted)
            }
            (f.cType() == CType.GID ? gids : numbers).add(f);
        }
        List<Attr> numeric = new ArrayList<>(List.of(Attr.SEND_CQ, Attr.RECV_CQ, Attr.QP_TYPE, Attr.SQ_SIG_ALL,
                Attr.MAX_SEND_WR, Attr.MAX_RECV_WR, Attr.MAX_SEND_SGE, Attr.MAX_RECV_SGE, Attr.MAX_INLINE_DATA,
                Attr.QP_NUM));
        numbers.forEach(f -> numeric.add(QpFieldAttrs.attr(f)));
        numeric.sort(Comparator.comparingInt(Attr::code));
        List<Attr> text = new ArrayList<>(gids.stream().map(QpFieldAttrs::attr).toList());
        text.sort(Comparator.comparingInt(Attr::code));
        row = new AttrRow(numeric, text); // refuses an attribute named twice
        sendCqAt = row.indexOf(Attr.SEND_CQ);
        recvCqAt = row.indexOf(Attr.RECV_CQ);
        qpTypeAt = row.indexOf(Attr.QP_TYPE);
        sqSigAllAt = row.indexOf(Attr.SQ_SIG_ALL);
        maxSendWrAt = row.indexOf(Attr.MAX_SEND_WR);
        maxRecvWrAt = row.indexOf(Attr.MAX_RECV_WR);
        maxSendSgeAt = row.indexOf(Attr.MAX_SEND_SGE);
        maxRecvSgeAt = row.indexOf(Attr.MAX_RECV_SGE);
        maxInlineDataAt = row.indexOf(Attr.MAX_INLINE_DATA);
        qpNumAt = row.indexOf(Attr.QP_NUM);
        fields = numbers.toArray(new QpField[0]);
        fieldAt = new int[fields.length];
        bool = new boolean[fields.length];
        for (int i = 0; i < fields.length; i++) {
            fieldAt[i] = row.indexOf(QpFieldAttrs.attr(fields[i]));
            bool[i] = fields[i].kind() == ValueKind.BOOL;
        }
        gidFields = gids.toArray(new QpField[0]);
        gidAt = new int[gidFields.length];
        for (int i = 0; i < gidFields.length; i++) {
            gidAt[i] = row.textIndexOf(QpFieldAttrs.attr(gidFields[i]));
        }
    }

    /** Fills the row from {@code q}, the GIDs' text through {@code gids}, and returns it. */
    public AttrRow fill(QpQuery q, GidCache gids) {
        AttrRow r = row;
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
        for (int i = 0; i < fields.length; i++) {
            long v = q.get(fields[i]);
            r.set(fieldAt[i], bool[i] ? (v != 0 ? 1 : 0) : v);
        }
        for (int i = 0; i < gidFields.length; i++) {
            r.setText(gidAt[i], gids.text(q, gidFields[i]));
        }
        return r;
    }
}
