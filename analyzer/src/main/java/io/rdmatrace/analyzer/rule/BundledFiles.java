package io.rdmatrace.analyzer.rule;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The {@code rules/} folder of the repository as packaged on the class path (the analyzer
 * module copies it in at build time), read from a directory or from inside a jar alike.
 */
public final class BundledFiles {
    /** The class-path folder the rules and view scripts live under. */
    public static final String ROOT = "rules";

    private BundledFiles() {
    }

    /** Every {@code *.sql} file directly inside {@code rules/<subfolder>}, by name, with its text. */
    public static Map<String, String> sqlFiles(String subfolder) {
        return sqlFiles(BundledFiles.class.getClassLoader(), subfolder);
    }

    /** As {@link #sqlFiles(String)}, from {@code loader}'s class path. */
    static Map<String, String> sqlFiles(ClassLoader loader, String subfolder) {
        String folder = subfolder.isEmpty() ? ROOT : ROOT + "/" + subfolder;
        URL marker = loader.getResource(ROOT + "/README.md");
        if (marker == null) {
            throw new IllegalStateException("the built-in rules are missing from the class path (" + ROOT + "/README.md)");
        }
        try {
            URI uri = marker.toURI();
            if (!"jar".equals(uri.getScheme())) {
                return read(Path.of(uri).resolveSibling(subfolder.isEmpty() ? "." : subfolder).normalize());
            }
            // a JarFile shares the class loader's parsed index of the jar; a zip file system would parse all
            // ~12,000 entries again (~0.1 s of a small analysis' CPU, per call)
            URL jarUrl = ((JarURLConnection) marker.openConnection()).getJarFileURL();
            try (JarFile jar = new JarFile(new File(jarUrl.toURI()))) {
                return read(jar, folder + "/");
            }
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the built-in rules: " + marker, e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the built-in rules: " + e.getMessage(), e);
        }
    }

    private static Map<String, String> read(JarFile jar, String prefix) throws IOException {
        Map<String, String> files = new TreeMap<>();
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
        if (!Files.isDirectory(folder)) {
            return files;
        }
        List<Path> paths = new ArrayList<>();
        try (Stream<Path> list = Files.list(folder)) {
            list.filter(p -> p.getFileName().toString().endsWith(".sql")).forEach(paths::add);
        }
        for (Path path : paths) {
            files.put(path.getFileName().toString(), Files.readString(path, StandardCharsets.UTF_8));
        }
        return files;
    }
}
