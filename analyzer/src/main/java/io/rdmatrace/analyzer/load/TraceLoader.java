package io.rdmatrace.analyzer.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
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

import io.rdmatrace.trace.EndEvent;
import io.rdmatrace.trace.FormatVersion;
import io.rdmatrace.trace.ReadOutcome;
import io.rdmatrace.trace.TraceEvent;
import io.rdmatrace.trace.TraceException;
import io.rdmatrace.trace.TraceReader;
import io.rdmatrace.trace.TraceSet;

/**
 * Loads host traces into the base tables: discovers host folders ({@link TraceSet}), reads each
 * queue once, streams data-path events to DuckDB as Arrow batches while it collects the rest,
 * then loads those. Hosts load in parallel (one thread and one DuckDB connection each, up to the
 * processor count): each host is an independent stream, and DuckDB accepts concurrent appends.
 * A folder that cannot be read becomes a {@code _host} row saying why; the other hosts still load.
 */
public final class TraceLoader {
    /** A load that takes longer than this is stuck, not slow (10 million events take seconds). */
    private static final long LOAD_TIMEOUT_MINUTES = 60;

    private final DuckDBConnection connection;
    private final BufferAllocator allocator;
    private final Set<String> hostsSeen = new HashSet<>();

    public TraceLoader(DuckDBConnection connection, BufferAllocator allocator) {
        this.connection = connection;
        this.allocator = allocator;
    }

    /** Loads every host folder found under each path (a path may itself be one host folder). */
    public LoadReport load(List<Path> roots) throws SQLException {
        long start = System.nanoTime();
        List<HostLoad> hosts = new ArrayList<>();
        List<String> rootProblems = new ArrayList<>();
        List<OpenHost> readable = new ArrayList<>();
        try {
            for (Path root : roots) {
                TraceSet set;
                try {
                    set = TraceSet.discover(root);
                } catch (TraceException e) {
                    rootProblems.add(e.getMessage());
                    continue;
                }
                for (Path folder : set.hosts()) {
                    try {
                        TraceReader reader = TraceReader.open(folder);
                        readable.add(new OpenHost(folder, uniqueHost(reader.session().hostId(), folder), reader));
                    } catch (TraceException e) {
                        hosts.add(refused(folder, e.problem().name(), e.getMessage()));
                    }
                }
                for (Path foreign : foreignFolders(root, set)) {
                    hosts.add(refused(foreign, "IGNORED", foreign + ": not a trace folder (no Chronicle Queue files); ignored"));
                }
            }
            hosts.addAll(loadInParallel(readable));
        } finally {
            readable.forEach(h -> h.reader().close());
        }
        return new LoadReport(hosts, rootProblems, System.nanoTime() - start);
    }

    /** A host folder whose SESSION was read, waiting for its events to be loaded. */
    private record OpenHost(Path folder, String host, TraceReader reader) {
    }

