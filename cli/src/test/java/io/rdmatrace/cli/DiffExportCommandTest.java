package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rdmatrace.trace.synth.SyntheticTrace;

/**
 * `rdmatrace diff` and `rdmatrace export` in-process on synthetic captures: exit codes, formats,
 * usage errors, and a bundle standing in for a folder.
 */
class DiffExportCommandTest {
    @TempDir
    static Path dir;

    static Path clean1;
    static Path clean2;
    static Path fault;

    @BeforeAll
    static void captures() throws Exception {
        clean1 = dir.resolve("clean1");
        clean2 = dir.resolve("clean2");
        fault = dir.resolve("fault");
        SyntheticTrace.write(new SyntheticTrace.Spec(clean1, "host-a", "host-b", 1, 60, 1, SyntheticTrace.Fault.NONE));
        SyntheticTrace.write(new SyntheticTrace.Spec(clean2, "host-a", "host-b", 1, 60, 2, SyntheticTrace.Fault.NONE));
        SyntheticTrace.write(new SyntheticTrace.Spec(fault, "host-a", "host-b", 1, 60, 3,
                SyntheticTrace.Fault.PSN_OFF_BY_ONE));
    }

    record Run(int exit, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void diff_equivalentCaptures_exit0() {
        Run r = run("diff", clean1.toString(), clean2.toString());
        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("paired by role", "listen: host-a ↔ host-a", "equivalent: no behavioural difference");
    }

    @Test
    void diff_fault_exit1_listsTheCompletionsAndVerdicts() {
        Run r = run("diff", clean1.toString(), fault.toString());
        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.out()).contains("completions", "connect  completion send  wc_status: IBV_WC_SUCCESS → IBV_WC_RETRY_EXC_ERR",
                "scenario step verdicts", "DIFFERENT: 5 behavioural differences");
    }

    @Test
    void diff_json_isValidAndSaysWhatDiffered() throws Exception {
        Run r = run("diff", "--format", "json", clean1.toString(), fault.toString());
        assertThat(r.exit()).isEqualTo(1);
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
                PreparedStatement q = c.prepareStatement("SELECT json_valid(?), json_extract_string(?, '$.equivalent'), "
                        + "json_array_length(json_extract(?, '$.differences')), "
                        + "json_extract_string(?, '$.differences[0].category')")) {
            for (int i = 1; i <= 4; i++) {
                q.setString(i, r.out());
            }
            try (ResultSet rs = q.executeQuery()) {
                rs.next();
                assertThat(rs.getBoolean(1)).isTrue();
                assertThat(rs.getString(2)).isEqualTo("false");
                assertThat(rs.getInt(3)).isEqualTo(5);
                assertThat(rs.getString(4)).isEqualTo("completion");
            }
        }
    }

    @Test
    void diff_markdownToFile() throws Exception {
        Path md = dir.resolve("diff.md");
        Run r = run("diff", "--format", "markdown", "-o", md.toString(), clean1.toString(), fault.toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("5 behavioural differences", "report written to " + md);
        assertThat(Files.readString(md)).startsWith("# rdmatrace diff").contains("## Completions",
                "| connect | completion send | wc_status | IBV_WC_SUCCESS | IBV_WC_RETRY_EXC_ERR |", "## Latency");
    }

    @Test
    void diff_usageErrors_exit2() {
        Run format = run("diff", "--format", "yaml", clean1.toString(), clean2.toString());
        assertThat(format.exit()).isEqualTo(2);
        assertThat(format.err()).contains("rdmatrace diff: unknown format 'yaml'");
        Run ignore = run("diff", "--ignore", "vendor_er", clean1.toString(), clean2.toString());
        assertThat(ignore.exit()).isEqualTo(2);
        assertThat(ignore.err()).contains("unknown field 'vendor_er'", "vendor_err");
        Run missing = run("diff", clean1.toString(), dir.resolve("nowhere").toString());
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("rdmatrace diff: B (", "nowhere", "cannot be compared");
        assertThat(run("diff", clean1.toString()).exit()).isEqualTo(2);
    }

    @Test
    void export_thenDiffTheBundleAgainstItsFolder() throws Exception {
        Path zip = dir.resolve("clean1.zip");
        Run r = run("export", clean1.toString(), "-o", zip.toString());
        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("wrote " + zip, "2 host(s)", "not redacted");
        assertThat(zip).isRegularFile();

        Run same = run("diff", zip.toString(), clean1.toString());
        assertThat(same.exit()).as(same.out() + same.err()).isZero();

        Run again = run("export", clean1.toString(), "-o", zip.toString());
        assertThat(again.exit()).isEqualTo(2);
        assertThat(again.err()).contains("already exists");
        assertThat(run("export", clean1.toString(), "-o", zip.toString(), "--force").exit()).isZero();
    }

    @Test
    void exportRedacted_printsWhatWasReplacedAndTheHostMap() throws Exception {
        Path zip = dir.resolve("fault-redacted.zip");
        Run r = run("export", fault.toString(), "-o", zip.toString(), "--redact");
        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("redacted:", "host name(s) → host-xxxxxx", "IPv4 address(es)",
                "host names in the bundle (this list is not in it):").containsPattern("host-a → host-[0-9a-f]{6}");

        Run d = run("diff", fault.toString(), zip.toString());
        assertThat(d.exit()).as("a redacted bundle behaves like its folder: " + d.out()).isZero();

        // analyze reads the bundle as it reads the folder: same verdict, same rules firing
        Run fromFolder = run("analyze", "--format", "json", fault.toString());
        Run fromBundle = run("analyze", "--format", "json", zip.toString());
        assertThat(fromBundle.exit()).as(fromBundle.out() + fromBundle.err()).isEqualTo(fromFolder.exit());
        assertThat(ruleIds(fromBundle.out())).isEqualTo(ruleIds(fromFolder.out())).isNotEmpty();
    }

    /** The rule ids of an `analyze --format json` report, sorted. */
    static java.util.List<String> ruleIds(String json) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"rule\"\\s*:\\s*\"([a-z0-9-]+)\"").matcher(json);
        java.util.List<String> ids = new java.util.ArrayList<>();
        while (m.find()) {
            ids.add(m.group(1));
        }
        java.util.Collections.sort(ids);
        return ids;
    }

    @Test
    void export_badInput() throws Exception {
        Run missing = run("export", dir.resolve("nowhere").toString(), "-o", dir.resolve("a.zip").toString());
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("rdmatrace export:", "no such trace folder");
        Path empty = Files.createDirectories(dir.resolve("empty"));
        Run nothing = run("export", empty.toString(), "-o", dir.resolve("b.zip").toString());
        assertThat(nothing.exit()).as("unusable input: 2, as in analyze and diff").isEqualTo(2);
        assertThat(nothing.err()).contains("nothing to export");
        assertThat(dir.resolve("b.zip")).doesNotExist();
        assertThat(run("export", clean1.toString()).exit()).as("-o is required").isEqualTo(2);
    }
}
