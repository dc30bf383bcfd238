package io.rdmatrace.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rdmatrace.analyzer.load.HostLoad;
import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.analyzer.rule.RuleCatalog;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.store.TraceWriter;
import io.rdmatrace.trace.synth.SyntheticTrace;

/**
 * Real queues that are cut short, damaged, from the future or not traces at all, next to a good
 * pair: each gets a clear message naming its folder or file, and everything readable is analysed.
 */
class BrokenInputTest {

    private static SessionInfo session(String host) {
        return new SessionInfo("test", host, "rdmatrace capture", "softverbs", "", Map.of(), Attrs.EMPTY, List.of(), List.of());
    }

    private static void marks(TraceWriter writer, int n) {
        for (int i = 0; i < n; i++) {
            writer.mark("S", MarkEvent.Verdict.INFO, String.format("MARKER-%04d", i));
        }
    }

    private static Path queueFile(Path folder) throws Exception {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
    }

    /** Replaces the first occurrence of {@code marker} (+ offset) in the queue file with {@code bytes}. */
    private static void patch(Path folder, String marker, int offset, byte... bytes) throws Exception {
        Path file = queueFile(folder);
        byte[] data = Files.readAllBytes(file);
        byte[] needle = marker.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i + needle.length <= data.length; i++) {
            if (java.util.Arrays.equals(data, i, i + needle.length, needle, 0, needle.length)) {
                System.arraycopy(bytes, 0, data, i + offset, bytes.length);
                Files.write(file, data);
                return;
            }
        }
        throw new AssertionError(marker + " not found in " + file);
    }

    /** A major version no build of this one reads. */
    private static final int FUTURE_MAJOR = io.rdmatrace.trace.model.FormatVersion.FORMAT_MAJOR + 1;

    @Test
    void parentWithBrokenHosts_eachIsNamed_andTheRestIsAnalysed(@TempDir Path parent) throws Exception {
        SyntheticTrace.write(SyntheticTrace.Spec.of(parent, 1, 12));
        TraceWriter running = TraceWriter.create(parent, session("host-c")); // still open at analysis: a live trace, no END
        try {
            marks(running, 3);
            try (TraceWriter w = TraceWriter.create(parent, session("host-d"))) {
                marks(w, 20);
            }
            patch(parent.resolve("host-d"), "MARKER-0010", 8, (byte) '9'); // the check value catches the change
            try (TraceWriter w = TraceWriter.create(parent, session("host-e"))) {
                marks(w, 2);
            }
            patch(parent.resolve("host-e"), "RDMT", 4, (byte) FUTURE_MAJOR, (byte) 0, (byte) 0, (byte) 0); // a future major
            Files.createDirectories(parent.resolve("notes"));
            Files.writeString(parent.resolve("notes/todo.txt"), "not a trace");
            Files.writeString(parent.resolve("README.txt"), "a stray file");

            AnalysisResult result;
            try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
                LoadReport load = db.load(List.of(parent));
                db.finishLoading();
                result = Analyzer.analyze(db, load, RuleCatalog.builtin());
            }
            Map<String, String> status = result.load().hosts().stream()
                    .collect(Collectors.toMap(h -> h.folder().substring(parent.toString().length() + 1), HostLoad::status));
            assertThat(status).containsExactlyInAnyOrderEntriesOf(Map.of("host-a", "CLEAN", "host-b", "CLEAN",
                    "host-c", "RECORDING", "host-d", "CORRUPT", "host-e", "UNSUPPORTED_VERSION", "notes", "IGNORED"));
            HostLoad corrupt = host(result, "host-d");
            assertThat(corrupt.events()).isEqualTo(11); // SESSION + MARKER-0000..0009
            assertThat(corrupt.detail()).contains(queueFile(parent.resolve("host-d")).getFileName().toString())
                    .contains("check value mismatch");
            assertThat(host(result, "host-c").events()).isEqualTo(4);
            assertThat(host(result, "host-e").detail()).contains(parent.resolve("host-e").toString())
                    .contains("trace format " + FUTURE_MAJOR + ".0 is not supported").contains("use a newer rdmatrace");

            List<String> findings = result.findings().stream()
                    .filter(f -> f.ruleId().startsWith("trace-"))
                    .map(f -> f.ruleId() + " " + f.host() + " " + f.evidence()).collect(Collectors.toList());
            assertThat(findings).containsExactly("trace-unreadable host-e []", "trace-truncated host-d [host-d#10]",
                    "trace-recording host-c [host-c#3]");
            // the good pair is still analysed: its connection is there
            assertThat(result.connections()).hasSize(1);
            assertThat(result.connections().get(0).hostA()).isEqualTo("host-a");
        } finally {
            running.close();
        }
    }

    private static HostLoad host(AnalysisResult result, String folder) {
        return result.load().hosts().stream().filter(h -> h.folder().endsWith(folder)).findFirst().orElseThrow();
    }
}
