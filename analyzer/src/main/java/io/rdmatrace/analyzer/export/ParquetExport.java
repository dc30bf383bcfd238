package io.rdmatrace.analyzer.export;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.stream.Stream;

import io.rdmatrace.analyzer.Analysis;
import io.rdmatrace.analyzer.load.HostLoad;
import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.analyzer.load.bundle.BundleException;
import io.rdmatrace.trace.model.FormatVersion;

/**
 * Writes the analysis relations as Parquet partitioned by host, Hive-style ({@code OUT/TABLE/host=NAME/part-0.parquet}),
 * what DuckDB, Spark and Trino read as one table per folder; plus {@link ParquetManifest}'s {@code _schema.json} and
 * {@code README.md}. Only public relations are written (rules/README.md documents them and their change log), never the
 * private base tables, so an export's columns keep their names when the loader's tables change. The folder is staged
 * next to OUT and moved into place at the end: a failure leaves no half export.
 */
public final class ParquetExport {
    /** The layout's name and version, in the manifest; a reader refuses another major version. */
    public static final String LAYOUT = "rdmatrace-parquet/1";
    /** The partition column: a folder level, not a column of the files. */
    public static final String PARTITION = "host";

    /**
     * The relations exported: every public relation with one row per host's event, object or setting. Left out: the
     * cross-host ones ({@code connection_pairs}, {@code oob_messages}, {@code wire_packets}: each end's view of them is
     * {@code qp_peers}, {@code oob}, {@code softverbs_packets}) and the reference tables (the same on every export).
     */
    static final List<String> TABLES = List.of(
            "hosts", "overrides", "devices", "ports", "gids", "events", "calls", "completions", "posts",
            "work_requests", "sges", "async_events", "cm_events", "marks", "counters", "wire_counters", "oob",
            "softverbs_packets", "objects", "qps", "cqs", "mrs", "qp_state_timeline", "qp_settings", "qp_final_state",
            "qp_peers", "host_clock_offset");

    private ParquetExport() {
    }

    /** One exported column, with its DuckDB type name ({@code BIGINT}, {@code VARCHAR[]} ...). */
    public record Column(String name, String type) {
        public Column {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
        }
    }

    /** One exported table: its folder under OUT, its rows, and its columns in order (the partition column included). */
    public record Table(String name, long rows, List<Column> columns) {
        public Table {
            Objects.requireNonNull(name, "name");
            columns = List.copyOf(columns);
        }
    }

    /** What an export wrote. */
    public record Result(Path folder, long bytes, List<HostLoad> hosts, List<Table> tables, List<String> formatVersions) {
        public Result {
            hosts = List.copyOf(hosts);
            tables = List.copyOf(tables);
            formatVersions = List.copyOf(formatVersions);
        }
    }

    /**
     * @param inputs      trace folders (capture folders, host folders, bundles), loaded as one analysis
     * @param out         the folder to write: absent, or an empty folder
     * @param toolVersion recorded in the manifest
     * @throws BundleException for unusable input or output (the message says which and why)
     */
    public static Result export(List<Path> inputs, Path out, String toolVersion) throws BundleException, SQLException {
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("no trace to export");
        }
        checkOutput(out);
        try (Analysis session = Analysis.open(inputs)) {
            LoadReport load = session.load();
            if (!load.anyReadable()) {
                throw new BundleException(inputs + ": nothing to export: no readable host trace");
            }
            Connection c = session.connection();
            Path target = out.toAbsolutePath();
            Path staging = Files.createTempDirectory(target.getParent(), "." + target.getFileName() + ".tmp-");
            try {
                List<Table> tables = new ArrayList<>();
                for (String name : TABLES) {
                    tables.add(write(c, name, staging.resolve(name)));
                }
                List<String> versions = formatVersions(c);
                ParquetManifest.write(staging, new ParquetManifest.Contents(toolVersion, FormatVersion.CURRENT.toString(),
                        versions, load.hosts(), tables));
                long bytes = size(staging);
                if (Files.isDirectory(target)) {
                    Files.delete(target); // checked empty above; a file put there since makes this fail, not vanish
                }
                Files.move(staging, target);
                return new Result(target, bytes, load.hosts(), tables, versions);
            } finally {
                if (Files.exists(staging)) {
                    deleteTree(staging);
                }
            }
        } catch (IOException e) {
            throw new BundleException("cannot write " + out + ": " + e.getMessage(), e);
        }
    }

    /** OUT must be absent or an empty folder, in a folder that exists: an export never mixes with older files. */
    public static void checkOutput(Path out) throws BundleException {
        if (Files.isRegularFile(out)) {
            throw new BundleException(out + ": is a file; give a folder to write the Parquet tables into");
        }
        if (Files.isDirectory(out)) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(out)) {
                if (entries.iterator().hasNext()) {
                    throw new BundleException(out + ": is not empty; give a new or empty folder");
                }
            } catch (IOException e) {
                throw new BundleException(out + ": cannot read it: " + e.getMessage(), e);
            }
        }
        Path parent = out.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new BundleException(out + ": its folder does not exist");
        }
    }

    /** One relation's rows, by DuckDB (one file per host folder); a relation without rows gets an empty folder. */
    private static Table write(Connection c, String name, Path folder) throws SQLException, IOException {
        List<Column> columns = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("DESCRIBE SELECT * FROM " + name)) {
            while (rs.next()) {
                columns.add(new Column(rs.getString("column_name"), rs.getString("column_type")));
            }
        }
        if (columns.stream().noneMatch(col -> col.name().equals(PARTITION))) {
            throw new IllegalStateException(name + " has no " + PARTITION + " column to partition by");
        }
        long rows;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM " + name)) {
            rs.next();
            rows = rs.getLong(1);
        }
        Files.createDirectories(folder);
        if (rows > 0) {
            try (Statement s = c.createStatement()) {
                // ORDER BY: files in event order, whatever order the view's threads produced them in
                String order = columns.stream().anyMatch(col -> col.name().equals("seq")) ? " ORDER BY host, seq" : "";
                s.execute("COPY (SELECT * FROM " + name + order + ") TO " + literal(folder.toString())
                        + " (FORMAT parquet, PARTITION_BY (" + PARTITION + "), FILENAME_PATTERN 'part-{i}', OVERWRITE_OR_IGNORE)");
            }
        }
        return new Table(name, rows, columns);
    }

    /** The trace format versions of the loaded hosts, e.g. [1.4]. */
    private static List<String> formatVersions(Connection c) throws SQLException {
        TreeSet<String> versions = new TreeSet<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT DISTINCT format_version FROM hosts WHERE format_version IS NOT NULL")) {
            while (rs.next()) {
                versions.add(rs.getString(1));
            }
        }
        return List.copyOf(versions);
    }

    static String literal(String text) {
        return "'" + text.replace("'", "''") + "'";
    }

    private static long size(Path folder) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    private static void deleteTree(Path folder) {
        try (Stream<Path> files = Files.walk(folder)) {
            files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a staging folder left behind (hidden, named .OUT.tmp-*) is harmless
        }
    }
}
