package io.rdmatrace.analyzer.load;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A base table the loader fills. Its first column is always {@code host VARCHAR}, which the
 * loader adds per host in SQL; the other columns come from Arrow batches. Base tables are
 * private ({@code _} prefix): rules read the views documented in rules/README.md.
 */
record Table(String name, List<Column> columns) {
    Table {
        columns = List.copyOf(columns);
    }

    String createSql() {
        return createSql(name);
    }

    /** The same table under another (qualified) name, e.g. in an attached database. */
    String createSql(String qualifiedName) {
        return "CREATE TABLE " + qualifiedName + " (host VARCHAR, " + columnDefinitions() + ")";
    }

    /** "name TYPE, ..." of {@link #columns()}. */
    private String columnDefinitions() {
        return columns.stream().map(c -> c.name() + " " + c.type().name()).collect(Collectors.joining(", "));
    }

    /** Column name → position among {@link #columns()} (host not counted). */
    Map<String, Integer> positions() {
        Map<String, Integer> positions = new HashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            positions.put(columns.get(i).name(), i);
        }
        return positions;
    }
}
