package io.rdmatrace.capture.record;

import io.rdmatrace.abi.CType;
import io.rdmatrace.abi.QpField;
import io.rdmatrace.abi.ValueKind;
import io.rdmatrace.trace.Attr;
import io.rdmatrace.trace.AttrRow;
import io.rdmatrace.trace.QpFieldAttrs;
import io.rdmatrace.verbs.QpAttr;
import java.util.ArrayList;
import java.util.Comparator;
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
    private final AttrRow row;
    private final int qpNumAt;
    private final int maskAt;
    /** The selected number fields, their row index, and whether each is a boolean (written as 0/1). */
    private final QpField[] fields;
    private final int[] fieldAt;
    private final boolean[] bool;
    /** The selected GID fields and their text index. */
    private final QpField[] gidFields;
    private final int[] gidAt;

    private ModifyFields(int mask) {
        this.mask = mask;
        List<QpField> numbers = new ArrayList<>();
        List<QpField> gids = new ArrayList<>();
        for (QpField f : QpFieldAttrs.recorded()) {
            if ((mask & f.maskBit()) != 0) {
                (f.cType() == CType.GID ? gids : numbers).add(f);
            }
        }
        List<Attr> numeric = new ArrayList<>(List.of(Attr.QP_NUM, Attr.ATTR_MASK));
        numbers.forEach(f -> numeric.add(QpFieldAttrs.attr(f)));
        numeric.sort(Comparator.comparingInt(Attr::code));
        List<Attr> text = new ArrayList<>(gids.stream().map(QpFieldAttrs::attr).toList());
        text.sort(Comparator.comparingInt(Attr::code));
        row = new AttrRow(numeric, text);
        qpNumAt = row.indexOf(Attr.QP_NUM);
        maskAt = row.indexOf(Attr.ATTR_MASK);
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

    static ModifyFields of(int mask) {
        return new ModifyFields(mask);
    }

    int mask() {
        return mask;
    }

    /** Fills the row with {@code a}'s selected fields (GIDs' text through {@code gids}) and returns it. */
    AttrRow fill(int qpNum, QpAttr a, GidCache gids) {
        AttrRow r = row;
        r.set(qpNumAt, Integer.toUnsignedLong(qpNum));
        r.set(maskAt, Integer.toUnsignedLong(mask));
        for (int i = 0; i < fields.length; i++) {
            long v = a.get(fields[i]);
            r.set(fieldAt[i], bool[i] ? (v != 0 ? 1 : 0) : v);
        }
        for (int i = 0; i < gidFields.length; i++) {
            r.setText(gidAt[i], gids.text(a.gid(gidFields[i])));
        }
        return r;
    }
}
