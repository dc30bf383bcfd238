package io.rdmatrace.fleet;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The cross-host checks: the portable SQL files of {@code fleet/sql/} ({@code NN_name.sql}, one SELECT each), run in
 * file-name order, each becoming a temporary table {@code name} that later files may read. The same text runs on every
 * engine; only the tables under them are registered per engine ({@link DuckDbFleet}, {@link SparkFleet}).
 */
public final class FleetQueries {
    /** The class-path folder the files are packaged under (the module's build copies fleet/sql there). */
    static final String FOLDER = "fleet-sql";

    private FleetQueries() {
    }

    /** One query file: the view it defines and its SELECT. */
    public record Query(String view, String sql) {
        public Query {
            Objects.requireNonNull(view, "view");
            Objects.requireNonNull(sql, "sql");
        }

        /** Whether the query's text names {@code table} (as a word: a column alias of that name counts too). */
        public boolean reads(String table) {
            return java.util.regex.Pattern.compile("\\b" + java.util.regex.Pattern.quote(table) + "\\b").matcher(sql).find();
        }

        /**
         * The DuckDB statement that makes the result a temporary table of its name (Spark: {@link SparkFleet} keeps a
         * checkpoint): computed once, so a later file that reads it twice does not compute it twice.
         */
        public String createTableSql() {
            return "CREATE OR REPLACE TEMPORARY TABLE " + view + " AS\n" + sql.strip();
        }
    }

    /** The bundled files, in order. */
    public static List<Query> bundled() {
        URL folder = FleetQueries.class.getClassLoader().getResource(FOLDER);
        if (folder == null) {
            throw new IllegalStateException("the fleet queries are missing from the class path (" + FOLDER + "/)");
        }
        try {
            if ("jar".equals(folder.getProtocol())) {
                try (JarFile jar = ((JarURLConnection) folder.openConnection()).getJarFile()) {
                    return queries(read(jar));
                }
            }
            return queries(read(Path.of(folder.toURI())));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the fleet queries: " + e.getMessage(), e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the fleet queries: " + folder, e);
        }
    }

    /** The {@code *.sql} files of a folder (a user's own checks), in order. */
    public static List<Query> fromFolder(Path folder) throws IOException {
        return queries(read(folder));
    }

    private static List<Query> queries(Map<String, String> files) {
        List<Query> queries = new ArrayList<>();
        for (Map.Entry<String, String> f : files.entrySet()) {
            String name = f.getKey().substring(0, f.getKey().length() - ".sql".length());
            String view = name.replaceFirst("^[0-9]+_", "");
            if (!view.matches("[a-z][a-z0-9_]*")) {
                throw new IllegalArgumentException(f.getKey() + ": name it NN_view_name.sql (lowercase, digits, _)");
            }
            queries.add(new Query(view, f.getValue()));
        }
        if (queries.isEmpty()) {
            throw new IllegalArgumentException("no *.sql query files");
        }
        return queries;
    }

    private static Map<String, String> read(JarFile jar) throws IOException {
        Map<String, String> files = new TreeMap<>();
        String prefix = FOLDER + "/";
        for (Enumeration<JarEntry> entries = jar.entries(); entries.hasMoreElements();) {
            JarEntry entry = entries.nextElement();
            String name = entry.getName();
            if (name.startsWith(prefix) && name.endsWith(".sql") && name.indexOf('/', prefix.length()) < 0) {
                try (InputStream in = jar.getInputStream(entry)) {
                    files.put(name.substring(prefix.length()), new String(in.readAllBytes(), StandardCharsets.UTF_8));
                }
            }
        }
        return files;
    }

    private static Map<String, String> read(Path folder) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> list = Files.list(folder)) {
            for (Path p : (Iterable<Path>) list.filter(p -> p.getFileName().toString().endsWith(".sql"))::iterator) {
                files.put(p.getFileName().toString(), Files.readString(p, StandardCharsets.UTF_8));
            }
        }
        return files;
    }
}
