package io.rdmatrace.analyzer.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import org.apache.arrow.memory.BufferAllocator;
import org.duckdb.DuckDBConnection;

import io.rdmatrace.trace.model.EndEvent;
import io.rdmatrace.trace.model.FormatVersion;
import io.rdmatrace.trace.store.ReadOutcome;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.store.TraceSet;

/**
 * Loads host traces into the base tables: discovers host folders ({@link TraceSet}), reads each
 * queue once, streams data-path events to DuckDB as Arrow batches while it collects the rest,
 * then loads those. Hosts load in parallel, one lane of hosts per thread and DuckDB connection (up
 * to the processor count, {@link DatapathStore}): each host is an independent stream, and DuckDB
 * accepts concurrent appends.
 * A folder that cannot be read becomes a {@code _host} row saying why; the other hosts still load.
 */
public final class TraceLoader {
    /** A load that takes longer than this is stuck, not slow (10 million events take seconds). */
    private static final long LOAD_TIMEOUT_MINUTES = 60;

    /**
     * The database a loader writes to, asked for only once the queues are open: a database still
     * starting on another thread (see {@code AnalysisDatabase}) is waited for then, not before.
     */
    public interface Database {
        DuckDBConnection connection() throws SQLException;

        DatapathStore datapath() throws SQLException;
    }

    /** A database that is already there. */
    private record Ready(DuckDBConnection connection, DatapathStore datapath) implements Database {
    }

    private final Database database;
    private final BufferAllocator allocator;
    private final Set<String> hostsSeen = new HashSet<>();

    /** A loader whose data-path rows go to the database's own {@code _datapath} table. */
    public TraceLoader(DuckDBConnection connection, BufferAllocator allocator) {
        this(connection, allocator, DatapathStore.plain());
    }

    public TraceLoader(DuckDBConnection connection, BufferAllocator allocator, DatapathStore datapath) {
        this(new Ready(connection, datapath), allocator);
    }

    public TraceLoader(Database database, BufferAllocator allocator) {
        this.database = database;
        this.allocator = allocator;
    }

    /** Loads every host folder found under each path (a path may itself be one host folder). */
    public LoadReport load(List<Path> roots) throws SQLException {
        long start = System.nanoTime();
        List<HostLoad> hosts = new ArrayList<>();
        List<String> rootProblems = new ArrayList<>();
        List<OpenHost> readable = new ArrayList<>();
        List<TraceReader> readers = new ArrayList<>();
        ExecutorService pool = null;
        try {
            // every folder in the order found; null marks a foreign folder (reported, not opened)
            List<Path> folders = new ArrayList<>();
            List<Path> foreign = new ArrayList<>();
            for (Path root : roots) {
                TraceSet set;
                try {
                    set = TraceSet.discover(root);
                } catch (TraceException e) {
                    rootProblems.add(e.getMessage());
                    continue;
                }
                folders.addAll(set.hosts());
                for (Path other : foreignFolders(root, set)) {
                    folders.add(null);
                    foreign.add(other);
                }
            }
            int traceFolders = (int) folders.stream().filter(f -> f != null).count();
            if (traceFolders > 1) {
                pool = newPool(Math.min(traceFolders, Runtime.getRuntime().availableProcessors()));
            }
            // opening a queue maps its files and reads its SESSION: done for all hosts at once
            List<Object> opened = openAll(folders, pool);
            List<Path> readableFolders = new ArrayList<>();
            List<String> readableHosts = new ArrayList<>();
            int nextForeign = 0;
            for (int i = 0; i < folders.size(); i++) {
                Path folder = folders.get(i);
                if (folder == null) {
                    Path other = foreign.get(nextForeign++);
                    hosts.add(refused(other, "IGNORED", other + ": not a trace folder (no Chronicle Queue files); ignored"));
                } else if (opened.get(i) instanceof TraceReader reader) {
                    readableFolders.add(folder);
                    readableHosts.add(uniqueHost(reader.session().hostId(), folder));
                    readers.add(reader);
                } else {
                    TraceException e = (TraceException) opened.get(i);
                    hosts.add(refused(folder, e.problem().name(), e.getMessage()));
                }
            }
            List<DatapathStore.Lane> targets = database.datapath().forHosts(readableHosts);
            for (int i = 0; i < readers.size(); i++) {
                readable.add(new OpenHost(readableFolders.get(i), readableHosts.get(i), readers.get(i), targets.get(i)));
            }
            hosts.addAll(loadInParallel(readable, pool, database.connection()));
        } finally {
            if (pool != null) {
                pool.shutdownNow();
            }
            readers.forEach(TraceReader::close);
        }
        return new LoadReport(hosts, rootProblems, System.nanoTime() - start);
    }

