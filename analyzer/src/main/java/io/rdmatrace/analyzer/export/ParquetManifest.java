package io.rdmatrace.analyzer.export;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.rdmatrace.analyzer.load.HostLoad;
import io.rdmatrace.analyzer.report.JsonWriter;

/**
 * The two self-descriptions of a Parquet export: {@code _schema.json} for programs (the fleet module's runners read
 * the column types from it, so an empty table still has its columns) and {@code README.md} for people. Both start
 * with {@code _} or are not Parquet, so Spark's and DuckDB's folder readers skip them.
 */
final class ParquetManifest {
    static final String SCHEMA = "_schema.json";
    static final String README = "README.md";

    private ParquetManifest() {
    }

    /**
     * @param readerFormat   the newest trace format this tool reads
     * @param formatVersions the trace formats of the exported hosts
     */
    record Contents(String toolVersion, String readerFormat, List<String> formatVersions, List<HostLoad> hosts,
                    List<ParquetExport.Table> tables) {
    }

    static void write(Path folder, Contents c) throws IOException {
        Files.writeString(folder.resolve(SCHEMA), json(c));
        Files.writeString(folder.resolve(README), readme(c));
    }

    static String json(Contents c) {
        JsonWriter j = new JsonWriter().beginObject()
                .member("layout", ParquetExport.LAYOUT)
                .member("tool_version", c.toolVersion())
                .member("trace_format", c.readerFormat());
        j.name("trace_format_versions").beginArray();
        c.formatVersions().forEach(j::value);
        j.endArray();
        j.member("partitioned_by", ParquetExport.PARTITION);
        j.name("hosts").beginArray();
        for (HostLoad h : c.hosts()) {
            j.beginObject().member("host", h.host()).member("status", h.status()).member("events", h.events()).endObject();
        }
        j.endArray();
        j.name("tables").beginArray();
        for (ParquetExport.Table t : c.tables()) {
            j.beginObject().member("name", t.name()).member("rows", t.rows());
            j.name("columns").beginArray();
            for (ParquetExport.Column col : t.columns()) {
                j.beginObject().member("name", col.name()).member("type", col.type()).endObject();
            }
            j.endArray().endObject();
        }
        return j.endArray().endObject().toJson() + "\n";
    }

    static String readme(Contents c) {
        StringBuilder b = new StringBuilder();
        b.append("# rdmatrace Parquet export (").append(ParquetExport.LAYOUT).append(")\n\n");
        b.append("Written by rdmatrace ").append(c.toolVersion()).append(" from traces of format ")
                .append(String.join(", ", c.formatVersions())).append(" (this rdmatrace reads up to ")
                .append(c.readerFormat()).append("). One folder per table, partitioned by host, Hive-style:\n")
                .append("`TABLE/host=NAME/part-0.parquet` (the `host` column is the folder level, not in the files;\n")
                .append("read it as text: a host named `10` is not a number). A table without rows is an empty folder:\n")
                .append("take its columns from `_schema.json`. The tables and columns are the analyzer's relations of\n")
                .append("the same names (rules/README.md in rdmatrace documents every column).\n\n");
        b.append("Hosts: ");
        for (int i = 0; i < c.hosts().size(); i++) {
            HostLoad h = c.hosts().get(i);
            b.append(i == 0 ? "" : ", ").append(h.host()).append(" (").append(h.status()).append(", ").append(h.events())
                    .append(" events)");
        }
        b.append("\n\n| table | rows | columns |\n|---|---|---|\n");
        for (ParquetExport.Table t : c.tables()) {
            b.append("| `").append(t.name()).append("` | ").append(t.rows()).append(" | ");
            for (int i = 0; i < t.columns().size(); i++) {
                ParquetExport.Column col = t.columns().get(i);
                b.append(i == 0 ? "" : ", ").append(col.name()).append(' ').append(col.type());
            }
            b.append(" |\n");
        }
        return b.toString();
    }
}
