package io.rdmatrace.analyzer.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.apache.arrow.memory.BufferAllocator;
import org.duckdb.DuckDBConnection;

import io.rdmatrace.trace.ReadOutcome;
import io.rdmatrace.trace.TraceEvent;
import io.rdmatrace.trace.TraceException;
import io.rdmatrace.trace.TraceReader;
import io.rdmatrace.trace.TraceSet;

/**
 * Loads host traces into the base tables: discovers host folders ({@link TraceSet}), reads each
 * queue once, streams data-path events to DuckDB as Arrow batches while it collects the rest,
 * then loads those. A folder that cannot be read becomes a {@code _host} row saying why;
 * the other hosts still load.
 */
public final class TraceLoader {
    private final DuckDBConnection connection;
    private final BufferAllocator allocator;
    private final ArrowIngest ingest;
    private final Set<String> hostsSeen = new HashSet<>();

    public TraceLoader(DuckDBConnection connection, BufferAllocator allocator) {
        this.connection = connection;
        this.allocator = allocator;
        this.ingest = new ArrowIngest(connection, allocator);
    }

    /** Loads every host folder found under each path (a path may itself be one host folder). */
    public LoadReport load(List<Path> roots) throws SQLException {
        long start = System.nanoTime();
        List<HostLoad> hosts = new ArrayList<>();
        List<String> rootProblems = new ArrayList<>();
        for (Path root : roots) {
            TraceSet set;
            try {
                set = TraceSet.discover(root);
            } catch (TraceException e) {
                rootProblems.add(e.getMessage());
                continue;
            }
            for (Path folder : set.hosts()) {
                hosts.add(loadFolder(folder));
            }
            for (Path foreign : foreignFolders(root, set)) {
                hosts.add(refused(foreign, "IGNORED", foreign + ": not a trace folder (no Chronicle Queue files); ignored"));
            }
        }
        return new LoadReport(hosts, rootProblems, System.nanoTime() - start);
    }

    /** Loads one host folder; never throws for bad data. */
    public HostLoad loadFolder(Path folder) throws SQLException {
        long start = System.nanoTime();
        TraceReader reader;
        try {
            reader = TraceReader.open(folder);
        } catch (TraceException e) {
            return refused(folder, e.problem().name(), e.getMessage());
        }
        try (reader) {
            String host = uniqueHost(reader.session().hostId(), folder);
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
            long events = loadEvents(host, cursor);
            ReadOutcome outcome = reader.outcome();
            String detail = outcome == null ? folder + ": read " + events + " events" : outcome.detail();
            String status = outcome == null ? "TRUNCATED" : outcome.status().name();
            HostLoad load = new HostLoad(folder.toString(), host, status, detail, events, System.nanoTime() - start);
            recordHost(load, reader.session().formatVersion().toString());
            return load;
        }
    }

    /**
     * Loads events that are already in memory (tests, generated fixtures) as one host whose trace
     * ended cleanly if the last event is an END, else as TRUNCATED.
     */
    public HostLoad loadEvents(String host, List<TraceEvent> events) throws SQLException {
        long start = System.nanoTime();
        Iterator<TraceEvent> it = events.iterator();
        long loaded = loadEvents(host, () -> it.hasNext() ? it.next() : null);
        boolean clean = !events.isEmpty() && events.get(events.size() - 1) instanceof io.rdmatrace.trace.EndEvent;
        HostLoad load = new HostLoad(host, host, clean ? "CLEAN" : "TRUNCATED",
                host + ": " + loaded + " events from memory", loaded, System.nanoTime() - start);
        recordHost(load, io.rdmatrace.trace.FormatVersion.CURRENT.toString());
        return load;
    }

    private long loadEvents(String host, EventCursor cursor) throws SQLException {
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
        recordHost(load, null);
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

    private void recordHost(HostLoad load, String formatVersion) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(
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
