package io.rdmatrace.fleet;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * What one query view returned on one engine, as text per value and sorted, so two engines' answers compare
 * exactly: integers print as integers whatever their Java type (DuckDB's HUGEINT sums, Spark's longs), NULL as
 * {@code NULL}.
 */
public record QueryRows(String view, List<String> columns, List<List<String>> rows) {
    public QueryRows {
        Objects.requireNonNull(view, "view");
        columns = List.copyOf(columns);
        List<List<String>> sorted = new ArrayList<>();
        for (List<String> r : rows) {
            sorted.add(List.copyOf(r));
        }
        sorted.sort(ROW_ORDER);
        rows = List.copyOf(sorted);
    }

    private static final Comparator<List<String>> ROW_ORDER = (a, b) -> {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = a.get(i).compareTo(b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    };

    /** One value as both engines' rows are compared. */
    public static String text(Object value) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof Byte || value instanceof Short || value instanceof Integer || value instanceof Long
                || value instanceof BigInteger) {
            return new BigInteger(value.toString()).toString();
        }
        if (value instanceof BigDecimal d) {
            return d.stripTrailingZeros().toPlainString();
        }
        return value.toString();
    }

    /** Tab-separated, a header line first: what the spark-submit main prints. */
    public String tsv() {
        StringBuilder b = new StringBuilder(String.join("\t", columns)).append('\n');
        for (List<String> r : rows) {
            b.append(String.join("\t", r)).append('\n');
        }
        return b.toString();
    }
}
