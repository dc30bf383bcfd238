package io.rdmatrace.trace.model;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An immutable, compact set of attribute values: (Attr → long) for numeric kinds and
 * (Attr → String) for {@link AttrKind#TEXT}. Absent means "not recorded" (a nullable column),
 * which is different from 0. Entries are kept sorted by code, so two sets with the same content
 * are equal whatever order they were built in.
 *
 * <p>Hot paths iterate by index ({@link #size()}, {@link #attr(int)}, {@link #value(int)}) and
 * allocate nothing.
 */
public final class Attrs implements AttrEntries {

    /** The empty set. */
    public static final Attrs EMPTY = new Attrs(new Attr[0], new long[0], new Attr[0], new String[0]);

    private final Attr[] numAttrs;
    private final long[] numValues;
    private final Attr[] textAttrs;
    private final String[] textValues;

    private Attrs(Attr[] numAttrs, long[] numValues, Attr[] textAttrs, String[] textValues) {
        this.numAttrs = numAttrs;
        this.numValues = numValues;
        this.textAttrs = textAttrs;
        this.textValues = textValues;
    }

    /**
     * Wraps arrays already in ascending code order without copying (the decoder reads them in
     * that order from disk). The caller gives up the arrays.
     */
    public static Attrs ofSorted(Attr[] numAttrs, long[] numValues, Attr[] textAttrs, String[] textValues) {
        if (numAttrs.length == 0 && textAttrs.length == 0) {
            return EMPTY;
        }
        return new Attrs(numAttrs, numValues, textAttrs, textValues);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Number of numeric entries. */
    @Override
    public int size() {
        return numAttrs.length;
    }

    /** The i-th numeric attribute (ascending code order). */
    @Override
    public Attr attr(int i) {
        return numAttrs[i];
    }

    /** The i-th numeric value. */
    @Override
    public long value(int i) {
        return numValues[i];
    }

    /** Number of text entries. */
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
        return textValues[i];
    }

    /** True when there are no entries at all. */
    public boolean isEmpty() {
        return numAttrs.length == 0 && textAttrs.length == 0;
    }

    /** True when the attribute has a value (numeric or text). */
    public boolean has(Attr a) {
        return a.isText() ? indexOf(textAttrs, a) >= 0 : indexOf(numAttrs, a) >= 0;
    }

    /** The numeric value, or {@code dflt} when absent. */
    public long get(Attr a, long dflt) {
        requireNumeric(a);
        int i = indexOf(numAttrs, a);
        return i >= 0 ? numValues[i] : dflt;
    }

    /** The numeric value, or null when absent. */
    public Long getOrNull(Attr a) {
        requireNumeric(a);
        int i = indexOf(numAttrs, a);
        return i >= 0 ? numValues[i] : null;
    }

    /** The text value, or null when absent. */
    public String text(Attr a) {
        if (!a.isText()) {
            throw new IllegalArgumentException(a + " is not a TEXT attribute");
        }
        int i = indexOf(textAttrs, a);
        return i >= 0 ? textValues[i] : null;
    }

    /** A builder pre-filled with these entries, to derive a changed copy. */
    public Builder toBuilder() {
        Builder b = new Builder();
        for (int i = 0; i < numAttrs.length; i++) {
            b.put(numAttrs[i], numValues[i]);
        }
        for (int i = 0; i < textAttrs.length; i++) {
            b.put(textAttrs[i], textValues[i]);
        }
        return b;
    }

    /** Column name → rendered value, in code order (numeric first), for people and test messages. */
    public Map<String, String> rendered() {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < numAttrs.length; i++) {
            m.put(numAttrs[i].column(), numAttrs[i].render(numValues[i]));
        }
        for (int i = 0; i < textAttrs.length; i++) {
            m.put(textAttrs[i].column(), textValues[i]);
        }
        return m;
    }

    private static void requireNumeric(Attr a) {
        if (a.isText()) {
            throw new IllegalArgumentException(a + " is a TEXT attribute; use text(Attr)");
        }
    }

    private static int indexOf(Attr[] attrs, Attr a) {
        for (int i = 0; i < attrs.length; i++) {
            if (attrs[i] == a) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Attrs)) {
            return false;
        }
        Attrs other = (Attrs) o;
        return Arrays.equals(numAttrs, other.numAttrs) && Arrays.equals(numValues, other.numValues)
                && Arrays.equals(textAttrs, other.textAttrs) && Arrays.equals(textValues, other.textValues);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(numAttrs), Arrays.hashCode(numValues),
                Arrays.hashCode(textAttrs), Arrays.hashCode(textValues));
    }

    @Override
    public String toString() {
        return rendered().toString();
    }

    /**
     * Collects entries; putting the same attribute twice keeps the last value. Not thread-safe;
     * reusable after {@link #build()} via {@link #clear()}.
     */
    public static final class Builder implements AttrEntries {
        private Attr[] numAttrs = new Attr[12];
        private long[] numValues = new long[12];
        private int numCount;
        private Attr[] textAttrs = new Attr[2];
        private String[] textValues = new String[2];
        private int textCount;
        /** True while the numeric entries are in ascending code order (every put so far went above the last). */
        private boolean numSorted = true;

        private Builder() {
        }

        /** Sets a numeric attribute. */
        public Builder put(Attr a, long value) {
            if (a.isText()) {
                throw new IllegalArgumentException(a + " is a TEXT attribute; put a String");
            }
            // ascending puts (what the recorders make) cannot repeat an entry: no scan
            boolean above = numCount == 0 || a.code() > numAttrs[numCount - 1].code();
            if (!(numSorted && above)) {
                for (int i = 0; i < numCount; i++) {
                    if (numAttrs[i] == a) {
                        numValues[i] = value;
                        return this;
                    }
                }
                numSorted &= above;
            }
            if (numCount == numAttrs.length) {
                numAttrs = Arrays.copyOf(numAttrs, numCount * 2);
                numValues = Arrays.copyOf(numValues, numCount * 2);
            }
            numAttrs[numCount] = a;
            numValues[numCount++] = value;
            return this;
        }

        /** Sets a boolean attribute as 0/1. */
        public Builder put(Attr a, boolean value) {
            if (a.kind() != AttrKind.BOOL) {
                throw new IllegalArgumentException(a + " is not a BOOL attribute");
            }
            return put(a, value ? 1L : 0L);
        }

        /** Sets a TEXT attribute; null means absent (removes a previous value). */
        public Builder put(Attr a, String value) {
            if (!a.isText()) {
                throw new IllegalArgumentException(a + " is not a TEXT attribute; put a long");
            }
            for (int i = 0; i < textCount; i++) {
                if (textAttrs[i] == a) {
                    if (value == null) {
                        System.arraycopy(textAttrs, i + 1, textAttrs, i, textCount - i - 1);
                        System.arraycopy(textValues, i + 1, textValues, i, textCount - i - 1);
                        textCount--;
                    } else {
                        textValues[i] = value;
                    }
                    return this;
                }
            }
            if (value == null) {
                return this;
            }
            if (textCount == textAttrs.length) {
                textAttrs = Arrays.copyOf(textAttrs, textCount * 2);
                textValues = Arrays.copyOf(textValues, textCount * 2);
            }
            textAttrs[textCount] = a;
            textValues[textCount++] = value;
            return this;
        }

        /** Removes all entries so the builder can be reused. */
        public Builder clear() {
            Arrays.fill(numAttrs, 0, numCount, null);
            Arrays.fill(textAttrs, 0, textCount, null);
            Arrays.fill(textValues, 0, textCount, null);
            numCount = 0;
            textCount = 0;
            numSorted = true;
            return this;
        }

        /**
         * Puts the entries in ascending code order where they are, as {@link #build()} would order them:
         * the encoder then writes straight from the builder, with no {@link Attrs} in between.
         */
        public void sortInPlace() {
            if (!numSorted) {
                sortByCode(numAttrs, numValues, null, numCount);
                numSorted = true;
            }
            sortByCode(textAttrs, null, textValues, textCount);
        }

        @Override
        public int size() {
            return numCount;
        }

        @Override
        public Attr attr(int i) {
            return numAttrs[i];
        }

        @Override
        public long value(int i) {
            return numValues[i];
        }

        @Override
        public int textSize() {
            return textCount;
        }

        @Override
        public Attr textAttr(int i) {
            return textAttrs[i];
        }

        @Override
        public String text(int i) {
            return textValues[i];
        }

        public Attrs build() {
            if (numCount == 0 && textCount == 0) {
                return EMPTY;
            }
            Attr[] na = Arrays.copyOf(numAttrs, numCount);
            long[] nv = Arrays.copyOf(numValues, numCount);
            Attr[] ta = Arrays.copyOf(textAttrs, textCount);
            String[] tv = Arrays.copyOf(textValues, textCount);
            if (!numSorted) {
                sortByCode(na, nv, null, na.length);
            }
            sortByCode(ta, null, tv, ta.length);
            return new Attrs(na, nv, ta, tv);
        }

        // Insertion sort: sets are small (a dozen entries) and often already in code order.
        private static void sortByCode(Attr[] attrs, long[] longs, String[] texts, int count) {
            for (int i = 1; i < count; i++) {
                Attr a = attrs[i];
                long lv = longs != null ? longs[i] : 0;
                String tv = texts != null ? texts[i] : null;
                int j = i - 1;
                while (j >= 0 && attrs[j].code() > a.code()) {
                    attrs[j + 1] = attrs[j];
                    if (longs != null) {
                        longs[j + 1] = longs[j];
                    }
                    if (texts != null) {
                        texts[j + 1] = texts[j];
                    }
                    j--;
                }
                attrs[j + 1] = a;
                if (longs != null) {
                    longs[j + 1] = lv;
                }
                if (texts != null) {
                    texts[j + 1] = tv;
                }
            }
        }
    }
}
