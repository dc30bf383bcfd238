package io.rdmatrace.analyzer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.duckdb.DuckDBConnection;

import io.rdmatrace.analyzer.load.DatapathStore;
import io.rdmatrace.analyzer.load.HostLoad;
import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.analyzer.load.PackedTraces;
import io.rdmatrace.analyzer.load.Schema;
import io.rdmatrace.analyzer.load.TraceLoader;
import io.rdmatrace.analyzer.load.bundle.BundleInputs;
import io.rdmatrace.trace.model.TraceEvent;

/**
 * The embedded DuckDB database of one analysis: base tables are created on open, traces are
 * loaded, then {@link #finishLoading()} computes the documented relations rules read. In memory
 * unless a file is given (then it stays for later SQL: {@code duckdb FILE}).
 */
public final class AnalysisDatabase implements AutoCloseable {
    /**
     * Up to this many loaded events, the views and rules run without DuckDB's worker threads: on tables
     * this small every operator's cost is its set-up, which workers only multiply (a two-host bring-up's views
     * took 0.6-0.8 s instead of 1.0-1.8 s, A/B in one process); rules still run on several connections.
     */
    static final long SMALL_EVENTS = 100_000;
    /** Connections computing views at once, at most (see {@link #viewWorkers}). */
    private static final int VIEW_WORKERS = 4;
    /** DuckDB's start, on a thread of its own; see {@link #open}. */
    private final FutureTask<Started> start;
    private final BufferAllocator allocator;
    private final TraceLoader loader;
    private final List<Path> unpacked = new ArrayList<>();
    private long events;
    private boolean finished;

    /** A started database: its connection, the base tables created, and where data-path rows go. */
    record Started(DuckDBConnection connection, DatapathStore datapath) {
    }

    private AnalysisDatabase(FutureTask<Started> start, BufferAllocator allocator) {
        this.start = start;
        this.allocator = allocator;
        this.loader = new TraceLoader(new TraceLoader.Database() {
            @Override
            public DuckDBConnection connection() throws SQLException {
                return started().connection();
            }

            @Override
            public DatapathStore datapath() throws SQLException {
                return started().datapath();
            }
        }, allocator);
    }

    /** An in-memory database. */
    public static AnalysisDatabase inMemory() {
        return inMemory(beginInMemoryStart());
    }

    /**
     * A database kept in {@code file}, which must not exist yet (an old analysis is never
     * silently mixed with a new one).
     */
    public static AnalysisDatabase inFile(Path file) {
        if (Files.exists(file)) {
            throw new IllegalArgumentException(file + " already exists; remove it or choose another --db file");
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new IllegalArgumentException(parent + ": no such folder for the --db file");
        }
        return open("jdbc:duckdb:" + file.toAbsolutePath(), false);
    }

    /**
     * DuckDB starts on a thread of its own (its driver's first use, the native library, the base tables:
     * ~0.4 s of CPU), while the caller goes on reading rules and opening the traces' queues; the first
     * use of the database waits for it. A start that failed throws at that first use.
     *
     * @param inMemory whether DuckDB keeps the tables uncompressed (then the data path is stored compressed apart)
     */
    private static AnalysisDatabase open(String url, boolean inMemory) {
        return new AnalysisDatabase(beginStart(url, inMemory), new RootAllocator());
    }

    /** An in-memory database's start, begun on a thread of its own; {@link #inMemory(FutureTask)} takes it over. */
    static FutureTask<Started> beginInMemoryStart() {
        return beginStart("jdbc:duckdb:", true);
    }

    /** The in-memory database whose start {@link #beginInMemoryStart()} began. */
    static AnalysisDatabase inMemory(FutureTask<Started> start) {
        return new AnalysisDatabase(start, new RootAllocator());
    }

    private static FutureTask<Started> beginStart(String url, boolean inMemory) {
        FutureTask<Started> start = new FutureTask<>(() -> start(url, inMemory));
        Thread thread = new Thread(start, "rdmatrace-duckdb-start");
        thread.setDaemon(true);
        thread.start();
        return start;
    }

