package io.rdmatrace.analyzer.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.analyzer.AnalysisDatabase;
import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.Analyzer;
import io.rdmatrace.analyzer.load.HostLoad;
import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.analyzer.load.bundle.BundleLayout;
import io.rdmatrace.analyzer.load.bundle.BundleLoader;
import io.rdmatrace.analyzer.rule.RuleCatalog;
import io.rdmatrace.trace.synth.SyntheticTrace;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hostile and damaged bundles: a zip bomb is refused while it inflates; a bad table costs only that table. */
class BundleGuardsTest {

    @TempDir
    Path dir;

    @Test
    void zipBomb_isRefusedWhileInflating_beforeItIsWrittenOut() throws Exception {
        Path bomb = dir.resolve("bomb.zip");
        long inflated = 256L << 20; // 256 MiB of zeros packs into a few hundred KB
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(bomb))) {
            out.putNextEntry(new ZipEntry(BundleLayout.MANIFEST));
            out.write("{\"format\": \"rdmatrace-bundle\", \"format_version\": \"1.0\"}".getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
            out.putNextEntry(new ZipEntry("hosts/h/call.parquet"));
            byte[] zeros = new byte[1 << 20];
            for (long n = 0; n < inflated; n += zeros.length) {
                out.write(zeros);
            }
            out.closeEntry();
        }
        assertThat(Files.size(bomb)).isLessThan(inflated / BundleLoader.MAX_RATIO);
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            LoadReport load = db.load(List.of(bomb));
            assertThat(load.anyReadable()).isFalse();
            // the ratio guard fires at MAX_RATIO x the packed size, far below the 256 MiB the entry holds
            assertThat(load.rootProblems()).singleElement().asString().contains("bomb.zip")
                    .contains("hosts/h/call.parquet inflates more than " + BundleLoader.MAX_RATIO + " times");
        }
    }

    @Test
    void unreadableTable_skipsThatTableWithAFinding_andTheRestLoads() throws Exception {
        Path trace = dir.resolve("trace");
        SyntheticTrace.write(SyntheticTrace.Spec.of(trace, 1, 30));
        Path plain = BundleWriter.export(trace, dir.resolve("plain.zip"), false, false, "0.0.0-test").bundle();
        Map<String, byte[]> entries = new TreeMap<>(ExportTest.entries(plain));
        String damaged = entries.keySet().stream().filter(n -> n.matches("hosts/[^/]+/call\\.parquet")).sorted()
                .findFirst().orElseThrow();
        String folder = damaged.split("/")[1];
        entries.put(damaged, "PAR1 not really parquet".getBytes(StandardCharsets.US_ASCII));
        Path bad = dir.resolve("bad-table.zip");
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(bad))) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                out.putNextEntry(new ZipEntry(e.getKey()));
                out.write(e.getValue());
                out.closeEntry();
            }
        }
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            LoadReport load = db.load(List.of(bad));
            db.finishLoading();
            AnalysisResult result = Analyzer.analyze(db, load, RuleCatalog.builtin());
            Map<String, String> status = load.hosts().stream().collect(Collectors.toMap(
                    h -> h.folder().substring(h.folder().lastIndexOf('/') + 1), HostLoad::status));
            assertThat(status).hasSize(2).containsEntry(folder, "CORRUPT").containsValue("CLEAN");
            HostLoad hurt = load.hosts().stream().filter(h -> h.status().equals("CORRUPT")).findFirst().orElseThrow();
            assertThat(hurt.detail()).contains("call.parquet").contains("skipped");
            assertThat(hurt.events()).isPositive();
            assertThat(result.findings()).anyMatch(f -> f.ruleId().equals("trace-truncated") && f.host().equals(hurt.host())
                    && f.message().contains("call.parquet"));
        }
    }
}
