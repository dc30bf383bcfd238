package io.rdmatrace.capture.record;

import io.rdmatrace.abi.CType;
import io.rdmatrace.abi.QpField;
import io.rdmatrace.abi.ValueKind;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.AttrRow;
import io.rdmatrace.trace.model.QpFieldAttrs;
import io.rdmatrace.verbs.QpAnswer;
import io.rdmatrace.verbs.QpAttr;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/**
 * The recorded ibv_qp_attr fields one kind of event writes (a query's answer, a modify's attr_mask),
 * the {@link AttrRow} they go to together with the event's other attributes, and each field's index in
 * that row: worked out once per kind, so an event only copies values. The row is this object's:
 * reuse it only for one event at a time.
 */
final class QpFieldRow {
    private final AttrRow row;
    /** The number fields, their row index, and whether each is a boolean (written as 0/1). */
    private final QpField[] numbers;
    private final int[] numberAt;
    private final boolean[] bool;
    /** The GID fields and their text index. */
    private final QpField[] gids;
    private final int[] gidAt;

    /**
     * @param selected which of the recorded fields the event writes
     * @param others the event's numeric attributes besides the fields (the QP number, the mask, ...)
     */
    QpFieldRow(Predicate<QpField> selected, List<Attr> others) {
        List<QpField> numberList = new ArrayList<>();
        List<QpField> gidList = new ArrayList<>();
        for (QpField f : QpFieldAttrs.recorded()) {
            if (selected.test(f)) {
                (f.cType() == CType.GID ? gidList : numberList).add(f);
            }
        }
        List<Attr> numeric = new ArrayList<>(others);
        numberList.forEach(f -> numeric.add(QpFieldAttrs.attr(f)));
        numeric.sort(Comparator.comparingInt(Attr::code));
        List<Attr> text = new ArrayList<>(gidList.stream().map(QpFieldAttrs::attr).toList());
        text.sort(Comparator.comparingInt(Attr::code));
        row = new AttrRow(numeric, text); // refuses an attribute named twice
        numbers = numberList.toArray(new QpField[0]);
        numberAt = new int[numbers.length];
        bool = new boolean[numbers.length];
        for (int i = 0; i < numbers.length; i++) {
            numberAt[i] = row.indexOf(QpFieldAttrs.attr(numbers[i]));
            bool[i] = numbers[i].kind() == ValueKind.BOOL;
        }
        gids = gidList.toArray(new QpField[0]);
        gidAt = new int[gids.length];
        for (int i = 0; i < gids.length; i++) {
            gidAt[i] = row.textIndexOf(QpFieldAttrs.attr(gids[i]));
        }
    }

    /** The row the fields are written to. */
    AttrRow row() {
        return row;
    }

    /** The row index of one of the other attributes. */
    int indexOf(Attr a) {
        return row.indexOf(a);
    }

    /** Writes the fields a modify's attributes hold (GIDs' text through {@code gidTexts}). */
    void fill(QpAttr a, GidCache gidTexts) {
        for (int i = 0; i < numbers.length; i++) {
            setNumber(i, a.get(numbers[i]));
        }
        for (int i = 0; i < gids.length; i++) {
            row.setText(gidAt[i], gidTexts.text(a.gid(gids[i])));
        }
    }

    /** Writes the fields of a query's answer, read in place (GIDs' text through {@code gidTexts}). */
    void fill(QpAnswer q, GidCache gidTexts) {
        for (int i = 0; i < numbers.length; i++) {
            setNumber(i, q.get(numbers[i]));
        }
        for (int i = 0; i < gids.length; i++) {
            row.setText(gidAt[i], gidTexts.text(q, gids[i]));
        }
    }

    /** A boolean field as 0/1, as the attribute builders wrote it. */
    private void setNumber(int i, long value) {
        row.set(numberAt[i], bool[i] ? (value != 0 ? 1 : 0) : value);
    }
}
