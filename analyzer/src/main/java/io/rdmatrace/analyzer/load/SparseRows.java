package io.rdmatrace.analyzer.load;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;

/**
 * Rows of one base table held in memory until the host's pass is over, column by column in pages
 * of {@link #PAGE} rows: a page of a column (its values, and a bit per row saying which rows set
 * it) exists once a row of that page sets the column. A table of ~350 mostly unset columns costs
 * only the columns in use, with no object per value and no copying as rows are added (a row per
 * value boxed in an object array made the 1,000-QP bring-up's load collect garbage). When loaded,
 * only the columns some row set travel to DuckDB (the table's other columns stay NULL through
 * {@code INSERT ... BY NAME}).
 *
 * <p>A page's values start with room for {@link #FIRST_ROOM} rows and double as rows set them: a
 * job's thousand processes have some 100 control-path calls each, and a full page (8 KB) per present
 * column of each host's {@code _call} held ~700 MB of heap until the hosts' cold rows were loaded.
 */
final class SparseRows {
    private static final int PAGE_SHIFT = 10;
    /** Rows per page: a page of a number column is 8 KB. */
    private static final int PAGE = 1 << PAGE_SHIFT;
    /** Rows a page's values have room for at first. */
    private static final int FIRST_ROOM = 16;

    private final Table table;
    private final Map<String, Integer> positions;
    private final boolean[] text;
    /** [column][page][row in page]: the values, null until a row sets the column (text columns use {@link #texts}). */
    private final long[][][] longs;
    private final String[][][] texts;
    /** [column][page][row in page / 64]: the rows that set the column, one bit each. */
    private final long[][][] set;
    /** Per column-name prefix ("", "in_", "out_"): attribute ordinal → column position, -1 for none. */
    private final Map<String, int[]> attrPositions = new HashMap<>(4);
    private int size;
    /** Pages each column's page arrays have room for. */
    private int pages = 4;

    SparseRows(Table table) {
        this.table = table;
        this.positions = table.positions();
        int columns = table.columns().size();
        this.text = new boolean[columns];
        for (int c = 0; c < columns; c++) {
            text[c] = table.columns().get(c).type() == SqlType.VARCHAR;
        }
        this.longs = new long[columns][][];
        this.texts = new String[columns][][];
        this.set = new long[columns][][];
    }

    /**
     * Where each attribute's {@code prefix + column} lives, resolved once per prefix: an event's
     * attributes are then stored without building or hashing a column name per value.
     */
    private int[] attrPositions(String prefix) {
        int[] byOrdinal = attrPositions.get(prefix);
        if (byOrdinal == null) {
            Attr[] attrs = Attr.values();
            byOrdinal = new int[attrs.length];
            for (Attr attr : attrs) {
                Integer position = positions.get(prefix + attr.column());
                byOrdinal[attr.ordinal()] = position == null ? -1 : position;
            }
            attrPositions.put(prefix, byOrdinal);
        }
        return byOrdinal;
    }

    Table table() {
        return table;
    }

    int size() {
        return size;
    }

    Row add() {
        if (size == pages << PAGE_SHIFT) {
            pages *= 2; // only the arrays of pages grow; the pages stay where they are
            for (int c = 0; c < set.length; c++) {
                if (set[c] != null) {
                    set[c] = Arrays.copyOf(set[c], pages);
                    if (text[c]) {
                        texts[c] = Arrays.copyOf(texts[c], pages);
                    } else {
                        longs[c] = Arrays.copyOf(longs[c], pages);
                    }
                }
            }
        }
        return new Row(size++);
    }

    /** The columns at least one row set, in table order. */
    List<Column> presentColumns() {
        List<Column> columns = new ArrayList<>();
        for (int c = 0; c < set.length; c++) {
            if (set[c] != null) {
                columns.add(table.columns().get(c));
            }
        }
        return columns;
    }

    /** Whether some row set the column at {@code position} (host not counted). */
    boolean present(int position) {
        return set[position] != null;
    }

    /**
     * Writes rows [from, to) into a reset builder: {@code slots[c]} is the builder's column for
     * this table's column {@code c}, consulted only for the columns some row set.
     */
    void fill(BatchBuilder batch, int from, int to, int[] slots) {
        fill(batch, from, to, slots, -1, null);
    }

