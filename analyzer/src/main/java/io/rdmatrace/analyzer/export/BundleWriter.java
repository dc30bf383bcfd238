package io.rdmatrace.analyzer.export;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import io.rdmatrace.analyzer.Analysis;
import io.rdmatrace.analyzer.AnalysisDatabase;
import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.load.HostLoad;
import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.analyzer.load.bundle.BundleException;
import io.rdmatrace.analyzer.load.bundle.BundleLayout;
import io.rdmatrace.analyzer.load.bundle.BundleLoader;
import io.rdmatrace.analyzer.rule.RuleCatalog;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.store.TraceSet;

/**
 * Writes an export bundle ({@link BundleLayout}): loads the trace (redacted first if asked),
 * runs the built-in rules, has DuckDB write every host's rows of every base table as Parquet,
 * adds the SESSION summaries, the report and the manifest, and zips them. The zip is written
 * next to the target and moved into place at the end, so a failure leaves no half bundle.
 */
public final class BundleWriter {
    private BundleWriter() {
    }

    /**
     * What an export did.
     *
     * @param hostPseudonyms original host name → pseudonym (redacted exports only; printed for the
     *                       person exporting, never written into the bundle)
     */
    public record Result(Path bundle, long bytes, List<HostLoad> hosts, AnalysisResult analysis,
                         RedactionSummary redaction, Map<String, String> hostPseudonyms, List<String> entries) {
        public Result {
            hosts = List.copyOf(hosts);
            hostPseudonyms = hostPseudonyms == null ? Map.of() : Map.copyOf(hostPseudonyms);
            entries = List.copyOf(entries);
        }
    }

    /**
     * @param input       a capture folder (host folders under it) or one host folder
     * @param output      the zip to write; must not exist unless {@code overwrite}
     * @param redact      pseudonymise sensitive values ({@link Redactor})
     * @param toolVersion recorded in the manifest and report
     * @throws BundleException for unusable input or output (the message says which and why)
     */
    public static Result export(Path input, Path output, boolean redact, boolean overwrite, String toolVersion)
            throws BundleException, SQLException {
        checkPaths(input, output, overwrite);
        Redactor redactor = null;
        Analysis session;
        if (redact) {
            AnalysisDatabase db = AnalysisDatabase.inMemory();
            try {
                RedactedLoad redacted = loadRedacted(db, input);
                redactor = redacted.redactor();
                session = Analysis.of(db, redacted.load());
            } catch (BundleException | SQLException | RuntimeException e) {
                db.close();
                throw e;
            }
        } else {
            session = Analysis.open(List.of(input));
        }
        try (session) {
            LoadReport load = session.load();
            if (!load.anyReadable()) {
                throw new BundleException(input + ": nothing to export: " + describe(load));
            }
            // the base tables, before finishing the load adds the derived ones (those are recomputed on load)
            Set<String> tables = BundleLayout.baseTables(session.database().connection());
            AnalysisResult analysis = session.analyze(RuleCatalog.builtin());
            RedactionSummary summary = redactor == null ? null : redactor.summary();
            String source = redactor == null ? input.toString() : redactor.text(input.getFileName().toString());
            Path staging = Files.createTempDirectory("rdmatrace-export-");
            try {
                List<String> entries = stage(session.connection(), tables, staging, source, toolVersion, analysis,
                        redactor, summary);
                long bytes = zip(staging, entries, output);
                return new Result(output, bytes, load.hosts(), analysis, redactor == null ? null : redactor.summary(),
                        redactor == null ? null : redactor.hostMap(), entries);
            } finally {
                deleteTree(staging);
            }
        } catch (IOException e) {
            throw new BundleException("cannot write " + output + ": " + e.getMessage(), e);
        }
    }

