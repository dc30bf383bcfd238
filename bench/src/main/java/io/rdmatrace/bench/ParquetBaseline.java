package io.rdmatrace.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import io.rdmatrace.analyzer.Analysis;

/**
 * DuckDB's own pace, the baseline of the analyzer's load: the base tables a trace loads into,
 * written once to Parquet files, then read back by DuckDB into a fresh in-memory database with
 * all its threads ({@code CREATE TABLE ... AS SELECT * FROM read_parquet(...)}).
 */
final class ParquetBaseline {
    private static final String DONE = "exported";

    private ParquetBaseline() {
    }

    /** Writes every non-empty table of the loaded (not yet finished) trace to {@code out}/NAME.parquet, once. */
    static Path export(Path trace, Path out) throws IOException, SQLException {
        if (Files.exists(out.resolve(DONE))) {
            return out;
        }
        delete(out);
        Files.createDirectories(out);
        try (Analysis analysis = Analysis.open(List.of(trace));
                Statement statement = analysis.database().connection().createStatement()) {
            List<String> tables = new ArrayList<>();
            // DISTINCT: in memory, _datapath is a view over a few compressed databases (lanes) of one table each
            try (ResultSet rs = statement.executeQuery(
                    "SELECT DISTINCT table_name FROM duckdb_tables() WHERE estimated_size > 0 ORDER BY 1")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            for (String table : tables) {
                statement.execute("COPY (SELECT * FROM " + table + ") TO '" + out.resolve(table + ".parquet")
                        + "' (FORMAT parquet)");
            }
        }
        Files.writeString(out.resolve(DONE), "");
        return out;
    }

    /** Nanoseconds DuckDB takes to load every Parquet file of {@code dir} into tables. */
    static long load(Path dir) throws IOException, SQLException {
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(p -> p.getFileName().toString().endsWith(".parquet")).sorted().toList();
        }
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
                Statement statement = connection.createStatement()) {
            long start = System.nanoTime();
            for (Path file : files) {
                String table = file.getFileName().toString().replace(".parquet", "");
                statement.execute("CREATE TABLE " + table + " AS SELECT * FROM read_parquet('" + file + "')");
            }
            return System.nanoTime() - start;
        }
    }

    static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
