package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rdmatrace.analyzer.Analysis;

/**
 * `rdmatrace export --format parquet OUT TRACE` in-process on a shipped sample, read back with DuckDB: every table's
 * rows equal the analysis relation of the same name (both ways, duplicates counted), per host folder; the manifest
 * names the columns and the trace format; usage errors exit 2. ~10 s.
 */
class ExportParquetCommandTest {
    @TempDir
    static Path dir;

    static final Path SAMPLE = Path.of("..").toAbsolutePath().normalize().resolve("sample-traces/path-mtu-one-side");
    static Path out;
    static Run exported;

    record Run(int exit, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int exit = Main.execute(new PrintWriter(o), new PrintWriter(e), args);
        return new Run(exit, o.toString(), e.toString());
    }

    @BeforeAll
    static void export() {
        out = dir.resolve("pq");
        exported = run("export", "--format", "parquet", out.toString(), SAMPLE.toString());
    }

    @Test
    void export_writesEveryTableByHost_andDuckDbReadsBackTheSameRows() throws Exception {
        assertThat(exported.exit()).as(exported.out() + exported.err()).isZero();
        assertThat(exported.out()).contains("rdmatrace export: wrote " + out, "2 host(s), 27 table(s)", "partitioned by host");
        assertThat(out.resolve("calls/host=hostA/part-0.parquet")).isRegularFile();
        assertThat(out.resolve("calls/host=hostB/part-0.parquet")).isRegularFile();
        try (Analysis a = Analysis.open(List.of(SAMPLE)); Statement s = a.connection().createStatement()) {
            List<String> tables = strings(s, "SELECT unnest(tables).name FROM read_json(" + literal(out.resolve("_schema.json")) + ")");
            assertThat(tables).contains("hosts", "calls", "completions", "qp_state_timeline", "qp_settings", "cm_events",
                    "counters", "qp_peers").doesNotContain("_call", "_ctl", "connection_pairs");
            long compared = 0;
            for (String table : tables) {
                List<String> columns = strings(s, "SELECT column_name FROM (DESCRIBE SELECT * FROM " + table + ")");
                String exportedRows = "SELECT " + String.join(", ", quoted(columns)) + " FROM read_parquet("
                        + literal(out.resolve(table)) + " || '/*/*.parquet', hive_partitioning = true, hive_types = {'host': 'VARCHAR'})";
                long rows = count(s, "SELECT * FROM " + table);
                if (rows == 0) {
                    assertThat(out.resolve(table)).as(table + " without rows: an empty folder").isEmptyDirectory();
                    continue;
                }
                assertThat(count(s, exportedRows)).as(table + " rows").isEqualTo(rows);
                assertThat(count(s, "SELECT * FROM " + table + " EXCEPT ALL " + exportedRows)).as(table + ": rows not exported").isZero();
                assertThat(count(s, exportedRows + " EXCEPT ALL SELECT * FROM " + table)).as(table + ": rows not in the analysis").isZero();
                compared += rows;
            }
            assertThat(compared).isGreaterThan(300);
            // the sample's point survives the trip: the two ends' path MTUs differ, each in its own host folder
            assertThat(strings(s, "SELECT host || '=' || path_mtu FROM read_parquet(" + literal(out.resolve("qp_settings"))
                    + " || '/*/*.parquet', hive_partitioning = true) ORDER BY host"))
                    .isEqualTo(strings(s, "SELECT host || '=' || path_mtu FROM qp_settings ORDER BY host"))
                    .hasSize(2).doesNotHaveDuplicates();
        }
    }

    @Test
    void manifest_namesTablesColumnsTypesAndTheTraceFormat() throws Exception {
        assertThat(exported.exit()).isZero();
        try (Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            String schema = literal(out.resolve("_schema.json"));
            assertThat(strings(s, "SELECT layout || ' ' || partitioned_by || ' ' || trace_format_versions[1] FROM read_json(" + schema + ")"))
                    .containsExactly("rdmatrace-parquet/1 host 1.0");
            assertThat(strings(s, "SELECT c.type FROM (SELECT unnest(tables) t FROM read_json(" + schema + ")), "
                    + "unnest(t.columns) AS u(c) WHERE t.name = 'qp_settings' AND c.name IN ('path_mtu', 'states_reached', 'host') ORDER BY c.name"))
                    .containsExactly("VARCHAR", "INTEGER", "VARCHAR[]");
            assertThat(strings(s, "SELECT t.rows FROM (SELECT unnest(tables) t FROM read_json(" + schema + ")) WHERE t.name = 'cm_events'"))
                    .containsExactly("0");
        }
        assertThat(Files.readString(out.resolve("README.md"))).contains("rdmatrace-parquet/1", "host=NAME/part-0.parquet",
                "| `calls` |", "_schema.json");
        try (Stream<Path> top = Files.list(out)) {
            assertThat(top.filter(p -> p.getFileName().toString().startsWith("."))).as("no staging folder left").isEmpty();
        }
    }

    @Test
    void usageErrors_exit2() throws Exception {
        Run format = run("export", "--format", "csv", dir.resolve("x").toString(), SAMPLE.toString());
        assertThat(format.exit()).isEqualTo(2);
        assertThat(format.err()).contains("rdmatrace export:", "--format", "csv", "bundle, parquet");
        Path full = Files.createDirectories(dir.resolve("full"));
        Files.writeString(full.resolve("old.txt"), "x");
        Run notEmpty = run("export", "--format", "parquet", full.toString(), SAMPLE.toString());
        assertThat(notEmpty.exit()).isEqualTo(2);
        assertThat(notEmpty.err()).contains("rdmatrace export: " + full + ": is not empty");
        assertThat(full.resolve("old.txt")).hasContent("x");
        Run noTrace = run("export", "--format", "parquet", dir.resolve("y").toString());
        assertThat(noTrace.exit()).isEqualTo(2);
        assertThat(noTrace.err()).contains("OUT and at least one TRACE");
        Run withO = run("export", "--format", "parquet", "-o", "a.zip", dir.resolve("y").toString(), SAMPLE.toString());
        assertThat(withO.exit()).isEqualTo(2);
        assertThat(withO.err()).contains("without -o");
        Run missing = run("export", "--format", "parquet", dir.resolve("z").toString(), dir.resolve("nowhere").toString());
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("nowhere: no such trace folder");
        Run twoForBundle = run("export", SAMPLE.toString(), SAMPLE.toString(), "-o", dir.resolve("b.zip").toString());
        assertThat(twoForBundle.exit()).isEqualTo(2);
        assertThat(twoForBundle.err()).contains("a bundle takes one TRACE folder");
        assertThat(dir.resolve("y")).doesNotExist();
        assertThat(dir.resolve("z")).doesNotExist();
    }

    private static String literal(Path p) {
        return "'" + p.toString().replace("'", "''") + "'";
    }

    private static List<String> quoted(List<String> names) {
        List<String> q = new ArrayList<>();
        for (String n : names) {
            q.add('"' + n + '"');
        }
        return q;
    }

    private static long count(Statement s, String query) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT count(*) FROM (" + query + ")")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static List<String> strings(Statement s, String query) throws SQLException {
        List<String> values = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(query)) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }
}
