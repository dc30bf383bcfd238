package io.rdmatrace.analyzer.load;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the data-path rows (the bulk of a long trace) live. A file database keeps them in its own
 * {@code _datapath} table: DuckDB compresses a file's tables when it checkpoints. An in-memory
 * database keeps its tables uncompressed (~230 bytes per event), so there the rows go to tables
 * in a few in-memory databases attached with {@code COMPRESS} (the <em>lanes</em>), each
 * checkpointed every {@link #CHECKPOINT_ROWS} rows appended to it (DuckDB compresses only when it
 * checkpoints), and {@code _datapath} becomes a view over them. One lane per loading thread, at
 * most {@link #MAX_LANES}: a checkpoint waits for every write transaction of its database, so
 * threads sharing one would take turns; a lane's hosts load one after the other on one thread.
 * Every lane's table has the host column. A database per host instead (as before) made a job of
 * 1,000 processes a view of 1,000 {@code UNION ALL} branches that every view statement bound.
 * The first lane also takes export bundles' rows, of any host.
 */
public final class DatapathStore {
    /**
     * Rows between checkpoints of a lane, in whole row groups (122,880 rows): the uncompressed rows
     * a lane holds at most (~50 MB). 2 groups measured against 8: 0.70x the peak memory of a 10M-event
     * analyze, the same time.
     */
    static final int CHECKPOINT_ROWS = 2 * 122_880;

    /** Lanes at most: a loading thread each (the loader runs one per processor). */
    static final int MAX_LANES = 8;

    private static final String TABLE = BaseTables.DATAPATH.name();

    /** For DDL (attach, view); null: rows go to the database's own table. */
    private final Connection connection;
    private final int checkpointRows;
    private final int maxLanes;
    private final List<Lane> lanes = new ArrayList<>();
    /** The lane the next single host goes to ({@link #forHost}), round robin. */
    private int next;

    private DatapathStore(Connection connection, int checkpointRows, int maxLanes) {
        this.connection = connection;
        this.checkpointRows = checkpointRows;
        this.maxLanes = maxLanes;
    }

    /** Rows go to the database's own {@code _datapath} table (a file database, tests). */
    public static DatapathStore plain() {
        DatapathStore store = new DatapathStore(null, Integer.MAX_VALUE, 1);
        store.lanes.add(new Lane(TABLE, null, Integer.MAX_VALUE));
        return store;
    }

    /**
     * Rows go to compressed lanes, {@code _datapath} is a view over them. Run once, after the base
     * tables were created and before anything is loaded.
     */
    public static DatapathStore compressed(Connection connection) throws SQLException {
        return compressed(connection, CHECKPOINT_ROWS,
                Math.max(1, Math.min(MAX_LANES, Runtime.getRuntime().availableProcessors())));
    }

    static DatapathStore compressed(Connection connection, int checkpointRows, int maxLanes) throws SQLException {
        if (maxLanes < 1) {
            throw new IllegalArgumentException("at least one lane");
        }
        DatapathStore store = new DatapathStore(connection, checkpointRows, maxLanes);
        try (Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE " + TABLE);
        }
        store.attach(); // the first one also takes the rows of export bundles
        store.publishView();
        return store;
    }

    /** Where rows of base table {@code table} go when they are not loaded host by host (export bundles). */
    public String insertTable(String table) {
        return table.equals(TABLE) ? lanes.get(0).table() : table;
    }

    /** A lane for the data-path rows of one host. */
    synchronized Lane forHost(String host) throws SQLException {
        if (connection != null && lanes.size() < maxLanes && next >= lanes.size()) {
            attach();
            publishView();
        }
        Lane lane = lanes.get(next % lanes.size());
        next = (next + 1) % maxLanes;
        return lane;
    }

    /**
     * A lane for the data-path rows of each host, in order: host i goes to lane i mod L, where L is the
     * number of hosts up to the lanes allowed. Hosts of one lane must load one after the other.
     */
    synchronized List<Lane> forHosts(List<String> hosts) throws SQLException {
        int wanted = Math.min(Math.max(hosts.size(), 1), maxLanes);
        boolean attached = false;
        while (connection != null && lanes.size() < wanted) {
            attach();
            attached = true;
        }
        if (attached) {
            publishView();
        }
        List<Lane> targets = new ArrayList<>(hosts.size());
        for (int i = 0; i < hosts.size(); i++) {
            targets.add(lanes.get(i % wanted));
        }
        return targets;
    }

    /** Attaches the next lane's database with its table. */
    private void attach() throws SQLException {
        String catalog = TABLE + "_" + lanes.size();
        Lane lane = new Lane(qualified(catalog), catalog, checkpointRows);
        try (Statement statement = connection.createStatement()) {
            statement.execute("ATTACH ':memory:' AS " + catalog + " (COMPRESS);\n" + BaseTables.DATAPATH.createSql(lane.table()));
        }
        lanes.add(lane);
    }

    /** {@code _datapath}: the view over every lane's rows. */
    private void publishView() throws SQLException {
        List<String> selects = lanes.stream().map(l -> "SELECT * FROM " + l.table()).toList();
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE OR REPLACE VIEW main." + TABLE + " AS " + String.join(" UNION ALL ", selects));
        }
    }

    private static String qualified(String catalog) {
        return catalog + ".main." + TABLE;
    }

    /**
     * One table the data-path rows of some hosts go to and, when compressed, its database, checkpointed
     * every {@code checkpointRows} rows appended to it. Used by one loading thread at a time.
     */
    static final class Lane {
        private final String table;
        private final String catalog;
        private final int checkpointRows;
        /** Rows appended since the last checkpoint. */
        private long pending;
        /** Whether {@link #begin} opened a transaction not yet committed. */
        private boolean open;

        Lane(String table, String catalog, int checkpointRows) {
            this.table = table;
            this.catalog = catalog;
            this.checkpointRows = checkpointRows;
        }

        /** The qualified table name to insert into (it has the host column). */
        String table() {
            return table;
        }

        /** The attached database, or null when the rows go to the main database's table. */
        String catalog() {
            return catalog;
        }

        /** Rows to append before the next checkpoint is due (at least 1). */
        long room() {
            return Math.max(1, checkpointRows - pending);
        }

        /**
         * Opens the transaction the lane's appends go to on {@code connection} until the next checkpoint:
         * a job's hosts each append a few thousand rows, and committing each host's rows on its own cost
         * DuckDB more than appending them. Only for a connection that writes nothing else meanwhile (a
         * transaction writes to one database only).
         */
        synchronized void begin(Connection connection) throws SQLException {
            if (catalog != null) {
                execute(connection, "BEGIN TRANSACTION");
                open = true;
            }
        }

        /** Counts {@code rows} appended; compresses them (committed first) once a checkpoint's worth is there. */
        synchronized void appended(long rows, Connection connection) throws SQLException {
            pending += rows;
            if (catalog != null && pending >= checkpointRows) {
                if (open) {
                    execute(connection, "COMMIT");
                }
                checkpoint(connection);
                if (open) {
                    execute(connection, "BEGIN TRANSACTION");
                }
            }
        }

        /**
         * Commits (after {@link #begin}), then compresses what is left once the lane's hosts are loaded, if it
         * is worth it: a bring-up's few hundred rows are not (its analysis would wait for the checkpoint for nothing).
         */
        synchronized void finish(Connection connection) throws SQLException {
            if (open) {
                execute(connection, "COMMIT");
                open = false;
            }
            if (catalog != null && pending >= checkpointRows / 8) {
                checkpoint(connection);
            }
        }

        private void checkpoint(Connection connection) throws SQLException {
            execute(connection, "CHECKPOINT " + catalog);
            pending = 0;
        }

        private static void execute(Connection connection, String sql) throws SQLException {
            try (Statement statement = connection.createStatement()) {
                statement.execute(sql);
            }
        }
    }
}
