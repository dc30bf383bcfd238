package io.rdmatrace.trace.model;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A fixed list of attributes, chosen once in ascending code order, whose values are set anew for
 * each event. The recorder writes its largest calls (ibv_query_qp's ~45 outputs, ibv_modify_qp's
 * inputs) from rows: the shape is checked once, so an event costs none of a builder's per-entry
 * kind checks, order tests and copies. Every entry is always present. Not thread-safe.
 */
public final class AttrRow implements AttrEntries {

    /** A row with no entries (nothing to set, so it can be shared). */
    public static final AttrRow EMPTY = new AttrRow(List.of(), List.of());

    private final Attr[] attrs;
    private final long[] values;
    private final Attr[] textAttrs;
    private final String[] texts;

    /**
     * @param numeric the numeric (and boolean) attributes, in strictly ascending code order
     * @param text the TEXT attributes, in strictly ascending code order
     */
    public AttrRow(List<Attr> numeric, List<Attr> text) {
        attrs = checked(numeric, false);
        textAttrs = checked(text, true);
        values = new long[attrs.length];
        texts = new String[textAttrs.length];
        Arrays.fill(texts, "");
    }

    private static Attr[] checked(List<Attr> list, boolean text) {
        Attr[] a = list.toArray(new Attr[0]);
        for (int i = 0; i < a.length; i++) {
            if (a[i].isText() != text) {
                throw new IllegalArgumentException(a[i] + (text ? " is not" : " is") + " a TEXT attribute");
            }
            if (i > 0 && a[i].code() <= a[i - 1].code()) {
                throw new IllegalArgumentException("row attributes must ascend by code: " + a[i - 1] + " then " + a[i]);
            }
        }
        return a;
    }

    /** The index of numeric attribute {@code a} in this row, or -1. */
    public int indexOf(Attr a) {
        return find(attrs, a);
    }

    /** The index of TEXT attribute {@code a} in this row, or -1. */
    public int textIndexOf(Attr a) {
        return find(textAttrs, a);
    }

    private static int find(Attr[] attrs, Attr a) {
        for (int i = 0; i < attrs.length; i++) {
            if (attrs[i] == a) {
                return i;
            }
        }
        return -1;
    }

    /** Sets the i-th numeric value (a boolean as 0/1). */
    public void set(int i, long value) {
        values[i] = value;
    }

    /** Sets the i-th text value. */
    public void setText(int i, String value) {
        texts[i] = Objects.requireNonNull(value, "value");
    }

    /** The current values as an immutable set (for a call kept as a value). */
    public Attrs toAttrs() {
        if (attrs.length == 0 && textAttrs.length == 0) {
            return Attrs.EMPTY;
        }
        return Attrs.ofSorted(attrs.clone(), values.clone(), textAttrs.clone(), texts.clone());
    }

    @Override
    public int size() {
        return attrs.length;
    }

    @Override
    public Attr attr(int i) {
        return attrs[i];
    }

    @Override
    public long value(int i) {
        return values[i];
    }

    @Override
    public int textSize() {
        return textAttrs.length;
    }

    @Override
    public Attr textAttr(int i) {
        return textAttrs[i];
    }

    @Override
    public String text(int i) {
        return texts[i];
    }

    @Override
    public String toString() {
        return toAttrs().toString();
    }
}