    /** A host folder whose SESSION was read, waiting for its events to be loaded. */
    private record OpenHost(Path folder, String host, TraceReader reader, DatapathStore.Lane lane) {
    }

    private static ExecutorService newPool(int threads) {
        return Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "rdmatrace-load");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Per folder (null: skipped), its open {@link TraceReader} or the {@link TraceException} that refused it. */
    private static List<Object> openAll(List<Path> folders, ExecutorService pool) {
        List<Object> opened = new ArrayList<>();
        if (pool == null) {
            for (Path folder : folders) {
                opened.add(folder == null ? null : openOrRefusal(folder));
            }
            return opened;
        }
        List<Future<Object>> futures = new ArrayList<>();
        for (Path folder : folders) {
            futures.add(folder == null ? null : pool.submit(() -> openOrRefusal(folder)));
        }
        try {
            for (Future<Object> future : futures) {
                opened.add(future == null ? null : await(future));
            }
            return opened;
        } catch (SQLException e) {
            throw new IllegalStateException(e); // opening never touches the database
        } finally {
            // a reader opened for a folder whose sibling failed must not stay mapped
            if (opened.size() < futures.size()) {
                for (Object o : opened) {
                    if (o instanceof TraceReader reader) {
                        reader.close();
                    }
                }
            }
        }
    }

    private static Object openOrRefusal(Path folder) {
        try {
            TraceReader reader = TraceReader.open(folder);
            // the reading thread will be another one: Chronicle's tailer remembers its owner
            reader.singleThreadedCheckReset();
            return reader;
        } catch (TraceException e) {
            return e;
        }
    }

    private List<HostLoad> loadInParallel(List<OpenHost> open, ExecutorService pool, DuckDBConnection connection)
            throws SQLException {
        // the hosts of one lane load one after the other, on one thread (a lane's checkpoints wait for its writers)
        Map<DatapathStore.Lane, List<OpenHost>> byLane = new LinkedHashMap<>();
        for (OpenHost host : open) {
            byLane.computeIfAbsent(host.lane(), l -> new ArrayList<>()).add(host);
        }
        if (byLane.size() <= 1 || pool == null) {
            // one lane at most (one host, or one lane allowed); this connection also writes the cold rows, so
            // each host's data-path rows commit on their own
            List<HostLoad> loads = new ArrayList<>();
            for (OpenHost host : open) {
                loads.add(loadOpen(host, connection));
            }
            for (DatapathStore.Lane lane : byLane.keySet()) {
                lane.finish(connection);
            }
            return loads;
        }
        // one DuckDB worker per appending connection: the lanes already keep every core busy, and
        // DuckDB's own workers on top of them only add switching (measured: 9.9 s -> 6.1 s for 10M events)
        String duckdbThreads = setting(connection, "threads");
        execute(connection, "SET threads = 1");
        try {
            List<Future<List<HostPass>>> futures = new ArrayList<>();
            for (Map.Entry<DatapathStore.Lane, List<OpenHost>> lane : byLane.entrySet()) {
                futures.add(pool.submit(() -> {
                    // each lane appends its data-path rows through its own connection to the same database
                    try (DuckDBConnection own = connection.duplicate()) {
                        lane.getKey().begin(own);
                        List<HostPass> passes = passes(lane.getValue(), own);
                        lane.getKey().finish(own);
                        return passes;
                    }
                }));
            }
            Map<OpenHost, HostPass> byHost = new HashMap<>();
            for (Future<List<HostPass>> future : futures) {
                for (HostPass pass : await(future)) {
                    byHost.put(pass.open(), pass);
                }
            }
            List<HostPass> passes = new ArrayList<>();
            for (OpenHost host : open) {
                passes.add(byHost.get(host));
            }
            // The hosts' other rows go in on this one connection in one transaction. Two connections
            // appending to one table commit separately, and DuckDB copies every commit after the first
            // into the table again (its rows sit in the committing transaction's own storage until
            // then): for the ~350 columns of _call that copy touched as much fresh memory as the rows
            // themselves (measured on a 1,000-QP bring-up's two hosts, DuckDB alone: 0.75 s and 25k
            // page faults -> 0.25-0.31 s and 10.5k).
            List<HostLoad> loads;
            execute(connection, "BEGIN TRANSACTION");
            boolean committed = false;
            try {
                loads = finish(passes, connection);
                execute(connection, "COMMIT");
                committed = true;
            } finally {
                if (!committed) {
                    rollback(connection);
                }
            }
            return loads;
        } finally {
            execute(connection, "SET threads = " + Integer.parseInt(duckdbThreads));
        }
    }

