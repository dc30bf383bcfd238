package io.rdmatrace.capture.record;

import io.rdmatrace.abi.QpField;
import io.rdmatrace.trace.Attr;
import io.rdmatrace.trace.QpFieldAttrs;
import java.util.ArrayList;
import java.util.List;

/**
 * The recorded {@code ibv_qp_attr} fields one attr_mask selects, in ascending attribute code, and where
 * QP_NUM and ATTR_MASK go among them: an ibv_modify_qp's inputs are written from here without looking
 * at the fields its mask leaves out (a bring-up uses a handful of masks over and over).
 */
final class ModifyFields {
    private final int mask;
    private final QpField[] fields;
    private final Attr[] attrs;
    /** The index of the first field whose code is above ATTR_MASK's (the ids go before it), or the count. */
    private final int idsAt;

    private ModifyFields(int mask, QpField[] fields, Attr[] attrs, int idsAt) {
        this.mask = mask;
        this.fields = fields;
        this.attrs = attrs;
        this.idsAt = idsAt;
    }

    static ModifyFields of(int mask) {
        List<QpField> selected = new ArrayList<>();
        for (QpField f : QpFieldAttrs.recorded()) {
            if ((mask & f.maskBit()) != 0) {
                selected.add(f);
            }
        }
        QpField[] fields = selected.toArray(new QpField[0]);
        Attr[] attrs = new Attr[fields.length];
        int idsAt = fields.length;
        for (int i = 0; i < fields.length; i++) {
            attrs[i] = QpFieldAttrs.attr(fields[i]);
            if (idsAt == fields.length && attrs[i].code() > Attr.ATTR_MASK.code()) {
                idsAt = i;
            }
        }
        return new ModifyFields(mask, fields, attrs, idsAt);
    }

    int mask() {
        return mask;
    }

    int count() {
        return fields.length;
    }

    QpField field(int i) {
        return fields[i];
    }

    Attr attr(int i) {
        return attrs[i];
    }

    int idsAt() {
        return idsAt;
    }
}
