package io.rdmatrace.analyzer.load.bundle;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

import io.rdmatrace.analyzer.load.HostLoad;

/**
 * Reads an export bundle back into the analyzer's base tables: every
 * {@code hosts/<host>/<table>.parquet} goes into {@code _<table>} with {@code INSERT ... BY NAME},
 * so the views and rules see the same rows as after loading the trace folders. Columns a newer
 * writer added are dropped, columns it lacks stay NULL. A host id that is already loaded gets a
 * {@code #2} suffix, as the folder loader does. A table that cannot be loaded is skipped and
 * named in its host's detail (the host becomes CORRUPT, a finding); a host without a readable
 * host table is DAMAGED; the other hosts and tables load.
 */
public final class BundleLoader {
    /**
     * Zip-bomb guards, enforced while inflating (a zip's declared sizes are not trusted): a
     * bug-report bundle is megabytes, and Parquet tables are compressed already, so a big entry
     * that inflates hundreds of times over is no bundle.
     */
    static final long MAX_EXTRACTED_BYTES = 4L << 30;
    static final long MAX_ENTRY_BYTES = 1L << 30;
    public static final long MAX_RATIO = 200;
    /** Entries up to this size may have any ratio (a manifest of repeated JSON compresses well). */
    static final long RATIO_FREE_BYTES = 1L << 20;
    private static final int MAX_ENTRIES = 100_000;
    private static final Pattern PARQUET_ENTRY = Pattern.compile("hosts/([A-Za-z0-9._-]+)/([a-z0-9_]+)\\.parquet");
    private static final String HOST_TABLE = "_host";

    private BundleLoader() {
    }

    /**
     * Loads every host of the bundle; returns one {@link HostLoad} per host as recorded at export.
     *
     * @throws BundleException when the file is not a readable rdmatrace bundle of a supported version
     */
    public static List<HostLoad> load(Connection connection, Path bundle) throws BundleException, SQLException {
        return load(connection, bundle, UnaryOperator.identity());
    }

    /**
     * As {@link #load(Connection, Path)}, with the table that receives each base table's rows
     * ({@code DatapathStore.insertTable}: {@code _datapath} may be a view over other databases).
     */
    public static List<HostLoad> load(Connection connection, Path bundle, UnaryOperator<String> insertTable)
            throws BundleException, SQLException {
        long start = System.nanoTime();
        Path tmp;
        try {
            tmp = Files.createTempDirectory("rdmatrace-bundle-");
        } catch (IOException e) {
            throw new BundleException(bundle + ": cannot create a temporary folder to unpack it: " + e.getMessage(), e);
        }
        try {
            Map<String, Map<String, Path>> hosts = extract(bundle, tmp);
            checkManifest(connection, bundle, tmp.resolve(BundleLayout.MANIFEST));
            if (hosts.isEmpty()) {
                throw new BundleException(bundle + ": the bundle holds no host data (no hosts/<host>/*.parquet)");
            }
            Set<String> tables = BundleLayout.baseTables(connection);
            // host by host, table by table: a table that cannot be loaded is skipped and said, the rest loads
            List<HostLoad> loads = new ArrayList<>();
            for (Map.Entry<String, Map<String, Path>> host : hosts.entrySet()) {
                loads.add(loadHost(connection, bundle, host.getKey(), host.getValue(), tables, insertTable, start));
            }
            return loads;
        } finally {
            deleteTree(tmp);
        }
    }

