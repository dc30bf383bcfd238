package io.rdmatrace.fleet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The fleet queries on DuckDB in-process, over an export folder: each table a view over its host folders'
 * Parquet files (Hive partitioning, {@code host} read as text), then each query file a view.
 */
public final class DuckDbFleet implements AutoCloseable {
    private final Connection connection;

    private DuckDbFleet(Connection connection) {
        this.connection = connection;
    }

    /** An in-memory DuckDB with the export's tables registered. */
    public static DuckDbFleet open(Path export) throws SQLException, IOException {
        ExportSchema schema = ExportSchema.parse(Files.readString(export.resolve(ExportSchema.FILE)));
        Connection c = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement s = c.createStatement()) {
            s.execute("SET autoinstall_known_extensions = false"); // never a download
            for (ExportSchema.Table t : schema.tables()) {
                s.execute(tableSql(export, t));
            }
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
        return new DuckDbFleet(c);
    }

    /** A view with the manifest's columns and types: over the files, or with no rows when the folder has none. */
    static String tableSql(Path export, ExportSchema.Table t) {
        List<String> columns = new ArrayList<>();
        for (ExportSchema.Column col : t.columns()) {
            columns.add(t.rows() == 0 ? "CAST(NULL AS " + col.type() + ") AS \"" + col.name() + "\""
                    : "CAST(\"" + col.name() + "\" AS " + col.type() + ") AS \"" + col.name() + "\"");
        }
        String from = t.rows() == 0 ? " WHERE false"
                : " FROM read_parquet(" + literal(export.resolve(t.name()).toAbsolutePath() + "/*/*.parquet")
                        + ", hive_partitioning = true, hive_types = {'host': 'VARCHAR'})";
        return "CREATE VIEW \"" + t.name() + "\" AS SELECT " + String.join(", ", columns) + from;
    }

    /** Runs the queries in order; returns each view's rows. */
    public List<QueryRows> run(List<FleetQueries.Query> queries) throws SQLException {
        List<QueryRows> results = new ArrayList<>();
        try (Statement s = connection.createStatement()) {
            for (FleetQueries.Query q : queries) {
                try {
                    s.execute(q.createTableSql());
                } catch (SQLException e) {
                    throw new SQLException(q.view() + ": " + e.getMessage(), e);
                }
            }
            for (FleetQueries.Query q : queries) {
                try (ResultSet rs = s.executeQuery("SELECT * FROM " + q.view())) {
                    results.add(rows(q.view(), rs));
                }
            }
        }
        return results;
    }

    private static QueryRows rows(String view, ResultSet rs) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        List<String> columns = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            columns.add(meta.getColumnLabel(i));
        }
        List<List<String>> rows = new ArrayList<>();
        while (rs.next()) {
            List<String> row = new ArrayList<>();
            for (int i = 1; i <= columns.size(); i++) {
                row.add(QueryRows.text(rs.getObject(i)));
            }
            rows.add(row);
        }
        return new QueryRows(view, columns, rows);
    }

    /** The connection, for further SQL over the same tables and views. */
    public Connection connection() {
        return connection;
    }

    private static String literal(String text) {
        return "'" + text.replace("'", "''") + "'";
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
