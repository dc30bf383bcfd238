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
import io.rdmatrace.trace.TraceEvent;

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
    private final DuckDBConnection connection;
    private final BufferAllocator allocator;
    private final DatapathStore datapath;
    private final TraceLoader loader;
    private final List<Path> unpacked = new ArrayList<>();
    private long events;
    private boolean finished;

    private AnalysisDatabase(DuckDBConnection connection, BufferAllocator allocator, DatapathStore datapath) {
        this.connection = connection;
        this.allocator = allocator;
        this.datapath = datapath;
        this.loader = new TraceLoader(connection, allocator, datapath);
    }

    /** An in-memory database. */
    public static AnalysisDatabase inMemory() throws SQLException {
        return open("jdbc:duckdb:", true);
    }

    /**
     * A database kept in {@code file}, which must not exist yet (an old analysis is never
     * silently mixed with a new one).
     */
    public static AnalysisDatabase inFile(Path file) throws SQLException {
        if (Files.exists(file)) {
            throw new IllegalArgumentException(file + " already exists; remove it or choose another --db file");
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new IllegalArgumentException(parent + ": no such folder for the --db file");
        }
        return open("jdbc:duckdb:" + file.toAbsolutePath(), false);
    }

    /** @param inMemory whether DuckDB keeps the tables uncompressed (then the data path is stored compressed apart) */
    private static AnalysisDatabase open(String url, boolean inMemory) throws SQLException {
        DuckDBConnection connection = (DuckDBConnection) DriverManager.getConnection(url);
        BufferAllocator allocator = new RootAllocator();
        DatapathStore datapath;
        try {
            Schema.createBaseTables(connection);
            datapath = inMemory ? DatapathStore.compressed(connection) : DatapathStore.plain();
        } catch (SQLException | RuntimeException e) {
            allocator.close();
            connection.close();
            throw e;
        }
        return new AnalysisDatabase(connection, allocator, datapath);
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
        LoadReport report = BundleInputs.load(connection, loader::load, inputs, datapath::insertTable);
        events += report.events();
        return renamed.isEmpty() ? report : renamePacked(report, renamed);
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
            try (PreparedStatement update = connection.prepareStatement(
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
        return io.rdmatrace.analyzer.wire.PacketLoader.load(connection, host, file);
    }

    /** Loads events already in memory as one host (tests and generated fixtures). */
    public HostLoad loadEvents(String host, List<TraceEvent> events) throws SQLException {
        requireLoading();
        HostLoad load = loader.loadEvents(host, events);
        this.events += load.events();
        return load;
    }

    /** Computes the views and derived tables; call once, after the last load. */
    public void finishLoading() throws SQLException {
        requireLoading();
        if (events <= SMALL_EVENTS) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("SET threads = 1");
            }
        }
        Schema.createViews(connection);
        finished = true;
    }

    public Connection connection() {
        return connection;
    }

    private void requireLoading() {
        if (finished) {
            throw new IllegalStateException("loading is finished; the views are computed from what was loaded");
        }
    }

    @Override
    public void close() throws SQLException {
        try {
            connection.close();
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
