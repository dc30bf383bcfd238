package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rdmatrace.trace.synth.SyntheticTrace;

/** `rdmatrace analyze` in-process: exit codes, formats, options, bad inputs. */
class AnalyzeCommandTest {
    @TempDir
    static Path shared;
    static Path clean;
    static Path psnFault;

    @BeforeAll
    static void traces() throws Exception {
        clean = shared.resolve("clean");
        SyntheticTrace.write(SyntheticTrace.Spec.of(clean, 1, 30));
        psnFault = shared.resolve("psn");
        SyntheticTrace.write(SyntheticTrace.Spec.of(psnFault, 1, 30).withFault(SyntheticTrace.Fault.PSN_OFF_BY_ONE));
    }

    static MainTest.Run analyze(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "analyze";
        System.arraycopy(args, 0, all, 1, args.length);
        return MainTest.run(all);
    }

    @Test
    void psnFault_exitsOneAndNamesTheRuleHostAndQp() {
        MainTest.Run run = analyze(psnFault.toString());
        assertThat(run.code()).as(run.err()).isEqualTo(ExitCode.FAILURE);
        assertThat(run.out()).contains("ERROR psn-misaligned").contains("host-b QP 0x100011")
                .contains("injected by --advertise-psn").contains("fix: Advertise exactly the sq_psn");
    }

    @Test
    void noErrorFindings_exitZero_unlessFailOnIsLower() {
        MainTest.Run run = analyze(clean.toString());
        assertThat(run.code()).as(run.out()).isEqualTo(ExitCode.OK);
        assertThat(run.out()).contains("Findings: 0 error(s)");
        // the synthetic capture never destroys its objects: resource-leak warnings
        assertThat(analyze("--fail-on", "warning", clean.toString()).code()).isEqualTo(ExitCode.FAILURE);
        assertThat(analyze("--fail-on", "never", psnFault.toString()).code()).isEqualTo(ExitCode.OK);
    }

    @Test
    void jsonFormat_isValidJsonWithTheFindings() throws Exception {
        MainTest.Run run = analyze("--format", "json", psnFault.toString());
        assertThat(run.out()).startsWith("{\"schema\":\"rdmatrace-analysis/1\"");
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:"); Statement s = db.createStatement();
                ResultSet rs = s.executeQuery("SELECT json_valid('" + run.out().strip().replace("'", "''") + "'), "
                        + "json_extract_string('" + run.out().strip().replace("'", "''") + "', '$.findings[0].rule')")) {
            rs.next();
            assertThat(rs.getBoolean(1)).isTrue();
            assertThat(rs.getString(2)).isIn("psn-misaligned", "completion-error");
        }
    }

    @Test
    void markdownAndJunitFormats_toAFile(@TempDir Path dir) throws Exception {
        Path md = dir.resolve("report.md");
        MainTest.Run run = analyze("--format", "markdown", "-o", md.toString(), psnFault.toString());
        assertThat(run.code()).isEqualTo(ExitCode.FAILURE);
        assertThat(run.out()).contains("report written to " + md);
        assertThat(Files.readString(md)).contains("## rdmatrace analysis").contains("**ERROR `psn-misaligned`**");
        Path xml = dir.resolve("report.xml");
        analyze("--format", "junit", "-o", xml.toString(), psnFault.toString());
        assertThat(Files.readString(xml)).contains("<testsuite name=\"rdmatrace-analyze\"")
                .contains("<testcase classname=\"rdmatrace.rules\" name=\"psn-misaligned\"").contains("<failure type=\"error\"");
    }

    @Test
    void listRules_namesEveryRule_andVerboseShowsTheSql() {
        MainTest.Run run = analyze("--list-rules");
        assertThat(run.code()).isEqualTo(ExitCode.OK);
        assertThat(run.out().lines()).hasSizeGreaterThanOrEqualTo(27);
        assertThat(run.out()).contains("psn-misaligned").contains("completion-error").contains("resource-leak");
        assertThat(analyze("--list-rules", "--verbose").out()).contains("FROM _pair a");
    }

    @Test
    void userRules_addToTheBuiltIns_andABrokenOneIsReportedByFile(@TempDir Path rules) throws Exception {
        Files.writeString(rules.resolve("many-events.sql"), String.join("\n",
                "-- id: many-events", "-- severity: info", "-- title: Count the events", "-- explanation: A demo rule.",
                "-- fix: Nothing to fix.",
                "SELECT host, NULL::BIGINT AS qp, [ev(host, max(seq))] AS evidence, count(*) || ' events' AS message",
                "FROM events GROUP BY host"), StandardCharsets.UTF_8);
        Files.writeString(rules.resolve("typo.sql"), String.join("\n",
                "-- id: typo", "-- severity: error", "-- title: Broken", "-- explanation: Refers to a missing column.",
                "-- fix: None.", "SELECT host, NULL::BIGINT AS qp, [] AS evidence, no_such_column AS message FROM events"),
                StandardCharsets.UTF_8);
        MainTest.Run run = analyze("--rules", rules.toString(), "--fail-on", "never", clean.toString());
        assertThat(run.code()).isEqualTo(ExitCode.OK);
        assertThat(run.out()).contains("INFO many-events").contains("host-a:").contains(" events");
        assertThat(run.err()).contains("typo.sql").contains("no_such_column");
        assertThat(run.out()).contains("Rule problems: 1 rule file(s)");
    }

    @Test
    void dbOption_keepsTheDatabase(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("trace.duckdb");
        assertThat(analyze("--db", file.toString(), "--fail-on", "never", clean.toString()).code()).isEqualTo(ExitCode.OK);
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:" + file); Statement s = db.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM connection_pairs")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(1);
        }
        MainTest.Run again = analyze("--db", file.toString(), clean.toString());
        assertThat(again.code()).isEqualTo(ExitCode.USAGE);
        assertThat(again.err()).contains(file + " already exists");
    }

    @Test
    void badFolders_areUsageErrors(@TempDir Path empty) {
        MainTest.Run missing = analyze(empty.resolve("nope").toString());
        assertThat(missing.code()).isEqualTo(ExitCode.USAGE);
        assertThat(missing.err()).startsWith("rdmatrace analyze: ").contains("nope: no such folder");
        MainTest.Run nothing = analyze(empty.toString());
        assertThat(nothing.code()).isEqualTo(ExitCode.USAGE);
        assertThat(nothing.err()).contains(empty.toString()).contains("no trace found");
        assertThat(analyze().code()).isEqualTo(ExitCode.USAGE);
        assertThat(analyze("--format", "yaml", clean.toString()).code()).isEqualTo(ExitCode.USAGE);
        assertThat(analyze("--fail-on", "sometimes", clean.toString()).code()).isEqualTo(ExitCode.USAGE);
    }

    @Test
    void oneHostOnly_isAnalysedAndTheMissingPeerIsAFinding() {
        MainTest.Run run = analyze(clean.resolve("host-a").toString());
        assertThat(run.code()).isEqualTo(ExitCode.FAILURE);
        assertThat(run.out()).contains("ERROR host-missing").contains("host-a exchanged")
                .contains("127.0.0.2:18515 but no loaded trace is that peer");
    }
}
