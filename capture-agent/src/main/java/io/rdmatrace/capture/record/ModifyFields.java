package io.rdmatrace.capture.record;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.AttrRow;
import io.rdmatrace.verbs.QpAttr;
import java.util.List;

/**
 * What an ibv_modify_qp event's {@code in} holds for one attr_mask: exactly the recorded
 * {@code ibv_qp_attr} fields the mask selects, plus the QP number and the mask itself, as one
 * {@link AttrRow} refilled per event (a bring-up uses a handful of masks over and over): the fields
 * the mask leaves out are never looked at, and no builder sorts or checks entries per event. The
 * row is this object's: reuse it only for one event at a time.
 */
final class ModifyFields {
    private final int mask;
    private final QpFieldRow fields;
    private final int qpNumAt;
    private final int maskAt;

    private ModifyFields(int mask) {
        this.mask = mask;
        fields = new QpFieldRow(f -> (mask & f.maskBit()) != 0, List.of(Attr.QP_NUM, Attr.ATTR_MASK));
        qpNumAt = fields.indexOf(Attr.QP_NUM);
        maskAt = fields.indexOf(Attr.ATTR_MASK);
    }

    static ModifyFields of(int mask) {
        return new ModifyFields(mask);
    }

    int mask() {
        return mask;
    }

    /** Fills the row with {@code a}'s selected fields (GIDs' text through {@code gids}) and returns it. */
    AttrRow fill(int qpNum, QpAttr a, GidCache gids) {
        QpFieldRow s = fields;
        AttrRow r = s.row();
        r.set(qpNumAt, Integer.toUnsignedLong(qpNum));
        r.set(maskAt, Integer.toUnsignedLong(mask));
        s.fill(a, gids);
        return r;
    }
}
