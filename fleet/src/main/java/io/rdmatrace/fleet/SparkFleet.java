package io.rdmatrace.fleet;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The fleet queries on Apache Spark SQL, over an export folder on any file system Spark reads (a local path,
 * hdfs://, s3a://): each table read with the manifest's schema (so {@code host} is text and an empty folder still
 * has its columns), then each query file a temporary view. On a cluster:
 * <pre>
 * spark-submit --class io.rdmatrace.fleet.SparkFleet rdmatrace-fleet.jar OUT [VIEW...]
 * </pre>
 * prints each view (all of them, or those named) as tab-separated rows with a header.
 */
public final class SparkFleet {
    private SparkFleet() {
    }

    /** Registers every table of the export in {@code spark} as a temporary view. */
    public static ExportSchema register(SparkSession spark, String export) {
        return register(spark, export, null);
    }

    /**
     * Registers the tables {@code queries} name (all when null): each registration lists its folder's files, which
     * for 27 tables was most of a small export's registering time.
     */
    public static ExportSchema register(SparkSession spark, String export, List<FleetQueries.Query> queries) {
        String base = export.endsWith("/") ? export.substring(0, export.length() - 1) : export;
        ExportSchema schema = ExportSchema.parse(manifest(spark, base + "/" + ExportSchema.FILE));
        for (ExportSchema.Table t : schema.tables()) {
            if (queries != null && queries.stream().noneMatch(q -> q.reads(t.name()))) {
                continue;
            }
            List<String> ddl = new ArrayList<>();
            for (ExportSchema.Column c : t.columns()) {
                ddl.add("`" + c.name() + "` " + c.sparkType());
            }
            spark.read().schema(String.join(", ", ddl)).option("basePath", base + "/" + t.name())
                    .parquet(base + "/" + t.name()).createOrReplaceTempView(t.name());
        }
        return schema;
    }

    /**
     * The manifest's text, from the file system the tables are on (Hadoop's, as Spark's readers use it); not through
     * Spark's readers, which skip files whose names start with {@code _}.
     */
    static String manifest(SparkSession spark, String file) {
        org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file);
        try (InputStream in = path.getFileSystem(spark.sparkContext().hadoopConfiguration()).open(path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot read the export's manifest: " + e.getMessage(), e);
        }
    }

    /** Runs the queries in order over the registered tables; returns each view's rows. */
    public static List<QueryRows> run(SparkSession spark, List<FleetQueries.Query> queries) {
        List<QueryRows> results = new ArrayList<>();
        for (FleetQueries.Query q : queries) {
            // computed once and kept (its plan cut there): a later file reading it twice reads the result twice
            Dataset<Row> df = spark.sql(q.sql()).localCheckpoint(true);
            df.createOrReplaceTempView(q.view());
            List<String> columns = List.of(df.columns());
            List<List<String>> rows = new ArrayList<>();
            for (Row r : df.collectAsList()) {
                List<String> row = new ArrayList<>();
                for (int i = 0; i < r.length(); i++) {
                    row.add(QueryRows.text(r.get(i)));
                }
                rows.add(row);
            }
            results.add(new QueryRows(q.view(), columns, rows));
        }
        return results;
    }

    public static void main(String[] args) {
        if (args.length < 1) {
            System.err.println("usage: spark-submit --class " + SparkFleet.class.getName() + " rdmatrace-fleet.jar OUT [VIEW...]");
            System.exit(2);
        }
        List<String> wanted = List.of(args).subList(1, args.length);
        SparkSession spark = SparkSession.builder().appName("rdmatrace-fleet").getOrCreate();
        try {
            List<FleetQueries.Query> queries = FleetQueries.bundled();
            register(spark, args[0], queries);
            for (QueryRows r : run(spark, queries)) {
                if (wanted.isEmpty() || wanted.contains(r.view())) {
                    System.out.print("## " + r.view() + " (" + r.rows().size() + " rows)\n" + r.tsv() + "\n");
                }
            }
        } finally {
            spark.stop();
        }
    }
}
