package io.rdmatrace.analyzer.load;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the data-path rows (the bulk of a long trace) live. A file database keeps them in its own
 * {@code _datapath} table: DuckDB compresses a file's tables when it checkpoints. An in-memory
 * database keeps its tables uncompressed (~230 bytes per event), so there each host's rows go to
 * a table of their own in an in-memory database attached with {@code COMPRESS}, checkpointed every
 * {@link #CHECKPOINT_ROWS} rows (DuckDB compresses only when it checkpoints), and {@code _datapath}
 * becomes a view over all of them. One database per host, because a checkpoint waits for every
 * write transaction of its database: hosts sharing one would take turns instead of loading in
 * parallel. A host's table has no host column: the view adds it as a constant. Stored, the same
 * string on every row cost DuckDB a flattened vector per batch, string storage and, at each
 * checkpoint, a dictionary/FSST compression and a distinct-count sample of it (10M-event load
 * without it: 0.97x the CPU). The first database keeps the column: it takes export bundles' rows,
 * of any host.
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
    /** Per catalog, in order: its {@code SELECT} in the view (a host's adds the host column). */
    private final List<String> selects = new ArrayList<>();

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
        store.attach(null); // the first one takes the rows of export bundles
        store.publishView();
        return store;
    }

    /** Where rows of base table {@code table} go when they are not loaded host by host (export bundles). */
    public String insertTable(String table) {
        return connection != null && table.equals(TABLE) ? qualified(catalogs.get(0)) : table;
    }

    /** A place for the data-path rows of {@code host}. */
    Target forHost(String host) throws SQLException {
        return forHosts(List.of(host)).get(0);
    }

    /**
     * A place for the data-path rows of each host, in order. The view over them is made once for
     * all of them: remade per host, a job's thousand hosts cost a thousand views of up to a
     * thousand branches each (1,000 hosts: most of a 5-minute load).
     */
    synchronized List<Target> forHosts(List<String> hosts) throws SQLException {
        List<Target> targets = new ArrayList<>(hosts.size());
        for (String host : hosts) {
            if (connection == null) {
                targets.add(new Target(TABLE, null, checkpointRows, true));
            } else {
                String catalog = attach(host);
                targets.add(new Target(qualified(catalog), catalog, checkpointRows, false));
            }
        }
        if (connection != null && !hosts.isEmpty()) {
            publishView();
        }
        return targets;
    }

    /** Attaches the next database: its table has a host column when {@code host} is null, else holds only {@code host}'s rows. */
    private String attach(String host) throws SQLException {
        String catalog = TABLE + "_" + catalogs.size();
        catalogs.add(catalog);
        String create;
        if (host == null) {
            create = BaseTables.DATAPATH.createSql(qualified(catalog));
            selects.add("SELECT * FROM " + qualified(catalog));
        } else {
            create = BaseTables.DATAPATH.createSqlWithoutHost(qualified(catalog));
            selects.add("SELECT " + ArrowIngest.literal(host) + " AS host, * FROM " + qualified(catalog));
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute("ATTACH ':memory:' AS " + catalog + " (COMPRESS);\n" + create);
        }
        return catalog;
    }

    /** {@code _datapath}: the view over every attached database's rows. */
    private void publishView() throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE OR REPLACE VIEW main." + TABLE + " AS " + String.join(" UNION ALL ", selects));
        }
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
     * @param hostColumn     whether the table has a host column (else it holds one host's rows only)
     */
    record Target(String table, String catalog, int checkpointRows, boolean hostColumn) {
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
