package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * `rdmatrace analyze sample-traces/<name>` as the README shows it: the samples are shipped
 * gzip-packed and analyze reads them as they are; the report opens with the root cause.
 */
class AnalyzeSampleTest {
    private static Path sample(String name) {
        Path sample = Path.of("..").toAbsolutePath().normalize().resolve("sample-traces").resolve(name);
        Assumptions.assumeTrue(Files.isDirectory(sample), "no sample " + sample + " in this checkout: nothing checked");
        return sample;
    }

    @Test
    void psnSample_asShipped_opensWithTheCause_andNestsTheCompletionErrorUnderIt() {
        MainTest.Run run = AnalyzeCommandTest.analyze(sample("advertise-psn-off-by-one").toString());
        assertThat(run.code()).as(run.err()).isEqualTo(ExitCode.FAILURE);
        List<String> lines = run.out().lines().toList();
        assertThat(lines.get(0)).startsWith("Root cause (psn-misaligned): hostB QP 0x000011 sends from PSN 0xbed0c3");
        assertThat(lines.stream().filter(l -> l.strip().startsWith("ERROR ")).findFirst())
                .contains("ERROR psn-misaligned: A sender's first PSN is not the PSN its peer expects");
        assertThat(run.out()).contains("which led to:").contains("wr_id 0x4000000000000000")
                .contains("hostB: RESET > INIT > RTR > RTS > ERR").contains("hostA counted out_of_seq_request +12")
                .contains("verdict: FAILED (3 error(s))").doesNotContain("CLEAN")
                .contains("look at them: rdmatrace show ")
                .contains("Expected: 2 illegal-transition-rejected finding(s)").doesNotContain("INFO illegal-transition");
        assertThat(AnalyzeCommandTest.analyze("--all", sample("advertise-psn-off-by-one").toString()).out())
                .contains("INFO illegal-transition-rejected");
    }

    @Test
    void psnSample_json_linksTheConsequenceToItsCause() throws Exception {
        MainTest.Run run = AnalyzeCommandTest.analyze("--format", "json", sample("advertise-psn-off-by-one").toString());
        String json = run.out().strip().replace("'", "''");
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:"); Statement s = db.createStatement();
                ResultSet rs = s.executeQuery("WITH f AS (SELECT unnest(json_extract('" + json + "', '$.findings[*]')) AS f) "
                        + "SELECT f->>'role', f->'caused_by'->0->>'rule', f->'caused_by'->0->>'host', f->'caused_by'->0->>'qp' "
                        + "FROM f WHERE f->>'rule' = 'completion-error'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("consequence");
            assertThat(rs.getString(2)).isEqualTo("psn-misaligned");
            assertThat(rs.getString(3)).isEqualTo("hostB");
            assertThat(rs.getLong(4)).isEqualTo(0x11);
        }
    }
}