    private static Started start(String url, boolean inMemory) throws SQLException {
        DuckDBConnection connection = (DuckDBConnection) DriverManager.getConnection(url);
        try {
            Schema.createBaseTables(connection);
            return new Started(connection, inMemory ? DatapathStore.compressed(connection) : DatapathStore.plain());
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /** The started database, once DuckDB's start is over; its failure, if it failed. */
    private Started started() throws SQLException {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return start.get();
                } catch (InterruptedException e) {
                    interrupted = true; // the start is short and a caller cannot go on without it
                }
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SQLException sql) {
                throw new SQLException(sql.getMessage(), sql.getSQLState(), sql.getErrorCode(), sql);
            }
            if (e.getCause() instanceof RuntimeException runtime) {
                throw new IllegalStateException("the database did not start: " + runtime, runtime);
            }
            throw new IllegalStateException("the database did not start: " + e.getCause(), e.getCause());
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Loads every host folder under each path; see {@link TraceLoader#load(List)}. A path that is
     * an export bundle (zip) loads its hosts instead ({@link BundleInputs}).
     */
    public LoadReport load(List<Path> roots) throws SQLException {
        requireLoading();
        List<Path> inputs = new ArrayList<>();
        Map<String, String> renamed = new LinkedHashMap<>();
        for (Path root : roots) {
            if (PackedTraces.isPacked(root)) {
                Path target = unpack(root);
                renamed.put(target.toString(), root.toString());
                inputs.add(target);
            } else {
                inputs.add(root);
            }
        }
        LoadReport report = BundleInputs.load(this::connection, loader::load, inputs, this::insertTable);
        events += report.events();
        return renamed.isEmpty() ? report : renamePacked(report, renamed);
    }

    /** Where a bundle's rows of base table {@code table} go; asked for after {@link #connection()}, so DuckDB has started. */
    private String insertTable(String table) {
        try {
            return started().datapath().insertTable(table);
        } catch (SQLException e) {
            throw new IllegalStateException("the database did not start: " + e.getMessage(), e);
        }
    }

    /** Unpacks a gzip-packed trace folder (the samples' form) into a folder deleted on close. */
    private Path unpack(Path root) throws SQLException {
        try {
            Path target = Files.createTempDirectory("rdmatrace-unpacked-");
            unpacked.add(target);
            PackedTraces.unpack(root, target);
            return target;
        } catch (IOException e) {
            throw new SQLException(root + ": cannot unpack its gzip-packed queue files: " + e.getMessage(), e);
        }
    }

    /** Reports (and records) the packed folders' own paths, not the temporary ones they were read from. */
    private LoadReport renamePacked(LoadReport report, Map<String, String> renamed) throws SQLException {
        List<HostLoad> hosts = new ArrayList<>();
        for (HostLoad h : report.hosts()) {
            String folder = h.folder();
            String detail = h.detail();
            for (Map.Entry<String, String> e : renamed.entrySet()) {
                folder = folder.replace(e.getKey(), e.getValue());
                detail = detail.replace(e.getKey(), e.getValue());
            }
            hosts.add(new HostLoad(folder, h.host(), h.status(), detail, h.events(), h.elapsedNanos()));
        }
        List<String> problems = new ArrayList<>();
        for (String p : report.rootProblems()) {
            for (Map.Entry<String, String> e : renamed.entrySet()) {
                p = p.replace(e.getKey(), e.getValue());
            }
            problems.add(p);
        }
        for (Map.Entry<String, String> e : renamed.entrySet()) {
            try (PreparedStatement update = connection().prepareStatement(
                    "UPDATE _host SET folder = replace(folder, ?, ?), detail = replace(detail, ?, ?)")) {
                update.setString(1, e.getKey());
                update.setString(2, e.getValue());
                update.setString(3, e.getKey());
                update.setString(4, e.getValue());
                update.executeUpdate();
            }
        }
        return new LoadReport(hosts, problems, report.elapsedNanos());
    }

    /** Loads the RoCEv2 packets of a pcap/pcapng file captured on {@code host} (matched to QPs by wire_packets). */
    public io.rdmatrace.analyzer.wire.PacketLoader.Counts loadPackets(String host, Path file) throws SQLException, IOException {
        requireLoading();
        return io.rdmatrace.analyzer.wire.PacketLoader.load(connection(), host, file);
    }

    /** Loads events already in memory as one host (tests and generated fixtures). */
    public HostLoad loadEvents(String host, List<TraceEvent> events) throws SQLException {
        requireLoading();
        HostLoad load = loader.loadEvents(host, events);
        this.events += load.events();
        return load;
    }

    /**
     * Loads events already in memory as one host whose trace is still being written (RECORDING),
     * read at wall time {@code readWallNanos}: a test's look at a live program.
     */
    public HostLoad loadLiveEvents(String host, List<TraceEvent> events, long readWallNanos) throws SQLException {
        requireLoading();
        HostLoad load = loader.loadLiveEvents(host, events, readWallNanos);
        this.events += load.events();
        return load;
    }

    /** Computes the views and derived tables; call once, after the last load. */
    public void finishLoading() throws SQLException {
        finishLoading(null);
    }

    /**
     * As {@link #finishLoading()}, computing only what the relations {@code names} need (everything when null): for
     * a reader of a few relations, never for rules.
     */
    public void finishLoading(Set<String> names) throws SQLException {
        requireLoading();
        if (events <= SMALL_EVENTS) {
            try (Statement statement = connection().createStatement()) {
                statement.execute("SET threads = 1");
            }
        }
        Schema.createViews(connection(), viewWorkers(Runtime.getRuntime().availableProcessors()), names);
        finished = true;
    }

    /**
     * Connections computing the views at once: one statement per core, whatever the trace's size. On
     * a small trace the views' time was one core busy and the other idle (DuckDB's workers are off
     * there); on a large one DuckDB's workers share a big statement, but most of the ~120 statements
     * are small, and one connection left a core idle through them (10M events, views in one JVM:
     * 1.85 s -> 1.46 s, median of 3 alternating pairs).
     */
    static int viewWorkers(int processors) {
        return Math.max(1, Math.min(processors, VIEW_WORKERS));
    }

    /** The database's connection, once DuckDB has started (see {@link #open}). */
    public Connection connection() throws SQLException {
        return started().connection();
    }

    private void requireLoading() {
        if (finished) {
            throw new IllegalStateException("loading is finished; the views are computed from what was loaded");
        }
    }

    @Override
    public void close() throws SQLException {
        try {
            Started started;
            try {
                started = started();
            } catch (SQLException | RuntimeException e) {
                started = null; // it never started: nothing to close (its failure was reported at first use)
            }
            if (started != null) {
                started.connection().close();
            }
        } finally {
            allocator.close();
            for (Path folder : unpacked) {
                try {
                    PackedTraces.delete(folder);
                } catch (IOException e) {
                    // a temporary copy left behind is harmless; the analysis is done
                }
            }
        }
    }
}