    /** As {@link #fill(BatchBuilder, int, int, int[])}, each row also given {@code host} in batch column {@code hostSlot} (unless -1). */
    void fill(BatchBuilder batch, int from, int to, int[] slots, int hostSlot, String host) {
        int[] present = new int[set.length];
        int count = 0;
        for (int c = 0; c < set.length; c++) {
            if (set[c] != null) {
                present[count++] = c;
            }
        }
        for (int r = from; r < to; r++) {
            int index = batch.nextRow();
            if (hostSlot >= 0) {
                batch.setText(hostSlot, index, host);
            }
            int page = r >>> PAGE_SHIFT;
            int at = r & (PAGE - 1);
            long bit = 1L << at;
            int word = at >>> 6;
            for (int i = 0; i < count; i++) {
                int c = present[i];
                long[] bits = set[c][page];
                if (bits != null && (bits[word] & bit) != 0) {
                    if (text[c]) {
                        batch.setText(slots[c], index, texts[c][page][at]);
                    } else {
                        batch.setLong(slots[c], index, longs[c][page][at]);
                    }
                }
            }
        }
    }

    /** Marks column {@code c} set in {@code row}, giving the column and its page their arrays on first use. */
    private void mark(int c, int row) {
        int page = row >>> PAGE_SHIFT;
        if (set[c] == null) {
            set[c] = new long[pages][];
            if (text[c]) {
                texts[c] = new String[pages][];
            } else {
                longs[c] = new long[pages][];
            }
        }
        int at = row & (PAGE - 1);
        if (set[c][page] == null) {
            set[c][page] = new long[PAGE / 64];
            if (text[c]) {
                texts[c][page] = new String[room(at)];
            } else {
                longs[c][page] = new long[room(at)];
            }
        } else if (text[c]) {
            String[] values = texts[c][page];
            if (at >= values.length) {
                texts[c][page] = Arrays.copyOf(values, room(at));
            }
        } else {
            long[] values = longs[c][page];
            if (at >= values.length) {
                longs[c][page] = Arrays.copyOf(values, room(at));
            }
        }
        set[c][page][at >>> 6] |= 1L << at;
    }

    /** The room a page's values need for row {@code at} of the page: a power of two, at most {@link #PAGE}. */
    private static int room(int at) {
        return Math.max(FIRST_ROOM, Integer.highestOneBit(at) << 1);
    }

    /** One row being filled; setting a column twice keeps the last value. */
    final class Row {
        private final int index;

        private Row(int index) {
            this.index = index;
        }

        Row put(String column, long value) {
            setLong(position(column), value);
            return this;
        }

        Row put(String column, boolean value) {
            return put(column, value ? 1L : 0L);
        }

        /** A null text leaves the column NULL. */
        Row put(String column, String value) {
            if (value != null) {
                setText(position(column), value);
            }
            return this;
        }

        /** Every attribute of {@code attrs} into its column {@code prefix + attr.column()}. */
        Row attrs(String prefix, Attrs attrs) {
            if (attrs.size() + attrs.textSize() == 0) {
                return this;
            }
            int[] at = attrPositions(prefix);
            for (int i = 0; i < attrs.size(); i++) {
                setLong(position(at, prefix, attrs.attr(i)), attrs.value(i));
            }
            for (int i = 0; i < attrs.textSize(); i++) {
                String value = attrs.text(i);
                if (value != null) {
                    setText(position(at, prefix, attrs.textAttr(i)), value);
                }
            }
            return this;
        }

        private int position(int[] at, String prefix, Attr attr) {
            int position = at[attr.ordinal()];
            if (position < 0) {
                throw new IllegalArgumentException(table.name() + " has no column " + prefix + attr.column());
            }
            return position;
        }

        private int position(String column) {
            Integer position = positions.get(column);
            if (position == null) {
                throw new IllegalArgumentException(table.name() + " has no column " + column);
            }
            return position;
        }

        private void setLong(int c, long value) {
            if (text[c]) {
                throw new IllegalArgumentException(table.name() + "." + table.columns().get(c).name() + " holds text, not a number");
            }
            mark(c, index);
            longs[c][index >>> PAGE_SHIFT][index & (PAGE - 1)] = value;
        }

        private void setText(int c, String value) {
            if (!text[c]) {
                throw new IllegalArgumentException(table.name() + "." + table.columns().get(c).name() + " holds a number, not text");
            }
            mark(c, index);
            texts[c][index >>> PAGE_SHIFT][index & (PAGE - 1)] = value;
        }
    }
}