    private static void checkPaths(Path input, Path output, boolean overwrite) throws BundleException {
        if (!Files.exists(input)) {
            throw new BundleException(input + ": no such trace folder");
        }
        if (BundleLayout.looksLikeBundle(input)) {
            throw new BundleException(input + ": is already a bundle; export takes a trace folder");
        }
        if (Files.isDirectory(output)) {
            throw new BundleException(output + ": is a folder; give the zip file to write, e.g. -o bug.zip");
        }
        if (Files.exists(output) && !overwrite) {
            throw new BundleException(output + ": already exists; choose another -o file or pass --force");
        }
        Path parent = output.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new BundleException(output + ": its folder does not exist");
        }
    }

    private record RedactedLoad(LoadReport load, Redactor redactor) {
    }

    /**
     * Reads every host completely, plans the pseudonyms over all of them (pass 1), then loads
     * each host's redacted events (pass 2). Unreadable host folders are recorded, redacted.
     */
    private static RedactedLoad loadRedacted(AnalysisDatabase db, Path input) throws BundleException, SQLException {
        long start = System.nanoTime();
        TraceSet set;
        try {
            set = TraceSet.discover(input);
        } catch (TraceException e) {
            throw new BundleException(e.getMessage(), e);
        }
        List<TraceReader.Result> traces = new ArrayList<>();
        List<TraceException> unreadable = new ArrayList<>();
        for (Path folder : set.hosts()) {
            try {
                traces.add(TraceReader.readAll(folder));
            } catch (TraceException e) {
                unreadable.add(e);
            }
        }
        List<List<TraceEvent>> all = new ArrayList<>();
        traces.forEach(t -> all.add(t.events()));
        List<String> extraNames = unreadable.stream().map(e -> e.path().getFileName().toString()).toList();
        Redactor redactor = Redactor.plan(all, extraNames, null);
        List<HostLoad> hosts = new ArrayList<>();
        Set<String> used = new HashSet<>();
        for (TraceReader.Result t : traces) {
            String host = redactor.host(t.session().hostId());
            for (int n = 2; !used.add(host); n++) {
                host = redactor.host(t.session().hostId()) + "#" + n; // one host id in two folders stays two hosts
            }
            HostLoad loaded = db.loadEvents(host, redactor.redact(t.events()));
            String status = t.outcome().isClean() && t.damage() != null ? "REPAIRED" : t.outcome().status().name();
            String detail = redactor.text(t.outcome().detail());
            setHost(db.connection(), host, status, detail);
            hosts.add(new HostLoad(host, host, status, detail, loaded.events(), loaded.elapsedNanos()));
        }
        for (TraceException e : unreadable) {
            String host = redactor.host(e.path().getFileName().toString());
            String detail = redactor.text(e.getMessage());
            insertRefused(db.connection(), host, e.problem().name(), detail);
            hosts.add(new HostLoad(host, host, e.problem().name(), detail, 0, 0));
        }
        return new RedactedLoad(new LoadReport(hosts, List.of(), System.nanoTime() - start), redactor);
    }

    private static void setHost(Connection c, String host, String status, String detail) throws SQLException {
        try (PreparedStatement u = c.prepareStatement("UPDATE _host SET status = ?, detail = ? WHERE host = ?")) {
            u.setString(1, status);
            u.setString(2, detail);
            u.setString(3, host);
            u.executeUpdate();
        }
    }

    private static void insertRefused(Connection c, String host, String status, String detail) throws SQLException {
        try (PreparedStatement i = c.prepareStatement(
                "INSERT INTO _host (host, folder, status, detail, events, last_seq) VALUES (?, ?, ?, ?, 0, -1)")) {
            i.setString(1, host);
            i.setString(2, host);
            i.setString(3, status);
            i.setString(4, detail);
            i.executeUpdate();
        }
    }

    /** Writes every bundle entry under {@code dir}; returns their names in zip order. */
    private static List<String> stage(Connection c, Set<String> tables, Path dir, String source, String toolVersion,
                                      AnalysisResult analysis, Redactor redactor, RedactionSummary summary)
            throws SQLException, IOException {
        List<String> entries = new ArrayList<>();
        List<BundleMetadata.HostEntry> hostEntries = new ArrayList<>();
        Set<String> folders = new HashSet<>();
        for (String host : hosts(c)) {
            String folder = BundleLayout.folderName(host);
            for (int n = 2; !folders.add(folder); n++) {
                folder = BundleLayout.folderName(host) + "_" + n;
            }
            List<String> written = new ArrayList<>();
            Files.createDirectories(dir.resolve(BundleLayout.HOSTS + folder));
            for (String table : tables) {
                String entry = BundleLayout.HOSTS + folder + "/" + table.substring(1) + BundleLayout.PARQUET;
                if (copyParquet(c, table, host, dir.resolve(entry))) {
                    entries.add(entry);
                    written.add(table.substring(1));
                }
            }
            String sessionEntry = BundleLayout.SESSIONS + folder + ".json";
            Files.createDirectories(dir.resolve(BundleLayout.SESSIONS));
            Files.writeString(dir.resolve(sessionEntry), BundleMetadata.session(c, host), StandardCharsets.UTF_8);
            entries.add(sessionEntry);
            hostEntries.add(new BundleMetadata.HostEntry(host, BundleLayout.HOSTS + folder + "/", status(c, host),
                    events(c, host), written));
        }
        Files.writeString(dir.resolve(BundleLayout.REPORT), BundleReport.markdown(source, toolVersion, analysis, summary),
                StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(BundleLayout.MANIFEST), BundleMetadata.manifest(toolVersion, redactor != null, source,
                hostEntries, analysis.findings().size(), summary), StandardCharsets.UTF_8);
        List<String> ordered = new ArrayList<>(List.of(BundleLayout.MANIFEST, BundleLayout.REPORT));
        entries.stream().filter(e -> e.startsWith(BundleLayout.SESSIONS)).forEach(ordered::add);
        entries.stream().filter(e -> e.startsWith(BundleLayout.HOSTS)).forEach(ordered::add);
        return ordered;
    }

    private static List<String> hosts(Connection c) throws SQLException {
        List<String> hosts = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT host FROM _host ORDER BY host")) {
            while (rs.next()) {
                hosts.add(rs.getString(1));
            }
        }
        return hosts;
    }

    private static String status(Connection c, String host) throws SQLException {
        try (PreparedStatement q = c.prepareStatement("SELECT status FROM _host WHERE host = ?")) {
            q.setString(1, host);
            try (ResultSet rs = q.executeQuery()) {
                return rs.next() ? rs.getString(1) : "";
            }
        }
    }

    private static long events(Connection c, String host) throws SQLException {
        try (PreparedStatement q = c.prepareStatement("SELECT coalesce(sum(events), 0) FROM _host WHERE host = ?")) {
            q.setString(1, host);
            try (ResultSet rs = q.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    /**
     * One host's rows of one table as Parquet, written by DuckDB, uncompressed: the zip deflates
     * it anyway, and plain pages keep the file scannable byte by byte (the redaction test does).
     * Returns false (and writes nothing) when the host has no rows there.
     */
    private static boolean copyParquet(Connection c, String table, String host, Path file) throws SQLException {
        try (PreparedStatement q = c.prepareStatement("SELECT count(*) FROM " + table + " WHERE host = ?")) {
            q.setString(1, host);
            try (ResultSet rs = q.executeQuery()) {
                if (!rs.next() || rs.getLong(1) == 0) {
                    return false;
                }
            }
        }
        boolean hasSeq;
        try (PreparedStatement q = c.prepareStatement(
                "SELECT count(*) FROM duckdb_columns() WHERE table_name = ? AND column_name = 'seq'")) {
            q.setString(1, table);
            try (ResultSet rs = q.executeQuery()) {
                hasSeq = rs.next() && rs.getLong(1) > 0;
            }
        }
        try (Statement s = c.createStatement()) {
            s.execute("COPY (SELECT * FROM " + table + " WHERE host = " + BundleLoader.literal(host)
                    + (hasSeq ? " ORDER BY seq" : "") + ") TO " + BundleLoader.literal(file.toString())
                    + " (FORMAT parquet, COMPRESSION uncompressed)");
        }
        return true;
    }

    private static long zip(Path dir, List<String> entries, Path output) throws IOException {
        Path tmp = output.toAbsolutePath().resolveSibling("." + output.getFileName() + ".partial");
        try {
            try (OutputStream file = Files.newOutputStream(tmp); ZipOutputStream zip = new ZipOutputStream(file)) {
                for (String entry : entries) {
                    zip.putNextEntry(new ZipEntry(entry));
                    Files.copy(dir.resolve(entry), zip);
                    zip.closeEntry();
                }
            }
            try {
                Files.move(tmp, output, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, output, StandardCopyOption.REPLACE_EXISTING);
            }
            return Files.size(output);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static String describe(LoadReport load) {
        List<String> parts = new ArrayList<>(load.rootProblems());
        load.hosts().forEach(h -> parts.add(h.detail()));
        return parts.isEmpty() ? "no trace found" : String.join("; ", parts);
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a leftover staging folder in the temp dir is harmless
        }
    }
}
