package io.rdmatrace.fleet;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The {@code _schema.json} of an {@code rdmatrace export --format parquet} folder: its tables and their typed columns.
 * Both engines take the columns from here rather than from the files, so a table without rows (an empty folder) still
 * has them and the host partition reads as text on both.
 */
public record ExportSchema(String layout, String traceFormat, List<String> traceFormatVersions, List<Table> tables) {
    /** The layout major version this reads. */
    static final String LAYOUT_MAJOR = "rdmatrace-parquet/1";
    /** The manifest's file name in the export folder. */
    public static final String FILE = "_schema.json";

    public ExportSchema {
        Objects.requireNonNull(layout, "layout");
        traceFormatVersions = List.copyOf(traceFormatVersions);
        tables = List.copyOf(tables);
    }

    /** One column, with its DuckDB type name as exported ({@code BIGINT}, {@code VARCHAR[]} ...). */
    public record Column(String name, String type) {
        public Column {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
        }

        /** The Spark SQL type of this DuckDB type. */
        public String sparkType() {
            if (type.endsWith("[]")) {
                return "ARRAY<" + new Column(name, type.substring(0, type.length() - 2)).sparkType() + ">";
            }
            return switch (type.toUpperCase(Locale.ROOT)) {
                case "VARCHAR" -> "STRING";
                case "BIGINT" -> "BIGINT";
                case "INTEGER" -> "INT";
                case "SMALLINT" -> "SMALLINT";
                case "TINYINT" -> "TINYINT";
                case "BOOLEAN" -> "BOOLEAN";
                case "DOUBLE" -> "DOUBLE";
                case "FLOAT" -> "FLOAT";
                default -> throw new IllegalArgumentException("column " + name + ": type " + type + " has no Spark equivalent here");
            };
        }
    }

    /** One table: its folder name under the export and its columns (the partition column {@code host} included). */
    public record Table(String name, long rows, List<Column> columns) {
        public Table {
            Objects.requireNonNull(name, "name");
            columns = List.copyOf(columns);
        }
    }

    /** Parses the manifest's text; refuses another layout major version. */
    public static ExportSchema parse(String json) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(FILE + " is not JSON: " + e.getMessage(), e);
        }
        String layout = root.path("layout").asText("");
        if (!layout.equals(LAYOUT_MAJOR) && !layout.startsWith(LAYOUT_MAJOR + ".")) {
            throw new IllegalArgumentException(FILE + ": layout '" + layout + "' is not " + LAYOUT_MAJOR
                    + " (written by another rdmatrace version?)");
        }
        List<String> versions = new ArrayList<>();
        root.path("trace_format_versions").forEach(v -> versions.add(v.asText()));
        List<Table> tables = new ArrayList<>();
        for (JsonNode t : root.path("tables")) {
            List<Column> columns = new ArrayList<>();
            for (JsonNode c : t.path("columns")) {
                columns.add(new Column(c.path("name").asText(), c.path("type").asText()));
            }
            tables.add(new Table(t.path("name").asText(), t.path("rows").asLong(), columns));
        }
        if (tables.isEmpty()) {
            throw new IllegalArgumentException(FILE + " lists no tables");
        }
        return new ExportSchema(layout, root.path("trace_format").asText(""), versions, tables);
    }
}
