package io.rdmatrace.analyzer.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rdmatrace.analyzer.AnalysisDatabase;
import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.Analyzer;
import io.rdmatrace.analyzer.Finding;
import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.analyzer.load.bundle.BundleException;
import io.rdmatrace.analyzer.load.bundle.BundleLayout;
import io.rdmatrace.analyzer.rule.RuleCatalog;
import io.rdmatrace.trace.store.TraceSet;
import io.rdmatrace.trace.synth.SyntheticTrace;

/**
 * Export bundles of a two-host capture with distinctive sensitive values: what a bundle holds,
 * that analysis of a bundle equals analysis of the folder, and that a redacted bundle keeps no
 * original GID, IP, host name, key, address or GUID in any entry, in any encoding.
 */
class ExportTest {
    @TempDir
    static Path dir;

    static TraceSet capture;
    static BundleWriter.Result plain;
    static BundleWriter.Result redacted;
    static AnalysisResult folderAnalysis;

    @BeforeAll
    static void export() throws Exception {
        capture = DistinctiveCapture.write(dir.resolve("work"), SyntheticTrace.Fault.PSN_OFF_BY_ONE);
        plain = BundleWriter.export(capture.root(), dir.resolve("plain.zip"), false, false, "0.0.0-test");
        redacted = BundleWriter.export(capture.root(), dir.resolve("redacted.zip"), true, false, "0.0.0-test");
        folderAnalysis = analyze(capture.root());
    }

