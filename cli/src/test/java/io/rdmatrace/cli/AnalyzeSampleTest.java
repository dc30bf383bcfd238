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
    void rule_runsOnlyThatRule_andAnUnknownIdIsAUsageError() {
        String mtu = sample("path-mtu-one-side").toString();
        MainTest.Run one = AnalyzeCommandTest.analyze("--rule", "path-mtu-mismatch", mtu);
        assertThat(one.code()).as(one.err()).isEqualTo(ExitCode.FAILURE);
        assertThat(one.out()).contains("ERROR path-mtu-mismatch").doesNotContain("completion-error")
                .doesNotContain("path-mtu-exceeds-active").contains("Findings: 1 error(s), 0 warning(s)");
        MainTest.Run two = AnalyzeCommandTest.analyze("--rule", "path-mtu-exceeds-active,path-mtu-mismatch", mtu);
        assertThat(two.out()).contains("ERROR path-mtu-mismatch").contains("ERROR path-mtu-exceeds-active")
                .contains("Findings: 2 error(s), 0 warning(s)");
        MainTest.Run unknown = AnalyzeCommandTest.analyze("--rule", "no-such-rule", mtu);
        assertThat(unknown.code()).isEqualTo(ExitCode.USAGE);
        assertThat(unknown.err()).contains("--rule no-such-rule: no such rule (rdmatrace analyze --list-rules lists them)");
    }

    /** A pcap of three NAKs from hostA (127.0.0.1) to hostB (127.0.0.2) QP 0x11, built byte by byte. */
    private static byte[] nakPcap() {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(24 + 3 * (16 + 62)).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65535).putInt(1);
        for (int i = 0; i < 3; i++) {
            java.nio.ByteBuffer f = java.nio.ByteBuffer.allocate(62);
            f.put(new byte[12]).putShort((short) 0x0800);
            f.put((byte) 0x45).put((byte) 0).putShort((short) 48).putInt(0).put((byte) 64).put((byte) 17).putShort((short) 0)
                    .put(new byte[] {127, 0, 0, 1}).put(new byte[] {127, 0, 0, 2});
            f.putShort((short) 49152).putShort((short) 4791).putShort((short) 28).putShort((short) 0);
            f.put((byte) 0x11).put((byte) 0).putShort((short) 0xffff).putInt(0x11).putInt(0xbed0c2);
            f.putInt(0x60000000).putInt(0);
            b.putInt(1000 + i).putInt(0).putInt(62).putInt(62).put(f.array());
        }
        return b.array();
    }

    @Test
    void psnSample_withAPcap_citesTheNaks(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path pcap = dir.resolve("hostA.pcap");
        Files.write(pcap, nakPcap());
        MainTest.Run run = AnalyzeCommandTest.analyze("--pcap", "hostA=" + pcap, sample("advertise-psn-off-by-one").toString());
        assertThat(run.code()).as(run.err()).isEqualTo(ExitCode.FAILURE);
        assertThat(run.out()).contains("in the packet capture, hostA sent 3 NAK PSN sequence error for PSN 0xbed0c2 "
                + "(frames 1-3 of hostA.pcap)");
        assertThat(AnalyzeCommandTest.analyze("--pcap", "nofile", sample("clean").toString()).code()).isEqualTo(ExitCode.USAGE);
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
