package io.rdmatrace.tracer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The librdmacm link beside an extracted libibverbs: a jar extracts each library into a folder named
 * by its own bytes, so a new build whose librdmacm changed and libibverbs did not finds the old
 * build's link in libibverbs' folder.
 */
class TracerLibraryTest {
    @Test
    void link_madeWhenAbsent_replacedWhenItNamesAnotherBuild_keptWhenRight(@TempDir Path tmp) throws Exception {
        Path verbsDir = Files.createDirectories(tmp.resolve("0.1-aaaa/softverbs"));
        Path oldCm = Files.writeString(Files.createDirectories(tmp.resolve("0.1-bbbb/softverbs")).resolve("librdmacm.so.1"), "old");
        Path newCm = Files.writeString(Files.createDirectories(tmp.resolve("0.1-cccc/softverbs")).resolve("librdmacm.so.1"), "new");
        Path link = verbsDir.resolve("librdmacm.so.1");

        TracerLibrary.link(verbsDir, oldCm);
        assertThat(Files.readSymbolicLink(link)).isEqualTo(oldCm);
        TracerLibrary.link(verbsDir, newCm);
        assertThat(Files.readSymbolicLink(link)).isEqualTo(newCm);
        assertThat(Files.readString(link)).isEqualTo("new");
        TracerLibrary.link(verbsDir, newCm);
        assertThat(Files.readSymbolicLink(link)).isEqualTo(newCm);
        try (var files = Files.list(verbsDir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("librdmacm.so.1");
        }
        // a library already in the folder needs no link
        Path inPlace = Files.writeString(verbsDir.resolve("libother.so.1"), "x");
        TracerLibrary.link(verbsDir, inPlace);
        assertThat(Files.isSymbolicLink(inPlace)).isFalse();
    }
}