    /** Work that throws SQLException. */
    private interface Load<T> {
        T run() throws SQLException;
    }

    /** Runs {@code load}, then finishes {@code lane} (its last rows compressed if worth it). */
    private static <T> T inLane(DatapathStore.Lane lane, DuckDBConnection connection, Load<T> load) throws SQLException {
        T result = load.run();
        lane.finish(connection);
        return result;
    }

    /** Ends a transaction that failed part-way; the failure that stopped it is the one reported. */
    private static void rollback(DuckDBConnection connection) {
        try {
            execute(connection, "ROLLBACK");
        } catch (SQLException e) {
            // the transaction is gone already (DuckDB rolls back a failed one itself)
        }
    }

    /** A load that takes longer than {@link #LOAD_TIMEOUT_MINUTES} is stuck, not slow. */
    private static <T> T await(Future<T> future) throws SQLException {
        try {
            return future.get(LOAD_TIMEOUT_MINUTES, TimeUnit.MINUTES);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SQLException sql) {
                throw sql;
            }
            throw new IllegalStateException("loading a host failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("loading did not finish within " + LOAD_TIMEOUT_MINUTES + " minutes", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while loading", e);
        }
    }

    private static String setting(DuckDBConnection connection, String name) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT current_setting(?)")) {
            query.setString(1, name);
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    private static void execute(DuckDBConnection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private HostLoad loadOpen(OpenHost open, DuckDBConnection target) throws SQLException {
        return finish(List.of(pass(open, target)), target).get(0);
    }

    /**
     * One host whose events were all read: its data-path rows are in the database, the rest wait
     * in {@code cold}.
     */
    private record HostPass(OpenHost open, ColdRows cold, long events, String status, String detail,
            String formatVersion, long startNanos, Times times) {
    }

    /**
     * When a host's trace was read: its last event's wall time and the wall clock when reading
     * ended (the "now" of a trace still being written: rules measure how long a QP has waited with it).
     */
    private record Times(Long lastWallNanos, long readWallNanos) {
        static Times readNow(TraceEvent last) {
            java.time.Instant now = java.time.Instant.now();
            return new Times(last == null ? null : last.header().wallNanos(), now.getEpochSecond() * 1_000_000_000L + now.getNano());
        }
    }

    /** Reads every event of one host, appending its data-path rows through {@code target}. */
    private HostPass pass(OpenHost open, DuckDBConnection target) throws SQLException {
        return passes(List.of(open), target).get(0);
    }

    /**
     * Reads every event of each host (all of one lane), one after the other, appending their data-path
     * rows to the lane through {@code target} in as few inserts as the lane's checkpoints allow.
     */
    private List<HostPass> passes(List<OpenHost> hosts, DuckDBConnection target) throws SQLException {
        DatapathStore.Lane lane = hosts.get(0).lane();
        List<HostPass> done = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Reading> readings = new ArrayList<>();
        for (OpenHost open : hosts) {
            readings.add(new Reading(open, done));
        }
        LaneSource source = new LaneSource(readings);
        try (BufferAllocator own = allocator.newChildAllocator(hosts.get(0).host(), 0, Long.MAX_VALUE)) {
            ArrowIngest ingest = new ArrowIngest(target, own);
            // in parts, the lane compressed by a checkpoint whenever a part fills it: memory stays near the compressed size
            do {
                DatapathReader part = new DatapathReader(own, source, lane.room(), LaneSource.COLUMNS);
                ingest.insertColumns(lane.table(), part, LaneSource.COLUMNS);
                lane.appended(part.rows(), target);
            } while (!source.exhausted());
        }
        return new ArrayList<>(done);
    }

    /** One host being read: its cursor over the queue, its pass and what it read. */
    private static final class Reading implements LaneSource.Host {
        private final OpenHost open;
        private final List<HostPass> done;
        private final long start = System.nanoTime();
        private final ColdRows cold = new ColdRows();
        private final DatapathPass pass;
        private TraceEvent last;

        Reading(OpenHost open, List<HostPass> done) {
            this.open = open;
            this.done = done;
            TraceReader reader = open.reader();
            this.pass = new DatapathPass(new EventCursor() {
                @Override
                public TraceEvent next() {
                    TraceEvent e = reader.next();
                    if (e != null) {
                        last = e;
                    }
                    return e;
                }

                @Override
                public void threadChanged() {
                    reader.singleThreadedCheckReset();
                }
            }, cold);
        }

        @Override
        public String name() {
            return open.host();
        }

        @Override
        public DatapathPass pass() {
            return pass;
        }

        @Override
        public void finished() {
            Times times = Times.readNow(last);
            TraceReader reader = open.reader();
            long events = pass.events();
            ReadOutcome outcome = reader.outcome();
            String detail = outcome == null ? open.folder() + ": read " + events + " events" : outcome.detail();
            String status = outcome == null ? "TRUNCATED" : outcome.status().name();
            if (status.equals("CLEAN") && reader.damage() != null) {
                status = "REPAIRED"; // every event is there, but the files needed repair to be read
            }
            done.add(new HostPass(open, cold, events, status, detail, reader.session().formatVersion().toString(), start,
                    times));
        }
    }

    /**
     * Appends the other rows of every host in {@code passes}, one insert per table for all of them
     * (see {@link SparseRowsReader}), then their {@code _host} rows, through {@code target}.
     */
    private List<HostLoad> finish(List<HostPass> passes, DuckDBConnection target) throws SQLException {
        List<HostCold> cold = passes.stream().map(p -> new HostCold(p.open().host(), p.cold())).toList();
        try (BufferAllocator own = allocator.newChildAllocator("cold rows", 0, Long.MAX_VALUE)) {
            loadCold(cold, new ArrowIngest(target, own), own);
        }
        List<HostLoad> loads = new ArrayList<>();
        try (PreparedStatement insert = hostInsert(target)) {
            for (HostPass pass : passes) {
                OpenHost open = pass.open();
                HostLoad load = new HostLoad(open.folder().toString(), open.host(), pass.status(), pass.detail(), pass.events(),
                        System.nanoTime() - pass.startNanos());
                recordHost(insert, load, pass.formatVersion(), pass.times());
                loads.add(load);
            }
        }
        return loads;
    }

    /** Loads one host folder; never throws for bad data. */
    public HostLoad loadFolder(Path folder) throws SQLException {
        TraceReader reader;
        try {
            reader = TraceReader.open(folder);
        } catch (TraceException e) {
            return refused(folder, e.problem().name(), e.getMessage());
        }
        try (reader) {
            String host = uniqueHost(reader.session().hostId(), folder);
            DatapathStore.Lane lane = database.datapath().forHost(host);
            return inLane(lane, database.connection(), () -> loadOpen(new OpenHost(folder, host, reader, lane), database.connection()));
        }
    }

    /**
     * Loads events that are already in memory (tests, generated fixtures) as one host whose trace
     * ended cleanly if the last event is an END, else as TRUNCATED.
     */
    public HostLoad loadEvents(String host, List<TraceEvent> events) throws SQLException {
        boolean clean = !events.isEmpty() && events.get(events.size() - 1) instanceof EndEvent;
        return loadEvents(host, events, clean ? "CLEAN" : "TRUNCATED", Times.readNow(events.isEmpty() ? null : events.get(events.size() - 1)));
    }

    /**
     * Loads in-memory events as one host whose trace is still being written (status RECORDING), read
     * at wall time {@code readWallNanos}: how a test puts a live host's "now" where it wants it.
     */
    public HostLoad loadLiveEvents(String host, List<TraceEvent> events, long readWallNanos) throws SQLException {
        return loadEvents(host, events, "RECORDING",
                new Times(events.isEmpty() ? null : events.get(events.size() - 1).header().wallNanos(), readWallNanos));
    }

    private HostLoad loadEvents(String host, List<TraceEvent> events, String status, Times times) throws SQLException {
        long start = System.nanoTime();
        DuckDBConnection connection = database.connection();
        Iterator<TraceEvent> it = events.iterator();
        DatapathStore.Lane lane = database.datapath().forHost(host);
        long loaded = inLane(lane, connection, () -> loadEvents(host, () -> it.hasNext() ? it.next() : null,
                new ArrowIngest(connection, allocator), allocator, lane, connection));
        HostLoad load = new HostLoad(host, host, status, host + ": " + loaded + " events from memory", loaded,
                System.nanoTime() - start);
        recordHost(connection, load, FormatVersion.CURRENT.toString(), times);
        return load;
    }

    private static long loadEvents(String host, EventCursor cursor, ArrowIngest ingest, BufferAllocator allocator,
            DatapathStore.Lane datapath, DuckDBConnection connection) throws SQLException {
        ColdRows cold = new ColdRows();
        long events = loadDatapath(host, cursor, cold, ingest, allocator, datapath, connection);
        loadCold(List.of(new HostCold(host, cold)), ingest, allocator);
        return events;
    }

    /** Reads every event: appends the data-path rows, hands the others to {@code cold}; returns the events read. */
    private static long loadDatapath(String host, EventCursor cursor, ColdRows cold, ArrowIngest ingest,
            BufferAllocator allocator, DatapathStore.Lane lane, DuckDBConnection connection) throws SQLException {
        DatapathPass pass = new DatapathPass(cursor, cold);
        // in parts, the lane compressed by a checkpoint whenever a part fills it: memory stays near the compressed size
        do {
            DatapathReader part = new DatapathReader(allocator, pass, lane.room(), DatapathWriter.COLUMNS);
            ingest.insert(lane.table(), host, part, DatapathWriter.COLUMNS);
            lane.appended(part.rows(), connection);
        } while (!pass.exhausted());
        return pass.events();
    }

    /** One host's rows of the low-volume tables. */
    private record HostCold(String host, ColdRows cold) {
    }

    private static void loadCold(List<HostCold> hosts, ArrowIngest ingest, BufferAllocator allocator) throws SQLException {
        int tables = hosts.get(0).cold().tables().size();
        for (int t = 0; t < tables; t++) {
            List<SparseRowsReader.Part> parts = new ArrayList<>();
            for (HostCold host : hosts) {
                SparseRows rows = host.cold().tables().get(t);
                if (rows.size() > 0) {
                    parts.add(new SparseRowsReader.Part(host.host(), rows));
                }
            }
            if (!parts.isEmpty()) {
                SparseRowsReader reader = new SparseRowsReader(allocator, parts);
                ingest.insertColumns(parts.get(0).rows().table().name(), reader, reader.columns());
            }
        }
    }

    private HostLoad refused(Path folder, String status, String detail) throws SQLException {
        HostLoad load = new HostLoad(folder.toString(), folder.getFileName().toString(), status, detail, 0, 0);
        recordHost(database.connection(), load, null, null);
        return load;
    }

    private String uniqueHost(String hostId, Path folder) {
        String host = hostId.isEmpty() ? folder.getFileName().toString() : hostId;
        // two folders claiming one host id (a trace copied twice) must not merge into one host
        String unique = host;
        for (int n = 2; !hostsSeen.add(unique); n++) {
            unique = host + "#" + n;
        }
        return unique;
    }

    private static void recordHost(DuckDBConnection target, HostLoad load, String formatVersion, Times times) throws SQLException {
        try (PreparedStatement insert = hostInsert(target)) {
            recordHost(insert, load, formatVersion, times);
        }
    }

    private static PreparedStatement hostInsert(DuckDBConnection target) throws SQLException {
        return target.prepareStatement("INSERT INTO _host (host, folder, status, detail, format_version, "
                + "events, last_seq, last_wall_ns, read_wall_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    }

    /** One _host row through a prepared {@link #hostInsert} (prepared once for a job's thousand hosts). */
    private static void recordHost(PreparedStatement insert, HostLoad load, String formatVersion, Times times) throws SQLException {
        insert.setString(1, load.host());
        insert.setString(2, load.folder());
        insert.setString(3, load.status());
        insert.setString(4, load.detail());
        insert.setString(5, formatVersion);
        insert.setLong(6, load.events());
        insert.setLong(7, load.events() - 1);
        setLong(insert, 8, times == null ? null : times.lastWallNanos());
        setLong(insert, 9, times == null ? null : times.readWallNanos());
        insert.executeUpdate();
    }

    private static void setLong(PreparedStatement statement, int index, Long value) throws SQLException {
        if (value == null) {
            statement.setNull(index, java.sql.Types.BIGINT);
        } else {
            statement.setLong(index, value);
        }
    }

    /** Direct subfolders of a parent that are not host folders: reported, not silently skipped. */
    private static List<Path> foreignFolders(Path root, TraceSet set) {
        if (set.hosts().size() == 1 && set.hosts().get(0).equals(root)) {
            return List.of();
        }
        try (Stream<Path> list = Files.list(root)) {
            return list.filter(Files::isDirectory).filter(p -> !set.hosts().contains(p)).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }
}
