package io.rdmatrace.analyzer.load;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;

import io.rdmatrace.analyzer.rule.BundledFiles;

/**
 * Creates everything rules can read, in two steps around loading: {@link #createBaseTables}
 * (from the trace model) before, {@link #createViews} after. The view scripts
 * {@code rules/_views/*.sql} run in file-name order; they materialise the small control-path
 * relations as tables (computed once, cheap to plan for every rule) and define the
 * data-path ones as views. On an empty database this is the schema rules are bind-checked against.
 */
public final class Schema {
    /** The class-path subfolder of rules/ holding the view scripts. */
    public static final String VIEWS = "_views";

    private Schema() {
    }

    /** Base tables and reference tables, all empty-or-static: run once before loading. */
    public static void createBaseTables(Connection connection) throws SQLException {
        // one round trip: no network (never download an extension a query happens to mention), the tables
        StringBuilder sql = new StringBuilder("SET autoinstall_known_extensions = false;\nSET autoload_known_extensions = false;\n");
        for (Table table : BaseTables.all()) {
            sql.append(table.createSql()).append(";\n");
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql.toString());
        }
        ReferenceTables.create(connection);
    }

    /** The documented relations, computed from whatever the base tables hold: run once after loading. */
    public static void createViews(Connection connection) throws SQLException {
        createViews(connection, 1);
    }

    /**
     * As {@link #createViews(Connection)}, with statements that do not depend on each other run on up to
     * {@code workers} connections at once ({@link ViewStatements}).
     */
    public static void createViews(Connection connection, int workers) throws SQLException {
        createViews(connection, workers, null);
    }

    /**
     * As {@link #createViews(Connection, int)}, only the statements the relations {@code names} need (all when
     * null): a reader of a few relations does not wait for every other one.
     */
    public static void createViews(Connection connection, int workers, Set<String> names) throws SQLException {
        ViewRunner.run(connection, ViewStatements.of(BundledFiles.sqlFiles(VIEWS), names), workers,
                BundledFiles.ROOT + "/" + VIEWS);
    }

    /**
     * The names {@code sql} mentions outside its strings and comments, lower case: given to
     * {@link #createViews(Connection, int, Set)}, the view statements that query needs.
     */
    public static Set<String> namesIn(String sql) {
        return new java.util.HashSet<>(ViewStatements.words(sql));
    }

    /** Both steps with nothing loaded in between: the empty schema rules bind against. */
    public static void createEmpty(Connection connection) throws SQLException {
        createBaseTables(connection);
        createViews(connection);
    }
}
