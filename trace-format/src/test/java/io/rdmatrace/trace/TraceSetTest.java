package io.rdmatrace.trace;

import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.store.TraceSet;
import io.rdmatrace.trace.store.TraceWriter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceSetTest {

    @TempDir
    Path out;

    private void write(String host, int marks) throws TraceException {
        try (TraceWriter w = TraceWriter.create(out, EdgeFixture.session(host))) {
            for (int i = 0; i < marks; i++) {
                w.mark("S", MarkEvent.Verdict.INFO, "m" + i);
            }
        }
    }

    @Test
    void discover_findsHostFoldersSorted_ignoringOtherEntries() throws Exception {
        write("host-b", 1);
        write("host-a", 2);
        Files.createDirectories(out.resolve("empty-dir"));
        Files.writeString(out.resolve("notes.txt"), "x");
        TraceSet set = TraceSet.discover(out);
        assertThat(set.root()).isEqualTo(out);
        assertThat(set.hostIds()).containsExactly("host-a", "host-b");
        try (TraceReader r = set.open(set.hosts().get(0))) {
            assertThat(r.session().hostId()).isEqualTo("host-a");
        }
    }

    @Test
    void discover_onAHostFolder_isThatHost() throws Exception {
        write("solo", 0);
        TraceSet set = TraceSet.discover(out.resolve("solo"));
        assertThat(set.hosts()).containsExactly(out.resolve("solo"));
    }

    @Test
    void discover_withoutTraces_isTypedError() throws Exception {
        Files.writeString(out.resolve("x.txt"), "x");
        TraceException e = catchThrowableOfType(TraceException.class, () -> TraceSet.discover(out));
        assertThat(e.problem()).isEqualTo(TraceException.Problem.NO_TRACES);
        assertThat(catchThrowableOfType(TraceException.class, () -> TraceSet.discover(out.resolve("missing")))
                .problem()).isEqualTo(TraceException.Problem.NOT_FOUND);
    }

    @Test
    void readOnlyCopy_isReadable_andReaderChangesNoFile() throws Exception {
        write("orig", 50);
        Path copy = Files.createDirectories(out.resolve("copy").resolve("orig"));
        try (Stream<Path> s = Files.list(out.resolve("orig"))) {
            for (Path p : s.collect(Collectors.toList())) {
                Files.copy(p, copy.resolve(p.getFileName()));
            }
        }
        try (Stream<Path> s = Files.list(copy)) {
            for (Path p : s.collect(Collectors.toList())) {
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("r--r--r--"));
            }
        }
        Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            Map<String, String> before = digests(copy);
            TraceReader.Result r = TraceReader.readAll(copy);
            assertThat(r.outcome().isClean()).isTrue();
            assertThat(r.events()).hasSize(52);
            assertThat(digests(copy)).as("files and contents unchanged").isEqualTo(before);
        } finally {
            Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    private static Map<String, String> digests(Path dir) throws Exception {
        Map<String, String> m = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = new ArrayList<>(s.collect(Collectors.toList()));
        }
        for (Path p : files) {
            m.put(p.getFileName().toString(), sha256(p) + "@" + Files.getLastModifiedTime(p).toMillis());
        }
        return m;
    }

    private static String sha256(Path p) throws IOException, java.security.NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
    }
}
