package io.rdmatrace.analyzer.rule;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
        String folder = subfolder.isEmpty() ? ROOT : ROOT + "/" + subfolder;
        URL marker = BundledFiles.class.getClassLoader().getResource(ROOT + "/README.md");
        if (marker == null) {
            throw new IllegalStateException("the built-in rules are missing from the class path (" + ROOT + "/README.md)");
        }
        try {
            URI uri = marker.toURI();
            if (!"jar".equals(uri.getScheme())) {
                return read(Path.of(uri).resolveSibling(subfolder.isEmpty() ? "." : subfolder).normalize());
            }
            try {
                try (FileSystem jar = FileSystems.newFileSystem(uri, Map.of())) {
                    return read(jar.getPath("/" + folder));
                }
            } catch (FileSystemAlreadyExistsException e) {
                // opened elsewhere in this JVM: borrow it, and leave closing to its owner
                return read(FileSystems.getFileSystem(uri).getPath("/" + folder));
            }
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the built-in rules: " + marker, e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the built-in rules: " + e.getMessage(), e);
        }
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
