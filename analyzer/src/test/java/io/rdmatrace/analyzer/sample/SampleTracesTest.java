package io.rdmatrace.analyzer.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import io.rdmatrace.analyzer.AnalysisDatabase;
import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.Analyzer;
import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.analyzer.rule.RuleCatalog;

/**
 * Analyses every sample-traces/&lt;name&gt;/ folder and compares its findings (rule, host, QP)
 * with its expected-findings.txt, so a rule change that breaks a sample fails the build. See
 * sample-traces/README.md.
 */
class SampleTracesTest {

    static Path samplesRoot() {
        String root = System.getProperty("rdmatrace.repo.root");
        Path repo = root != null ? Path.of(root) : Path.of("..").toAbsolutePath().normalize();
        return repo.resolve("sample-traces");
    }

    @TestFactory
    Stream<DynamicTest> everySample_findingsMatchItsExpectations() throws Exception {
        Path root = samplesRoot();
        List<Path> samples = new ArrayList<>();
        if (Files.isDirectory(root)) {
            try (Stream<Path> list = Files.list(root)) {
                list.filter(Files::isDirectory).sorted().forEach(samples::add);
            }
        }
        if (samples.isEmpty()) {
            return Stream.of(DynamicTest.dynamicTest("no samples", () -> Assumptions.abort(
                    "no sample captures under " + root + " yet (sample-traces/<name>/ with host folders and "
                            + ExpectedFindings.FILE + "; see sample-traces/README.md): nothing was checked")));
        }
        return samples.stream().map(sample -> DynamicTest.dynamicTest(sample.getFileName().toString(), () -> check(sample)));
    }

    /** A sample's host folders, unpacked when stored gzip-packed. */
    static Path traces(Path sample, Path scratch) throws Exception {
        boolean packed;
        try (Stream<Path> files = Files.walk(sample, 2)) {
            packed = files.anyMatch(p -> p.getFileName().toString().endsWith(".cq4.gz"));
        }
        if (!packed) {
            return sample;
        }
        Path target = Files.createDirectories(scratch.resolve(sample.getFileName().toString()));
        SampleUnpacker.unpack(sample, target);
        return target;
    }

    private static void deleteTree(Path root) throws java.io.IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.delete(p);
            }
        }
    }

    private static void check(Path sample) throws Exception {
        Path expectedFile = sample.resolve(ExpectedFindings.FILE);
        Assumptions.assumeTrue(Files.isRegularFile(expectedFile), sample + " has no " + ExpectedFindings.FILE
                + " yet: its findings are not checked (write it after reviewing `rdmatrace analyze " + sample + "`)");
        List<String> expected = ExpectedFindings.read(expectedFile);
        List<String> actual;
        Path scratch = Files.createTempDirectory("rdmatrace-sample-");
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            LoadReport load = db.load(List.of(traces(sample, scratch)));
            assertThat(load.rootProblems()).as("loading " + sample).isEmpty();
            assertThat(load.anyReadable()).as(sample + " holds no readable host trace").isTrue();
            db.finishLoading();
            AnalysisResult result = Analyzer.analyze(db, load, RuleCatalog.builtin());
            assertThat(result.ruleProblems()).as("rule problems on " + sample).isEmpty();
            actual = result.findings().stream().map(ExpectedFindings::line).sorted().collect(Collectors.toList());
        } finally {
            deleteTree(scratch);
        }
        assertThat(actual).as("findings of %s; if the change is intended, after checking them, the file should read:%n%s",
                sample, String.join("\n", actual)).isEqualTo(expected);
    }
}