    /** Unpacks the manifest and the Parquet files; returns host folder → table → file. */
    private static Map<String, Map<String, Path>> extract(Path bundle, Path tmp) throws BundleException {
        Map<String, Map<String, Path>> hosts = new TreeMap<>();
        boolean manifest = false;
        long total = 0;
        int entries = 0;
        try (ZipFile zip = new ZipFile(bundle.toFile())) {
            Enumeration<? extends ZipEntry> all = zip.entries();
            while (all.hasMoreElements()) {
                ZipEntry entry = all.nextElement();
                if (++entries > MAX_ENTRIES) {
                    throw new BundleException(bundle + ": more than " + MAX_ENTRIES + " entries; not an rdmatrace bundle");
                }
                Path target;
                Matcher m = PARQUET_ENTRY.matcher(entry.getName());
                if (entry.getName().equals(BundleLayout.MANIFEST)) {
                    target = tmp.resolve(BundleLayout.MANIFEST);
                    manifest = true;
                } else if (m.matches() && !m.group(1).startsWith(".")) {
                    Path dir = tmp.resolve("hosts").resolve(m.group(1));
                    Files.createDirectories(dir);
                    target = dir.resolve(m.group(2) + BundleLayout.PARQUET);
                    hosts.computeIfAbsent(m.group(1), h -> new TreeMap<>()).put(m.group(2), target);
                } else {
                    continue; // report, session JSON, anything a newer writer adds
                }
                try (InputStream in = zip.getInputStream(entry)) {
                    total += copyBounded(in, target, entry, MAX_EXTRACTED_BYTES - total, bundle);
                }
            }
        } catch (ZipException e) {
            throw new BundleException(bundle + ": not a readable zip file: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new BundleException(bundle + ": cannot read: " + e.getMessage(), e);
        }
        if (!manifest) {
            throw new BundleException(bundle + ": a zip file, but not an rdmatrace bundle (no " + BundleLayout.MANIFEST
                    + "); bundles are written by 'rdmatrace export'");
        }
        return hosts;
    }

    private static long copyBounded(InputStream in, Path target, ZipEntry entry, long budget, Path bundle)
            throws IOException, BundleException {
        long n = 0;
        long compressed = Math.max(1, entry.getCompressedSize());
        byte[] buffer = new byte[64 * 1024];
        try (var out = Files.newOutputStream(target)) {
            int r;
            while ((r = in.read(buffer)) > 0) {
                n += r;
                if (n > budget) {
                    throw bomb(bundle, target, "unpacks to more than " + (MAX_EXTRACTED_BYTES >> 30) + " GiB");
                }
                if (n > MAX_ENTRY_BYTES) {
                    throw bomb(bundle, target, entry.getName() + " unpacks to more than " + (MAX_ENTRY_BYTES >> 20) + " MiB");
                }
                if (n > RATIO_FREE_BYTES && n > compressed * MAX_RATIO) {
                    throw bomb(bundle, target, entry.getName() + " inflates more than " + MAX_RATIO + " times ("
                            + compressed + " bytes packed)");
                }
                out.write(buffer, 0, r);
            }
        }
        return n;
    }

    private static BundleException bomb(Path bundle, Path partial, String why) {
        try {
            Files.deleteIfExists(partial);
        } catch (IOException e) {
            // the temporary folder is deleted as a whole anyway
        }
        return new BundleException(bundle + ": " + why + "; refusing it (a zip bomb, or not an rdmatrace bundle)");
    }

    private static void checkManifest(Connection connection, Path bundle, Path manifest) throws BundleException {
        String format;
        String version;
        try (PreparedStatement q = connection.prepareStatement(
                "SELECT format::VARCHAR, format_version::VARCHAR FROM read_json(?, format = 'auto')")) {
            q.setString(1, manifest.toString());
            try (ResultSet rs = q.executeQuery()) {
                if (!rs.next()) {
                    throw new BundleException(bundle + ": " + BundleLayout.MANIFEST + " is empty");
                }
                format = rs.getString(1);
                version = rs.getString(2);
            }
        } catch (SQLException e) {
            throw new BundleException(bundle + ": " + BundleLayout.MANIFEST + " is not a bundle manifest: "
                    + firstLine(e.getMessage()), e);
        }
        if (!BundleLayout.FORMAT.equals(format)) {
            throw new BundleException(bundle + ": its manifest says format '" + format + "', expected '"
                    + BundleLayout.FORMAT + "'");
        }
        int major;
        try {
            major = Integer.parseInt(version.substring(0, version.indexOf('.') < 0 ? version.length() : version.indexOf('.')));
        } catch (RuntimeException e) {
            throw new BundleException(bundle + ": bad format_version '" + version + "' in its manifest");
        }
        if (major != BundleLayout.FORMAT_MAJOR) {
            throw new BundleException(bundle + ": bundle format " + version + " is not supported; this rdmatrace reads "
                    + BundleLayout.FORMAT_MAJOR + ".x" + (major > BundleLayout.FORMAT_MAJOR ? "; use a newer rdmatrace" : ""));
        }
    }

    private static HostLoad loadHost(Connection connection, Path bundle, String folder, Map<String, Path> files,
                                     Set<String> tables, UnaryOperator<String> insertTable, long start) throws SQLException {
        String origin = bundle + "!" + BundleLayout.HOSTS + folder;
        Path hostFile = files.get(HOST_TABLE.substring(1));
        String original;
        String status;
        String detail;
        long events;
        try {
            if (hostFile == null) {
                throw new BundleException(origin + ": no host" + BundleLayout.PARQUET);
            }
            try (PreparedStatement q = connection.prepareStatement(
                    "SELECT host, status, detail, events FROM read_parquet(?) LIMIT 1")) {
                q.setString(1, hostFile.toString());
                try (ResultSet rs = q.executeQuery()) {
                    if (!rs.next()) {
                        throw new BundleException(origin + "/host" + BundleLayout.PARQUET + " is empty");
                    }
                    original = rs.getString(1);
                    status = rs.getString(2);
                    detail = rs.getString(3);
                    events = rs.getLong(4);
                }
            } catch (SQLException e) {
                throw new BundleException(origin + "/host" + BundleLayout.PARQUET + " is unreadable: " + firstLine(e.getMessage()), e);
            }
            if (original == null || original.isEmpty()) {
                throw new BundleException(origin + "/host" + BundleLayout.PARQUET + " names no host");
            }
        } catch (BundleException e) {
            // without its host row nothing of this host can be placed: it is named, its tables are skipped
            String host = uniqueHost(connection, folder);
            HostLoad refused = new HostLoad(origin, host, "DAMAGED", e.getMessage() + "; this host's tables were not loaded", 0,
                    System.nanoTime() - start);
            recordRefused(connection, refused);
            return refused;
        }
        String host = uniqueHost(connection, original);
        List<String> skipped = new ArrayList<>();
        try {
            insert(connection, bundle, HOST_TABLE, HOST_TABLE, hostFile, host, origin);
        } catch (BundleException e) {
            HostLoad refused = new HostLoad(origin, host, "DAMAGED", e.getMessage() + "; this host's tables were not loaded", 0,
                    System.nanoTime() - start);
            recordRefused(connection, refused);
            return refused;
        }
        for (Map.Entry<String, Path> file : files.entrySet()) {
            String table = "_" + file.getKey();
            if (!tables.contains(table) || table.equals(HOST_TABLE)) {
                continue; // a table this version does not have (written by a newer rdmatrace): nothing reads it
            }
            try {
                insert(connection, bundle, table, insertTable.apply(table), file.getValue(), host, null);
            } catch (BundleException e) {
                skipped.add(file.getKey() + BundleLayout.PARQUET + " (" + e.getMessage().replace(bundle + ": ", "") + ")");
            }
        }
        status = status == null ? "CLEAN" : status;
        detail = detail == null ? "" : detail;
        if (!skipped.isEmpty()) {
            // the host loads without those tables: CORRUPT (read up to the damage) makes it a finding
            detail = origin + ": unreadable table(s) skipped: " + String.join("; ", skipped)
                    + (detail.isEmpty() ? "" : "; at export: " + detail);
            status = HostLoad.READABLE.contains(status) ? "CORRUPT" : status;
            try (PreparedStatement u = connection.prepareStatement("UPDATE _host SET status = ?, detail = ? WHERE host = ?")) {
                u.setString(1, status);
                u.setString(2, detail);
                u.setString(3, host);
                u.executeUpdate();
            }
        }
        return new HostLoad(origin, host, status, detail, events, System.nanoTime() - start);
    }

    private static void recordRefused(Connection connection, HostLoad load) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO _host (host, folder, status, detail, events, last_seq) VALUES (?, ?, ?, ?, 0, -1)")) {
            insert.setString(1, load.host());
            insert.setString(2, load.folder());
            insert.setString(3, load.status());
            insert.setString(4, load.detail());
            insert.executeUpdate();
        }
    }

    private static void insert(Connection connection, Path bundle, String table, String into, Path file, String host,
            String folder) throws BundleException, SQLException {
        Set<String> fileColumns = columns(connection, "DESCRIBE SELECT * FROM read_parquet(" + literal(file.toString()) + ")",
                bundle, file);
        Set<String> tableColumns = columns(connection, "DESCRIBE " + table, bundle, file);
        fileColumns.retainAll(tableColumns);
        fileColumns.remove("host");
        fileColumns.remove("folder");
        String select = literal(host) + " AS host" + (folder != null ? ", " + literal(folder) + " AS folder" : "")
                + fileColumns.stream().map(c -> ", \"" + c.replace("\"", "\"\"") + "\"").collect(Collectors.joining());
        String names = "host" + (folder != null ? ", folder" : "")
                + fileColumns.stream().map(c -> ", \"" + c.replace("\"", "\"\"") + "\"").collect(Collectors.joining());
        try (Statement s = connection.createStatement()) {
            s.execute("INSERT INTO " + into + " (" + names + ") SELECT " + select + " FROM read_parquet("
                    + literal(file.toString()) + ")");
        } catch (SQLException e) {
            throw new BundleException(bundle + ": cannot load " + file.getFileName() + " into " + table + ": "
                    + firstLine(e.getMessage()), e);
        }
    }

    private static Set<String> columns(Connection connection, String describe, Path bundle, Path file)
            throws BundleException {
        Set<String> columns = new LinkedHashSet<>();
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(describe)) {
            while (rs.next()) {
                columns.add(rs.getString("column_name"));
            }
        } catch (SQLException e) {
            throw new BundleException(bundle + ": " + file.getFileName() + " is not a readable Parquet file: "
                    + firstLine(e.getMessage()), e);
        }
        return columns;
    }

    private static String uniqueHost(Connection connection, String host) throws SQLException {
        Set<String> loaded = new HashSet<>();
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT host FROM _host")) {
            while (rs.next()) {
                loaded.add(rs.getString(1));
            }
        }
        String unique = host;
        for (int n = 2; loaded.contains(unique); n++) {
            unique = host + "#" + n;
        }
        return unique;
    }

    public static String literal(String text) {
        return "'" + text.replace("'", "''") + "'";
    }

    private static String firstLine(String message) {
        return message == null ? "unknown error" : message.strip().split("\n")[0];
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a leftover temporary folder is harmless; the load already succeeded or failed on its own
        }
    }
}
