package io.rdmatrace.trace.model;

import io.rdmatrace.abi.CType;
import io.rdmatrace.abi.QpField;
import io.rdmatrace.abi.ValueKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The trace attribute each {@code ibv_qp_attr} field of the verbs ABI model is recorded as
 * ({@link QpField#traceAttr()} resolved to an {@link Attr}). Recorders, replay and the analyzer
 * reach qp_attr fields through here, so a field added to the model is recorded, loaded, compared
 * and replayed without naming it anywhere else.
 */
public final class QpFieldAttrs {
    private static final Attr[] ATTR = resolve();
    private static final List<QpField> RECORDED = recordedByCode();

    private QpFieldAttrs() {
    }

    /** The attribute {@code f} is recorded as, or null when the trace does not carry it. */
    public static Attr attr(QpField f) {
        return ATTR[f.ordinal()];
    }

    /** The recorded fields in ascending attribute code (the order an {@link Attrs.Builder} keeps). */
    public static List<QpField> recorded() {
        return RECORDED;
    }

    /** The columns of the recorded fields, as the analyzer names them ({@code min_rnr_timer}, {@code dgid}). */
    public static List<String> columns() {
        return RECORDED.stream().map(f -> attr(f).column()).toList();
    }

    private static Attr[] resolve() {
        Attr[] attrs = new Attr[QpField.all().size()];
        for (QpField f : QpField.all()) {
            if (f.traceAttr() == null) {
                continue;
            }
            Attr a;
            try {
                a = Attr.valueOf(f.traceAttr());
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("verbs ABI model: " + f + " is recorded as " + f.traceAttr()
                        + ", which Attr does not have (add it there with a new code)", e);
            }
            if (f.trace().declaresAttr() && a.code() != f.trace().code()) {
                throw new IllegalStateException("verbs ABI model: " + f + " declares " + a + " with code "
                        + f.trace().code() + ", the trace has " + a.code() + " (rebuild trace-format)");
            }
            boolean text = f.cType() == CType.GID;
            boolean bool = f.kind() == ValueKind.BOOL;
            if (a.isText() != text || (a.kind() == AttrKind.BOOL) != bool) {
                throw new IllegalStateException("verbs ABI model: " + f + " (" + f.cType() + ", " + f.kind()
                        + ") cannot be recorded as " + a + " (" + a.kind() + ")");
            }
            attrs[f.ordinal()] = a;
        }
        return attrs;
    }

    private static List<QpField> recordedByCode() {
        List<QpField> fields = new ArrayList<>();
        for (QpField f : QpField.all()) {
            if (ATTR[f.ordinal()] != null) {
                fields.add(f);
            }
        }
        fields.sort(Comparator.comparingInt(f -> ATTR[f.ordinal()].code()));
        return List.copyOf(fields);
    }
}
