package io.rdmatrace.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Extraction of a native library packed in a jar into the per-version cache folder. */
class NativeResourcesTest {

    private static final String RESOURCE = NativeResources.PLATFORM_DIR + "softverbs/libibverbs.so.1";

    @TempDir
    Path tmp;

    private URL jarWith(byte[] content) throws IOException {
        Path jar = tmp.resolve("lib.jar");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream jos = new JarOutputStream(out)) {
            jos.putNextEntry(new JarEntry(RESOURCE));
            jos.write(content);
            jos.closeEntry();
        }
        return new URL("jar:" + jar.toUri() + "!/" + RESOURCE);
    }

    @Test
    void plainFile_isUsedWhereItIs() throws Exception {
        Path file = Files.write(tmp.resolve("x.so"), new byte[] {1, 2, 3});
        assertThat(NativeResources.materialize(file.toUri().toURL(), RESOURCE, List.of(tmp.resolve("cache"))))
                .isEqualTo(file);
        assertThat(tmp.resolve("cache")).doesNotExist();
    }

    @Test
    void jarEntry_isExtractedOnceIntoAVersionHashFolder() throws Exception {
        byte[] content = "not really a library".getBytes();
        URL url = jarWith(content);
        Path cache = tmp.resolve("cache");
        Path first = NativeResources.materialize(url, RESOURCE, List.of(cache));
        assertThat(first).hasBinaryContent(content);
        assertThat(first.toString()).endsWith("softverbs/libibverbs.so.1");
        assertThat(first.getParent().getParent().getFileName().toString()).matches("dev-[0-9a-f]{16}");
        long modified = Files.getLastModifiedTime(first).toMillis();

        Path second = NativeResources.materialize(url, RESOURCE, List.of(cache));
        assertThat(second).isEqualTo(first);
        assertThat(Files.getLastModifiedTime(second).toMillis()).isEqualTo(modified);
        try (Stream<Path> files = Files.walk(cache)) {
            assertThat(files.filter(p -> p.getFileName().toString().endsWith(".tmp"))).isEmpty();
        }
    }

    @Test
    void unwritableCache_fallsBackToTheNextFolder() throws Exception {
        URL url = jarWith(new byte[] {42});
        Path notADir = Files.write(tmp.resolve("file-not-dir"), new byte[0]);
        Path fallback = tmp.resolve("fallback");
        Path got = NativeResources.materialize(url, RESOURCE, List.of(notADir, fallback));
        assertThat(got).startsWith(fallback).hasBinaryContent(new byte[] {42});
    }

    @Test
    void noUsableFolder_failsNamingTheResource() throws Exception {
        URL url = jarWith(new byte[] {42});
        Path notADir = Files.write(tmp.resolve("file-not-dir"), new byte[0]);
        assertThatThrownBy(() -> NativeResources.materialize(url, RESOURCE, List.of(notADir)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(RESOURCE);
    }

    @Test
    void concurrentExtractions_allSeeTheCompleteFile() throws Exception {
        byte[] content = new byte[256 * 1024];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) i;
        }
        URL url = jarWith(content);
        Path cache = tmp.resolve("cache");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Path>> results = Stream.generate(() -> pool.submit(
                            () -> NativeResources.materialize(url, RESOURCE, List.of(cache))))
                    .limit(8).toList();
            for (Future<Path> r : results) {
                assertThat(r.get(30, TimeUnit.SECONDS)).hasBinaryContent(content);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
