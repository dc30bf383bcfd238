package io.rdmatrace.analyzer.load;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.rdmatrace.trace.Attr;
import io.rdmatrace.trace.Attrs;

/**
 * Rows of one base table held in memory until the host's pass is over, storing only the
 * columns each row sets. When loaded, only the columns some row set travel to DuckDB (the
 * table's other columns stay NULL through {@code INSERT ... BY NAME}).
 */
final class SparseRows {
    private final Table table;
    private final Map<String, Integer> positions;
    private final List<Row> rows = new ArrayList<>();
    private final boolean[] present;
    /** Per column-name prefix ("", "in_", "out_"): attribute ordinal → column position, -1 for none. */
    private final Map<String, int[]> attrPositions = new HashMap<>(4);

    SparseRows(Table table) {
        this.table = table;
        this.positions = table.positions();
        this.present = new boolean[table.columns().size()];
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
        return rows.size();
    }

    Row add() {
        Row row = new Row();
        rows.add(row);
        return row;
    }

    /** The columns at least one row set, in table order. */
    List<Column> presentColumns() {
        List<Column> columns = new ArrayList<>();
        for (int i = 0; i < present.length; i++) {
            if (present[i]) {
                columns.add(table.columns().get(i));
            }
        }
        return columns;
    }

    /** Writes rows [from, to) into a reset builder whose columns are {@link #presentColumns()}. */
    void fill(BatchBuilder batch, int from, int to) {
        int[] slot = new int[present.length];
        int next = 0;
        for (int i = 0; i < present.length; i++) {
            slot[i] = present[i] ? next++ : -1;
        }
        for (int r = from; r < to; r++) {
            Row row = rows.get(r);
            int index = batch.nextRow();
            for (int k = 0; k < row.count; k++) {
                int column = slot[row.columns[k]];
                Object value = row.values[k];
                if (value instanceof String text) {
                    batch.setText(column, index, text);
                } else {
                    batch.setLong(column, index, (Long) value);
                }
            }
        }
    }

    /** One row under construction; setting a column twice keeps both (the last one wins in Arrow). */
    final class Row {
        private int[] columns = new int[8];
        private Object[] values = new Object[8];
        private int count;

        Row put(String column, long value) {
            return set(column, value);
        }

        Row put(String column, boolean value) {
            return set(column, value ? 1L : 0L);
        }

        /** A null text leaves the column NULL. */
        Row put(String column, String value) {
            return value == null ? this : set(column, value);
        }

        /** Every attribute of {@code attrs} into its column {@code prefix + attr.column()}. */
        Row attrs(String prefix, Attrs attrs) {
            if (attrs.size() + attrs.textSize() == 0) {
                return this;
            }
            int[] at = attrPositions(prefix);
            for (int i = 0; i < attrs.size(); i++) {
                set(at, prefix, attrs.attr(i), attrs.value(i));
            }
            for (int i = 0; i < attrs.textSize(); i++) {
                String text = attrs.text(i);
                if (text != null) {
                    set(at, prefix, attrs.textAttr(i), text);
                }
            }
            return this;
        }

        private void set(int[] at, String prefix, Attr attr, Object value) {
            int position = at[attr.ordinal()];
            if (position < 0) {
                throw new IllegalArgumentException(table.name() + " has no column " + prefix + attr.column());
            }
            set(position, value);
        }

        private Row set(String column, Object value) {
            Integer position = positions.get(column);
            if (position == null) {
                throw new IllegalArgumentException(table.name() + " has no column " + column);
            }
            return set(position, value);
        }

        private Row set(int position, Object value) {
            if (count == columns.length) {
                columns = Arrays.copyOf(columns, count * 2);
                values = Arrays.copyOf(values, count * 2);
            }
            columns[count] = position;
            values[count++] = value;
            present[position] = true;
            return this;
        }
    }
}
