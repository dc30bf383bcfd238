package io.rdmatrace.analyzer.load;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

import io.rdmatrace.trace.Attr;
import io.rdmatrace.trace.ErrnoNames;
import io.rdmatrace.trace.Verb;

/**
 * Name tables for SQL, generated from the trace model's own dictionaries so the SQL side never
 * keeps a second copy that could drift: verbs, attributes, enum/flag names, errno names.
 */
final class ReferenceTables {
    private static final int MAX_ERRNO = 140;

    private ReferenceTables() {
    }

    static void create(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE _verb (code SMALLINT PRIMARY KEY, name VARCHAR)");
            statement.execute("CREATE TABLE _attr (name VARCHAR PRIMARY KEY, code INTEGER, kind VARCHAR, "
                    + "sql_type VARCHAR, description VARCHAR)");
            statement.execute("CREATE TABLE _value_name (attr VARCHAR, value BIGINT, name VARCHAR, is_flag BOOLEAN)");
            statement.execute("CREATE TABLE _errno (errno INTEGER PRIMARY KEY, name VARCHAR)");
        }
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO _verb VALUES (?, ?)")) {
            for (Verb verb : Verb.values()) {
                insert.setInt(1, verb.code());
                insert.setString(2, verb.function());
                insert.addBatch();
            }
            insert.executeBatch();
        }
        try (PreparedStatement attrs = connection.prepareStatement("INSERT INTO _attr VALUES (?, ?, ?, ?, ?)");
                PreparedStatement names = connection.prepareStatement("INSERT INTO _value_name VALUES (?, ?, ?, ?)")) {
            for (Attr attr : Attr.values()) {
                attrs.setString(1, attr.column());
                attrs.setInt(2, attr.code());
                attrs.setString(3, attr.kind().name());
                attrs.setString(4, SqlType.of(attr).name());
                attrs.setString(5, attr.description());
                attrs.addBatch();
                if (attr.names() != null) {
                    for (Map.Entry<Long, String> entry : attr.names().entries().entrySet()) {
                        names.setString(1, attr.column());
                        names.setLong(2, entry.getKey());
                        names.setString(3, entry.getValue());
                        names.setBoolean(4, attr.names().isFlags());
                        names.addBatch();
                    }
                }
            }
            attrs.executeBatch();
            names.executeBatch();
        }
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO _errno VALUES (?, ?)")) {
            for (int errno = 0; errno <= MAX_ERRNO; errno++) {
                String name = ErrnoNames.name(errno);
                if (!name.startsWith("errno ")) {
                    insert.setInt(1, errno);
                    insert.setString(2, name);
                    insert.addBatch();
                }
            }
            insert.executeBatch();
        }
    }
}
