package io.rdmatrace.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rdmatrace.analyzer.export.ParquetExport;
import io.rdmatrace.trace.synth.RecordedProgramTrace;
import io.rdmatrace.trace.synth.RecordedProgramTrace.Connection;

/**
 * The same query files (fleet/sql) on DuckDB in-process and on Spark SQL {@code local[2]} over the same Parquet
 * export, rows compared exactly, on a shipped two-host fault sample and on a synthetic recorded job of 24 processes
 * on 12 machines (48 connections) with one client's path MTU wrong. The portable pairing must also equal the
 * analyzer's own (qp_peers, exported beside the tables). One Spark session for the class: ~25-40 s in all, most of
 * it Spark's start and first query plans (the exports take ~10 s).
 */
class EngineEquivalenceTest {
    @TempDir
    static Path dir;

    static SparkSession spark;
    static Path sampleExport;
    static Path jobExport;
    static final int MACHINES = 12;
    static final int PROCS = 2;
    static final String FAULTY_CLIENT = host(0);

    @BeforeAll
    static void exportsAndSpark() throws Exception {
        Path sample = Path.of("..").toAbsolutePath().normalize().resolve("sample-traces/path-mtu-one-side");
        sampleExport = dir.resolve("sample-parquet");
        long t0 = System.nanoTime();
        ParquetExport.export(List.of(sample), sampleExport, "test");
        phase("sample export", t0);

        // process i is the client of the process on the next machine and of the one two machines on
        List<String> hosts = new ArrayList<>();
        for (int i = 0; i < MACHINES * PROCS; i++) {
            hosts.add(host(i));
        }
        List<Connection> links = new ArrayList<>();
        Map<String, Long> skew = new LinkedHashMap<>();
        for (int i = 0; i < hosts.size(); i++) {
            links.add(new Connection(hosts.get(i), hosts.get((i + PROCS) % hosts.size())));
            links.add(new Connection(hosts.get(i), hosts.get((i + 2 * PROCS) % hosts.size())));
            skew.put(hosts.get(i), (i % 5) * 100_000L);
        }
        Path job = dir.resolve("job");
        t0 = System.nanoTime();
        RecordedProgramTrace.write(new RecordedProgramTrace.Spec(job, hosts, links, 2, skew,
                RecordedProgramTrace.Fault.MTU_MISMATCH));
        phase("job traces", t0);
        jobExport = dir.resolve("job-parquet");
        t0 = System.nanoTime();
        ParquetExport.export(List.of(job), jobExport, "test");
        phase("job export", t0);
        t0 = System.nanoTime();

        spark = SparkSession.builder().master("local[2]").appName("rdmatrace-fleet-test")
                .config("spark.ui.enabled", "false")
                // tables of a few hundred rows: no re-planning between stages, no generated code to compile
                // (Janino), one shuffle partition; the answers are the same, the test's CPU less
                .config("spark.sql.shuffle.partitions", "1")
                .config("spark.sql.adaptive.enabled", "false")
                .config("spark.sql.codegen.wholeStage", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.sql.session.timeZone", "UTC")
                .config("spark.local.dir", dir.resolve("spark-local").toString())
                .config("spark.sql.warehouse.dir", dir.resolve("spark-warehouse").toString())
                .getOrCreate();
        phase("spark start", t0);
    }

    /** Where the test's time goes, in its output (the CI cost is stated from these). */
    static void phase(String what, long startNanos) {
        System.out.printf(Locale.ROOT, "fleet test: %s %.1f s%n", what, (System.nanoTime() - startNanos) / 1e9);
    }

    @AfterAll
    static void stopSpark() {
        if (spark != null) {
            spark.stop();
        }
    }

    static String host(int i) {
        return String.format(Locale.ROOT, "node%02d.%d", i / PROCS, 4000 + i);
    }

    /** Every view on both engines; the rows must be the same, value for value. */
    static Map<String, QueryRows> sameOnBothEngines(Path export) throws Exception {
        List<FleetQueries.Query> queries = FleetQueries.bundled();
        List<QueryRows> duck;
        long t0 = System.nanoTime();
        try (DuckDbFleet d = DuckDbFleet.open(export)) {
            duck = d.run(queries);
        }
        phase("duckdb queries " + export.getFileName(), t0);
        t0 = System.nanoTime();
        SparkFleet.register(spark, export.toString(), queries);
        phase("spark register " + export.getFileName(), t0);
        t0 = System.nanoTime();
        List<QueryRows> sparkRows = SparkFleet.run(spark, queries);
        phase("spark queries " + export.getFileName(), t0);
        assertThat(sparkRows).hasSameSizeAs(duck);
        Map<String, QueryRows> byView = new LinkedHashMap<>();
        for (int i = 0; i < duck.size(); i++) {
            QueryRows a = duck.get(i);
            QueryRows b = sparkRows.get(i);
            assertThat(b.view()).isEqualTo(a.view());
            assertThat(b.columns()).as(a.view() + " columns").isEqualTo(a.columns());
            assertThat(b.rows()).as(a.view() + ": Spark's rows against DuckDB's").containsExactlyElementsOf(a.rows());
            byView.put(a.view(), a);
        }
        return byView;
    }

    @Test
    void twoHostSample_pathMtuOneSide_sameRowsOnBothEngines() throws Exception {
        Map<String, QueryRows> v = sameOnBothEngines(sampleExport);
        assertThat(v.keySet()).containsExactly("qp_pairs", "connection_checks", "host_settings", "setting_values",
                "setting_outliers");
        assertThat(v.get("qp_pairs").rows()).containsExactly(List.of("hostA", "17", "hostB", "17", "2", "2"));
        // the sample's fault, seen from both ends: hostA's path MTU is 4096 (5), hostB's 1024 (3)
        assertThat(v.get("connection_checks").rows()).containsExactly(
                List.of("hostA", "17", "hostB", "17", "path_mtu", "5", "3"),
                List.of("hostB", "17", "hostA", "17", "path_mtu", "3", "5"));
        assertThat(v.get("setting_values").rows()).contains(List.of("path_mtu", "3", "1", "1"), List.of("path_mtu", "5", "1", "1"));
    }

    @Test
    void syntheticJob_24Processes_sameRowsOnBothEngines_andThePairingIsTheAnalyzers() throws Exception {
        Map<String, QueryRows> v = sameOnBothEngines(jobExport);
        List<List<String>> pairs = v.get("qp_pairs").rows();
        assertThat(pairs).hasSize(MACHINES * PROCS * 2);
        try (DuckDbFleet d = DuckDbFleet.open(jobExport); Statement s = d.connection().createStatement()) {
            d.run(FleetQueries.bundled());
            // the analyzer's pairing (single machine, exported as qp_peers) and the portable one agree, row for row
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM (SELECT host, qp_num, peer_host, peer_qp_num FROM qp_peers "
                    + "WHERE host < peer_host EXCEPT SELECT host_a, qp_a, host_b, qp_b FROM qp_pairs)")) {
                rs.next();
                assertThat(rs.getLong(1)).as("pairs the analyzer made that the portable pairing did not").isZero();
            }
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM qp_peers WHERE host < peer_host")) {
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(pairs.size());
            }
        }
        // the first connection's client sends with path MTU 4096 against its server's 1024: one connection, both ends
        List<List<String>> checks = v.get("connection_checks").rows();
        assertThat(checks).hasSize(2).allSatisfy(r -> assertThat(r.get(4)).isEqualTo("path_mtu"));
        assertThat(checks).anySatisfy(r -> assertThat(r).startsWith(FAULTY_CLIENT).endsWith("path_mtu", "5", "3"));
        // the job's summary: every process has 1024 on some QP, one has 4096 on one; the outlier names it
        assertThat(v.get("setting_values").rows()).contains(
                List.of("path_mtu", "3", String.valueOf(MACHINES * PROCS), String.valueOf(MACHINES * PROCS * 4 - 1)),
                List.of("path_mtu", "5", "1", "1"));
        assertThat(v.get("setting_outliers").rows()).containsExactly(
                List.of("path_mtu", "5", FAULTY_CLIENT, "1", "3", String.valueOf(MACHINES * PROCS)));
    }
}
