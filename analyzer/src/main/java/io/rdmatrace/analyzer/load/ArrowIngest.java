package io.rdmatrace.analyzer.load;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBConnection;

/**
 * Hands an {@link ArrowReader} to DuckDB through the Arrow C stream interface and appends its
 * rows to a base table (columns the batches do not carry stay NULL), adding the host column in
 * SQL when the batches do not carry it.
 */
final class ArrowIngest {
    private final DuckDBConnection connection;
    private final BufferAllocator allocator;

    ArrowIngest(DuckDBConnection connection, BufferAllocator allocator) {
        this.connection = connection;
        this.allocator = allocator;
    }

    /** Streams every batch of {@code reader} (whose fields are {@code columns}) into {@code table}; closes the reader. */
    long insert(String table, String host, ArrowReader reader, List<Column> columns) throws SQLException {
        String names = names(columns);
        return insert(reader, "INSERT INTO " + table + " (host, " + names + ") SELECT " + literal(host) + ", " + names + " FROM ");
    }

    /** As {@link #insert}, with no host added: the batches carry the host column themselves. */
    long insertColumns(String table, ArrowReader reader, List<Column> columns) throws SQLException {
        String names = names(columns);
        return insert(reader, "INSERT INTO " + table + " (" + names + ") SELECT " + names + " FROM ");
    }

    private static String names(List<Column> columns) {
        return columns.stream().map(Column::name).collect(Collectors.joining(", "));
    }

    /** Runs {@code insertFrom} followed by the name the stream of {@code reader} is registered under. */
    private long insert(ArrowReader reader, String insertFrom) throws SQLException {
        // unique across connections: hosts load in parallel into one database
        String name = "_arrow_stream_" + UUID.randomUUID().toString().replace("-", "");
        try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
            Data.exportArrayStream(allocator, reader, stream);
            connection.registerArrowStream(name, stream);
            try (Statement statement = connection.createStatement()) {
                return statement.executeLargeUpdate(insertFrom + name);
            }
        }
    }

    static String literal(String text) {
        return "'" + text.replace("'", "''") + "'";
    }
}
