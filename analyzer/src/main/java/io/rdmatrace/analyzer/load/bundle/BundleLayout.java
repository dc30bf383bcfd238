package io.rdmatrace.analyzer.load.bundle;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * What an export bundle holds (a zip file):
 * <pre>
 *   manifest.json                  format, version, hosts, tables, redaction summary
 *   report.md                      the analysis report (and what was redacted)
 *   session/&lt;host&gt;.json           each host's SESSION metadata
 *   hosts/&lt;host&gt;/&lt;table&gt;.parquet  each host's rows of each analyzer base table (without
 *                                  the leading '_'), written by DuckDB
 * </pre>
 * The Parquet files hold the analyzer's base tables, so loading a bundle is reading them back
 * into the same tables; any Parquet reader can open them.
 */
public final class BundleLayout {
    public static final String FORMAT = "rdmatrace-bundle";
    /** Bumped on incompatible changes; readers refuse other majors. */
    public static final int FORMAT_MAJOR = 1;
    public static final int FORMAT_MINOR = 0;
    public static final String MANIFEST = "manifest.json";
    public static final String REPORT = "report.md";
    public static final String SESSIONS = "session/";
    public static final String HOSTS = "hosts/";
    public static final String PARQUET = ".parquet";

    private static final Pattern UNSAFE = Pattern.compile("[^A-Za-z0-9._-]");

    private BundleLayout() {
    }

    /** A host id as a safe zip folder name (the real id is in the rows). */
    public static String folderName(String host) {
        String name = UNSAFE.matcher(host).replaceAll("_");
        return name.isEmpty() || name.startsWith(".") ? "_" + name : name;
    }

    /**
     * True when {@code path} is a regular file that starts like a zip archive; whether it is an
     * rdmatrace bundle is checked when it is loaded (its manifest).
     */
    public static boolean looksLikeBundle(Path path) {
        if (!Files.isRegularFile(path)) {
            return false;
        }
        try (InputStream in = Files.newInputStream(path)) {
            byte[] magic = in.readNBytes(4);
            return magic.length == 4 && magic[0] == 'P' && magic[1] == 'K' && magic[2] == 3 && magic[3] == 4;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The analyzer's base tables, whose rows a bundle carries: underscore tables with a host
     * column. Call it before {@code AnalysisDatabase.finishLoading()}, which adds derived tables
     * of the same shape.
     */
    public static Set<String> baseTables(Connection c) throws SQLException {
        Set<String> tables = new TreeSet<>();
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT c.table_name FROM duckdb_columns() c JOIN duckdb_tables() t "
                        + "ON t.table_name = c.table_name AND t.schema_name = c.schema_name "
                        + "WHERE c.column_name = 'host' AND c.table_name LIKE '\\_%' ESCAPE '\\' AND NOT t.internal")) {
            while (rs.next()) {
                tables.add(rs.getString(1));
            }
        }
        return tables;
    }
}