    private List<HostLoad> loadInParallel(List<OpenHost> open) throws SQLException {
        if (open.size() <= 1) {
            List<HostLoad> loads = new ArrayList<>();
            for (OpenHost host : open) {
                loads.add(loadOpen(host, connection));
            }
            return loads;
        }
        int threads = Math.min(open.size(), Runtime.getRuntime().availableProcessors());
        // one DuckDB worker per appending connection: the hosts already keep every core busy, and
        // DuckDB's own workers on top of them only add switching (measured: 9.9 s -> 6.1 s for 10M events)
        String duckdbThreads = setting("threads");
        execute("SET threads = 1");
        ExecutorService pool = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "rdmatrace-load");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<HostLoad>> futures = new ArrayList<>();
            for (OpenHost host : open) {
                futures.add(pool.submit(() -> {
                    // each host appends through its own connection to the same database
                    try (DuckDBConnection own = connection.duplicate()) {
                        return loadOpen(host, own);
                    }
                }));
            }
            List<HostLoad> loads = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(LOAD_TIMEOUT_MINUTES);
            for (Future<HostLoad> future : futures) {
                loads.add(future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            }
            return loads;
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
        } finally {
            pool.shutdownNow();
            execute("SET threads = " + Integer.parseInt(duckdbThreads));
        }
    }

    private String setting(String name) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT current_setting(?)")) {
            query.setString(1, name);
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    private void execute(String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private HostLoad loadOpen(OpenHost open, DuckDBConnection target) throws SQLException {
        long start = System.nanoTime();
        TraceReader reader = open.reader();
        EventCursor cursor = new EventCursor() {
            @Override
            public TraceEvent next() {
                return reader.next();
            }

            @Override
            public void threadChanged() {
                reader.singleThreadedCheckReset();
            }
        };
        long events;
        try (BufferAllocator own = allocator.newChildAllocator(open.host(), 0, Long.MAX_VALUE)) {
            events = loadEvents(open.host(), cursor, new ArrowIngest(target, own), own);
        }
        ReadOutcome outcome = reader.outcome();
        String detail = outcome == null ? open.folder() + ": read " + events + " events" : outcome.detail();
        String status = outcome == null ? "TRUNCATED" : outcome.status().name();
        if (status.equals("CLEAN") && reader.damage() != null) {
            status = "REPAIRED"; // every event is there, but the files needed repair to be read
        }
        HostLoad load = new HostLoad(open.folder().toString(), open.host(), status, detail, events, System.nanoTime() - start);
        recordHost(target, load, reader.session().formatVersion().toString());
        return load;
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
            return loadOpen(new OpenHost(folder, uniqueHost(reader.session().hostId(), folder), reader), connection);
        }
    }

    /**
     * Loads events that are already in memory (tests, generated fixtures) as one host whose trace
     * ended cleanly if the last event is an END, else as TRUNCATED.
     */
    public HostLoad loadEvents(String host, List<TraceEvent> events) throws SQLException {
        long start = System.nanoTime();
        Iterator<TraceEvent> it = events.iterator();
        long loaded = loadEvents(host, () -> it.hasNext() ? it.next() : null, new ArrowIngest(connection, allocator), allocator);
        boolean clean = !events.isEmpty() && events.get(events.size() - 1) instanceof EndEvent;
        HostLoad load = new HostLoad(host, host, clean ? "CLEAN" : "TRUNCATED",
                host + ": " + loaded + " events from memory", loaded, System.nanoTime() - start);
        recordHost(connection, load, FormatVersion.CURRENT.toString());
        return load;
    }

    private static long loadEvents(String host, EventCursor cursor, ArrowIngest ingest, BufferAllocator allocator)
            throws SQLException {
        ColdRows cold = new ColdRows();
        DatapathReader hot = new DatapathReader(allocator, cursor, cold);
        ingest.insert(BaseTables.DATAPATH, host, hot, DatapathWriter.COLUMNS);
        long events = hot.events();
        for (SparseRows rows : cold.filled()) {
            SparseRowsReader reader = new SparseRowsReader(allocator, rows);
            ingest.insert(rows.table(), host, reader, reader.columns());
        }
        return events;
    }

    private HostLoad refused(Path folder, String status, String detail) throws SQLException {
        HostLoad load = new HostLoad(folder.toString(), folder.getFileName().toString(), status, detail, 0, 0);
        recordHost(connection, load, null);
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

    private static void recordHost(DuckDBConnection target, HostLoad load, String formatVersion) throws SQLException {
        try (PreparedStatement insert = target.prepareStatement(
                "INSERT INTO _host (host, folder, status, detail, format_version, events, last_seq) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
            insert.setString(1, load.host());
            insert.setString(2, load.folder());
            insert.setString(3, load.status());
            insert.setString(4, load.detail());
            insert.setString(5, formatVersion);
            insert.setLong(6, load.events());
            insert.setLong(7, load.events() - 1);
            insert.executeUpdate();
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
