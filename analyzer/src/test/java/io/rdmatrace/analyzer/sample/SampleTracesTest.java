package io.rdmatrace.analyzer.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
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
import io.rdmatrace.analyzer.report.ReportFormat;
import io.rdmatrace.analyzer.report.ReportOptions;
import io.rdmatrace.analyzer.rule.RuleCatalog;

/**
 * Analyses every sample-traces/&lt;name&gt;/ folder and compares its findings (rule, host, QP)
 * with its expected-findings.txt, so a rule change that breaks a sample fails the build. See
 * sample-traces/README.md.
 */
class SampleTracesTest {
    static final String SUMMARY_FILE = "expected-summary.txt";

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

    /** The text report's opening lines (up to the first blank line) against expected-summary.txt. */
    private static void checkSummary(Path sample, AnalysisResult result) throws Exception {
        Path golden = sample.resolve(SUMMARY_FILE);
        Assumptions.assumeTrue(Files.isRegularFile(golden), sample + " has no " + SUMMARY_FILE
                + " yet: its summary is not checked (write the first lines of `rdmatrace analyze " + sample + "`)");
        StringWriter text = new StringWriter();
        ReportFormat.TEXT.writer().write(result, ReportOptions.DEFAULT, new PrintWriter(text));
        List<String> summary = new ArrayList<>();
        for (String line : text.toString().split("\n", -1)) {
            if (line.isEmpty()) {
                break;
            }
            summary.add(line);
        }
        List<String> expected = Files.readAllLines(golden);
        assertThat(summary).as("summary of %s; if the change is intended, %s should read:%n%s", sample, SUMMARY_FILE,
                String.join("\n", summary)).isEqualTo(expected);
    }

    private static void check(Path sample) throws Exception {
        Path expectedFile = sample.resolve(ExpectedFindings.FILE);
        Assumptions.assumeTrue(Files.isRegularFile(expectedFile), sample + " has no " + ExpectedFindings.FILE
                + " yet: its findings are not checked (write it after reviewing `rdmatrace analyze " + sample + "`)");
        List<String> expected = ExpectedFindings.read(expectedFile);
        List<String> actual;
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            // as shipped: the loader unpacks the gzip-packed queue files itself
            LoadReport load = db.load(List.of(sample));
            assertThat(load.rootProblems()).as("loading " + sample).isEmpty();
            assertThat(load.anyReadable()).as(sample + " holds no readable host trace").isTrue();
            db.finishLoading();
            AnalysisResult result = Analyzer.analyze(db, load, RuleCatalog.builtin());
            assertThat(result.ruleProblems()).as("rule problems on " + sample).isEmpty();
            actual = result.findings().stream().map(ExpectedFindings::line).sorted().collect(Collectors.toList());
            checkSummary(sample, result);
        }
        assertThat(actual).as("findings of %s; if the change is intended, after checking them, the file should read:%n%s",
                sample, String.join("\n", actual)).isEqualTo(expected);
    }
}
