package io.rdmatrace.analyzer.rule;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rules folder read from a jar (the shipped form) holds the same files as read from a directory (the build's). */
class BundledFilesTest {
    @TempDir
    Path dir;

    @Test
    void sqlFiles_fromAJar_directChildrenOnly() throws Exception {
        Path jar = dir.resolve("rules.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            put(out, "rules/README.md", "marker");
            put(out, "rules/b-rule.sql", "-- b\nSELECT 2");
            put(out, "rules/a-rule.sql", "-- a é\nSELECT 1");
            put(out, "rules/notes.txt", "not sql");
            put(out, "rules/_views/10_x.sql", "CREATE VIEW x AS SELECT 1");
            put(out, "rules/_views/deeper/20_y.sql", "CREATE VIEW y AS SELECT 1");
            put(out, "other/c.sql", "SELECT 3");
        }
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
            Map<String, String> rules = BundledFiles.sqlFiles(loader, "");
            assertThat(rules).containsExactly(Map.entry("a-rule.sql", "-- a é\nSELECT 1"), Map.entry("b-rule.sql", "-- b\nSELECT 2"));
            assertThat(BundledFiles.sqlFiles(loader, "_views")).containsExactly(Map.entry("10_x.sql", "CREATE VIEW x AS SELECT 1"));
            assertThat(BundledFiles.sqlFiles(loader, "missing")).isEmpty();
        }
    }

    @Test
    void sqlFiles_jarAndDirectoryAgree() throws Exception {
        Path tree = dir.resolve("tree");
        Files.createDirectories(tree.resolve("rules/_views"));
        Files.writeString(tree.resolve("rules/README.md"), "marker");
        Files.writeString(tree.resolve("rules/r.sql"), "SELECT 1");
        Files.writeString(tree.resolve("rules/_views/v.sql"), "SELECT 2");
        Path jar = dir.resolve("tree.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            put(out, "rules/README.md", "marker");
            put(out, "rules/r.sql", "SELECT 1");
            put(out, "rules/_views/v.sql", "SELECT 2");
        }
        try (URLClassLoader fromDir = new URLClassLoader(new URL[] {tree.toUri().toURL()}, null);
                URLClassLoader fromJar = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
            for (String sub : new String[] {"", "_views"}) {
                assertThat(BundledFiles.sqlFiles(fromJar, sub)).as(sub).isEqualTo(BundledFiles.sqlFiles(fromDir, sub)).isNotEmpty();
            }
        }
    }

    private static void put(JarOutputStream out, String name, String text) throws IOException {
        out.putNextEntry(new JarEntry(name));
        OutputStream body = out;
        body.write(text.getBytes(StandardCharsets.UTF_8));
        out.closeEntry();
    }
}