    static AnalysisResult analyze(Path input) throws SQLException {
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            LoadReport load = db.load(List.of(input));
            db.finishLoading();
            return Analyzer.analyze(db, load, RuleCatalog.builtin());
        }
    }

    static Map<String, byte[]> entries(Path zip) throws IOException {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        try (ZipFile z = new ZipFile(zip.toFile())) {
            for (ZipEntry e : java.util.Collections.list(z.entries())) {
                entries.put(e.getName(), z.getInputStream(e).readAllBytes());
            }
        }
        return entries;
    }

    @Test
    void bundle_holdsManifestReportSessionsAndParquetPerHost() throws Exception {
        Map<String, byte[]> entries = entries(plain.bundle());

        assertThat(entries.keySet()).startsWith("manifest.json", "report.md")
                .contains("session/nodealpha.json", "session/nodebravo.json",
                        "hosts/nodealpha/call.parquet", "hosts/nodealpha/datapath.parquet", "hosts/nodealpha/host.parquet",
                        "hosts/nodealpha/session.parquet", "hosts/nodebravo/oob.parquet", "hosts/nodebravo/mark.parquet");
        String manifest = new String(entries.get("manifest.json"), StandardCharsets.UTF_8);
        assertThat(manifest).contains("\"format\": \"rdmatrace-bundle\"", "\"format_version\": \"1.0\"",
                "\"redacted\": false");
        // only the base tables travel; the derived ones are recomputed from them on load
        Set<String> base;
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            base = BundleLayout.baseTables(db.connection());
        }
        assertThat(entries.keySet().stream().filter(e -> e.endsWith(".parquet"))
                .map(e -> "_" + e.substring(e.lastIndexOf('/') + 1, e.length() - ".parquet".length())))
                .isNotEmpty().allMatch(base::contains);
        String session = new String(entries.get("session/nodebravo.json"), StandardCharsets.UTF_8);
        assertThat(session).contains("\"role\": \"connect\"", "\"fw_ver\": \"0.1.0\"", "\"--connect\": \"nodealpha.lab");
        // any Parquet reader gets the rows back: a bare DuckDB, no rdmatrace schema
        Path call = dir.resolve("call.parquet");
        Files.write(call, entries.get("hosts/nodealpha/call.parquet"));
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*), count(DISTINCT host), min(host) FROM read_parquet('"
                        + call + "')")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(rows(capture.root(), "_call", "nodealpha"));
            assertThat(rs.getString(3)).isEqualTo("nodealpha");
        }
    }

    @Test
    void plainBundle_analyzesExactlyLikeTheFolder() throws Exception {
        AnalysisResult fromBundle = analyze(plain.bundle());

        assertThat(folderAnalysis.findings()).isNotEmpty();
        assertThat(fromBundle.findings()).isEqualTo(folderAnalysis.findings());
        Map<String, Long> fromFolder = rowCounts(capture.root());
        assertThat(rowCounts(plain.bundle())).isEqualTo(fromFolder);
        assertThat(fromFolder).containsKeys("_call nodealpha", "_datapath nodebravo", "_oob nodealpha", "_mark nodebravo",
                "_session nodealpha", "_device nodebravo", "_gid nodealpha", "_thread nodebravo", "_counter nodealpha");
    }

    @Test
    void redactedBundle_noOriginalValueSurvivesInAnyEntry() throws Exception {
        SourceSecrets secrets = SourceSecrets.of(capture, DistinctiveCapture.PEER_NAME);
        // the scan is not vacuous: the capture holds every kind of sensitive value
        assertThat(secrets.hostNames).contains("nodealpha", "nodebravo", DistinctiveCapture.PEER_NAME);
        assertThat(secrets.gids).hasSizeGreaterThanOrEqualTo(4);
        assertThat(secrets.ipv4).hasSize(2);
        assertThat(secrets.keys).hasSize(2);
        assertThat(secrets.addresses).hasSizeGreaterThan(10);
        assertThat(secrets.guids).hasSize(2);

        assertThat(leaks(redacted.bundle(), secrets)).isEmpty();
        // and the scanner does find them where they are: every kind leaks from the plain bundle
        String plainLeaks = String.join("\n", leaks(plain.bundle(), secrets));
        assertThat(plainLeaks).contains("host nodealpha", "host " + DistinctiveCapture.PEER_NAME, "gid ::ffff:",
                "gid fe80:", "ipv4 " + DistinctiveCapture.IP_A, "key 0x", "address 0x", "guid ");
    }

    @Test
    void redactedBundle_sameFindingsUpToHostNames() throws Exception {
        AnalysisResult fromBundle = analyze(redacted.bundle());
        Map<String, String> hosts = redacted.hostPseudonyms();

        assertThat(hosts).containsKeys("nodealpha", "nodebravo");
        assertThat(fromBundle.findings()).isNotEmpty();
        assertThat(keys(fromBundle.findings(), Map.of())).isEqualTo(keys(folderAnalysis.findings(), hosts));
        assertThat(fromBundle.connections()).hasSameSizeAs(folderAnalysis.connections()).isNotEmpty();
    }

    @Test
    void redactedBundle_keepsGidKindsAndCrossHostAgreement() throws Exception {
        String sql = "SELECT (SELECT count(*) FILTER (WHERE link_local) FROM gids), "
                + "(SELECT count(*) FILTER (WHERE ipv4_mapped) FROM gids), "
                // the rkey/addr a host advertised match the MR its peer's PARAMS describe
                + "(SELECT count(*) FROM oob o JOIN mrs m ON m.host <> o.host AND m.rkey = o.rkey AND m.addr = o.addr "
                + "  WHERE o.direction = 'RECEIVED' AND o.oob_kind = 'PARAMS'), "
                // the DGID each QP was given is a GID of the peer
                + "(SELECT count(*) FROM qp_settings s JOIN gids g ON g.host <> s.host AND g.gid = s.dgid)";
        assertThat(query(redacted.bundle(), sql)).isEqualTo(query(capture.root(), sql))
                .allMatch(v -> v > 0);
    }

    @Test
    void redactedReport_saysWhatWasRedacted() throws Exception {
        Map<String, byte[]> entries = entries(redacted.bundle());
        String report = new String(entries.get("report.md"), StandardCharsets.UTF_8);
        String manifest = new String(entries.get("manifest.json"), StandardCharsets.UTF_8);

        assertThat(report).startsWith("# rdmatrace bug-report bundle").contains("## rdmatrace analysis", "### Findings",
                "psn", "## Redaction", "3 host name(s)", "2 IPv4 address(es)", "2 lkey/rkey value(s)");
        assertThat(manifest).contains("\"redacted\": true", "\"host_names\": 3", "\"keys\": 2");
        assertThat(redacted.redaction().addresses()).isGreaterThan(10);
    }

    @Test
    void export_refusesToOverwriteOrToTakeBadInput() throws Exception {
        assertThatThrownBy(() -> BundleWriter.export(capture.root(), plain.bundle(), false, false, "t"))
                .isInstanceOf(BundleException.class).hasMessageContaining("already exists");
        assertThatThrownBy(() -> BundleWriter.export(dir.resolve("missing"), dir.resolve("x.zip"), false, false, "t"))
                .isInstanceOf(BundleException.class).hasMessageContaining("no such trace folder");
        assertThatThrownBy(() -> BundleWriter.export(plain.bundle(), dir.resolve("y.zip"), false, false, "t"))
                .isInstanceOf(BundleException.class).hasMessageContaining("already a bundle");
        assertThatThrownBy(() -> BundleWriter.export(dir.resolve("work"), dir.resolve("z.zip"), false, false, "t"))
                .isInstanceOf(BundleException.class).hasMessageContaining("nothing to export");
        assertThat(dir.resolve("x.zip")).doesNotExist();
        assertThat(dir.resolve("z.zip")).doesNotExist();
    }

    @Test
    void loader_refusesForeignAndNewerBundlesWithoutLoadingAnything() throws Exception {
        Path noManifest = dir.resolve("no-manifest.zip");
        rezip(plain.bundle(), noManifest, name -> !name.equals("manifest.json"), null);
        Path newer = dir.resolve("newer.zip");
        rezip(plain.bundle(), newer, name -> true, "{\"format\": \"rdmatrace-bundle\", \"format_version\": \"2.0\"}");
        Path truncated = dir.resolve("truncated.zip");
        byte[] bytes = Files.readAllBytes(plain.bundle());
        Files.write(truncated, java.util.Arrays.copyOf(bytes, bytes.length / 2));

        for (Path bad : List.of(noManifest, newer, truncated)) {
            try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
                LoadReport load = db.load(List.of(bad));
                assertThat(load.anyReadable()).as(bad.toString()).isFalse();
                assertThat(load.rootProblems()).singleElement().asString().contains(bad.getFileName().toString());
                try (Statement s = db.connection().createStatement();
                        ResultSet rs = s.executeQuery("SELECT (SELECT count(*) FROM _host) + (SELECT count(*) FROM _call)")) {
                    rs.next();
                    assertThat(rs.getLong(1)).as("rows left behind by " + bad).isZero();
                }
            }
        }
        assertThat(problem(noManifest)).contains("not an rdmatrace bundle");
        assertThat(problem(newer)).contains("2.0 is not supported");
        assertThat(problem(truncated)).contains("zip");
    }

    // ---- helpers ---------------------------------------------------------------------------

    /** Every encoding of every secret, in every entry's bytes and in every decoded Parquet cell. */
    static List<String> leaks(Path bundle, SourceSecrets secrets) throws Exception {
        List<String> leaks = new ArrayList<>();
        Set<Long> numbers = secrets.numbers();
        List<String> texts = secrets.texts();
        Path tmp = Files.createTempDirectory(dir, "scan");
        for (Map.Entry<String, byte[]> e : entries(bundle).entrySet()) {
            leaks.addAll(secrets.findIn(e.getKey(), e.getValue()));
            if (!e.getKey().endsWith(".parquet")) {
                continue;
            }
            Path file = tmp.resolve(e.getKey().replace('/', '_'));
            Files.write(file, e.getValue());
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT * FROM read_parquet('" + file + "')")) {
                ResultSetMetaData meta = rs.getMetaData();
                while (rs.next()) {
                    for (int i = 1; i <= meta.getColumnCount(); i++) {
                        Object v = rs.getObject(i);
                        if (v instanceof Number n && numbers.contains(n.longValue())) {
                            leaks.add(e.getKey() + " cell " + meta.getColumnName(i) + " = original 0x" + Long.toHexString(n.longValue()));
                        } else if (v instanceof String str) {
                            for (String t : texts) {
                                if (str.contains(t)) {
                                    leaks.add(e.getKey() + " cell " + meta.getColumnName(i) + " contains " + t);
                                }
                            }
                        }
                    }
                }
            }
        }
        return leaks;
    }

    /** (rule, host, qp, evidence) of each finding, hosts renamed through {@code hosts}. */
    static Set<String> keys(List<Finding> findings, Map<String, String> hosts) {
        Set<String> keys = new TreeSet<>();
        for (Finding f : findings) {
            keys.add(f.ruleId() + " " + f.severity() + " " + hosts.getOrDefault(f.host(), f.host()) + " " + f.qp() + " "
                    + f.evidence().stream().map(ev -> hosts.getOrDefault(ev.host(), ev.host()) + "#" + ev.seq())
                    .sorted().collect(Collectors.joining(",")));
        }
        return keys;
    }

    /** "table host" → rows, for every base table and host with rows. */
    static Map<String, Long> rowCounts(Path input) throws SQLException {
        Map<String, Long> counts = new TreeMap<>();
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            db.load(List.of(input));
            for (String table : BundleLayout.baseTables(db.connection())) {
                if (table.equals("_host")) {
                    continue; // its folder column says where the rows came from, which differs by design
                }
                try (Statement s = db.connection().createStatement();
                        ResultSet rs = s.executeQuery("SELECT host, count(*) FROM " + table + " GROUP BY host")) {
                    while (rs.next()) {
                        counts.put(table + " " + rs.getString(1), rs.getLong(2));
                    }
                }
            }
        }
        return counts;
    }

    static long rows(Path input, String table, String host) throws SQLException {
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            db.load(List.of(input));
            try (var q = db.connection().prepareStatement("SELECT count(*) FROM " + table + " WHERE host = ?")) {
                q.setString(1, host);
                try (ResultSet rs = q.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        }
    }

    static List<Long> query(Path input, String sql) throws SQLException {
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            db.load(List.of(input));
            db.finishLoading();
            try (Statement s = db.connection().createStatement(); ResultSet rs = s.executeQuery(sql)) {
                rs.next();
                List<Long> values = new ArrayList<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    values.add(rs.getLong(i));
                }
                return values;
            }
        }
    }

    static String problem(Path bundle) throws SQLException {
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            return String.join("; ", db.load(List.of(bundle)).rootProblems());
        }
    }

    static void rezip(Path from, Path to, java.util.function.Predicate<String> keep, String manifest) throws IOException {
        Map<String, byte[]> entries = new TreeMap<>(entries(from));
        try (var out = new java.util.zip.ZipOutputStream(Files.newOutputStream(to))) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                if (!keep.test(e.getKey())) {
                    continue;
                }
                out.putNextEntry(new ZipEntry(e.getKey()));
                out.write(manifest != null && e.getKey().equals("manifest.json")
                        ? manifest.getBytes(StandardCharsets.UTF_8) : e.getValue());
                out.closeEntry();
            }
        }
    }
}
