package io.rdmatrace.analyzer.load;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Where the data-path rows (the bulk of a long trace) live. A file database keeps them in its own
 * {@code _datapath} table: DuckDB compresses a file's tables when it checkpoints. An in-memory
 * database keeps its tables uncompressed (~230 bytes per event), so there each host's rows go to
 * a table of their own in an in-memory database attached with {@code COMPRESS}, checkpointed every
 * {@link #CHECKPOINT_ROWS} rows (DuckDB compresses only when it checkpoints), and {@code _datapath}
 * becomes a view over all of them. One database per host, because a checkpoint waits for every
 * write transaction of its database: hosts sharing one would take turns instead of loading in
 * parallel.
 */
public final class DatapathStore {
    /**
     * Rows between checkpoints, in whole row groups (122,880 rows): the uncompressed rows a host
     * holds at most (~50 MB). 2 groups measured against 8: 0.70x the peak memory of a 10M-event
     * analyze, the same time.
     */
    static final int CHECKPOINT_ROWS = 2 * 122_880;

    private static final String TABLE = BaseTables.DATAPATH.name();

    /** For DDL (attach, view); null: rows go to the database's own table. */
    private final Connection connection;
    private final int checkpointRows;
    private final List<String> catalogs = new ArrayList<>();

    private DatapathStore(Connection connection, int checkpointRows) {
        this.connection = connection;
        this.checkpointRows = checkpointRows;
    }

    /** Rows go to the database's own {@code _datapath} table (a file database, tests). */
    public static DatapathStore plain() {
        return new DatapathStore(null, Integer.MAX_VALUE);
    }

    /**
     * Rows go to compressed per-host databases, {@code _datapath} is a view over them. Run once,
     * after the base tables were created and before anything is loaded.
     */
    public static DatapathStore compressed(Connection connection) throws SQLException {
        return compressed(connection, CHECKPOINT_ROWS);
    }

    static DatapathStore compressed(Connection connection, int checkpointRows) throws SQLException {
        DatapathStore store = new DatapathStore(connection, checkpointRows);
        try (Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE " + TABLE);
        }
        store.attach(); // the first one takes the rows of export bundles
        return store;
    }

    /** Where rows of base table {@code table} go when they are not loaded host by host (export bundles). */
    public String insertTable(String table) {
        return connection != null && table.equals(TABLE) ? qualified(catalogs.get(0)) : table;
    }

    /** A place for one host's data-path rows. */
    synchronized Target forHost() throws SQLException {
        if (connection == null) {
            return new Target(TABLE, null, checkpointRows);
        }
        String catalog = attach();
        return new Target(qualified(catalog), catalog, checkpointRows);
    }

    private String attach() throws SQLException {
        String catalog = TABLE + "_" + catalogs.size();
        catalogs.add(catalog);
        String view = catalogs.stream().map(c -> "SELECT * FROM " + qualified(c)).collect(Collectors.joining(" UNION ALL "));
        try (Statement statement = connection.createStatement()) {
            statement.execute("ATTACH ':memory:' AS " + catalog + " (COMPRESS);\n"
                    + BaseTables.DATAPATH.createSql(qualified(catalog)) + ";\n"
                    + "CREATE OR REPLACE VIEW main." + TABLE + " AS " + view);
        }
        return catalog;
    }

    private static String qualified(String catalog) {
        return catalog + ".main." + TABLE;
    }

    /**
     * One host's table and, when compressed, its database, which {@link #checkpoint} compresses.
     *
     * @param table   the qualified table name to insert into
     * @param catalog the attached database, or null when the rows go to the main database's table
     * @param checkpointRows rows to append before the next {@link #checkpoint}
     */
    record Target(String table, String catalog, int checkpointRows) {
        /**
         * Whether the last part, of {@code rows} rows, is worth a checkpoint: a bring-up's few
         * hundred rows are not (its analysis would wait for the checkpoint for nothing).
         */
        boolean checkpointLast(long rows) {
            return catalog != null && rows >= checkpointRows / 8;
        }

        /** Compresses the rows appended since the last checkpoint (only this host writes to its database). */
        void checkpoint(Connection connection) throws SQLException {
            if (catalog != null) {
                try (Statement statement = connection.createStatement()) {
                    statement.execute("CHECKPOINT " + catalog);
                }
            }
        }
    }
}
