package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** `rdmatrace show` on the PSN sample, whose evidence events the analysis cites. */
class ShowCommandTest {
    private static Path sample;

    @BeforeAll
    static void sample() {
        sample = Path.of("..").toAbsolutePath().normalize().resolve("sample-traces").resolve("advertise-psn-off-by-one");
        Assumptions.assumeTrue(Files.isDirectory(sample), "no sample " + sample + " in this checkout: nothing checked");
    }

    @Test
    void evidenceEvents_decodedWithTheQpState() {
        // hostB#38: the RTR->RTS modify with the sq_psn it sends from; hostB#51: the error completion
        MainTest.Run run = MainTest.run("show", sample.toString(), "hostB#38", "hostB#51");
        assertThat(run.code()).as(run.err()).isEqualTo(ExitCode.OK);
        assertThat(run.out()).contains("hostB#38 CALL ibv_modify_qp {").contains("in_sq_psn")
                .contains("= 0xbed0c3  (12505283)").contains("IBV_QPS_RTS").contains("qp_state")
                .contains("hostB#51 COMPLETION").contains("IBV_WC_RETRY_EXC_ERR").contains("0x4000000000000000")
                .containsPattern("qp_state +=  ?RTS");
    }

    @Test
    void range_json_matchesTheTextAndNamesEveryEvent() throws Exception {
        MainTest.Run run = MainTest.run("show", sample.toString(), "hostA#30-34", "--json");
        assertThat(run.code()).as(run.err()).isEqualTo(ExitCode.OK);
        String json = run.out().strip().replace("'", "''");
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:"); Statement s = db.createStatement();
                ResultSet rs = s.executeQuery("SELECT json_array_length(json_extract('" + json + "', '$.events')), "
                        + "json_extract_string('" + json + "', '$.events[4].seq'), "
                        + "json_extract_string('" + json + "', '$.events[0].host')")) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(5);
            assertThat(rs.getString(2)).isEqualTo("34");
            assertThat(rs.getString(3)).isEqualTo("hostA");
        }
    }

    @Test
    void unknownEventOrHost_exitOne_badSyntax_exitTwo() {
        MainTest.Run missing = MainTest.run("show", sample.toString(), "hostB#99999", "hostZ#1");
        assertThat(missing.code()).isEqualTo(ExitCode.FAILURE);
        assertThat(missing.err()).contains("hostB#99999: no such event (hostB has events 0..")
                .contains("no host 'hostZ'").contains("hosts: hostA, hostB");
        MainTest.Run bad = MainTest.run("show", sample.toString(), "hostB-47");
        assertThat(bad.code()).isEqualTo(ExitCode.USAGE);
        assertThat(bad.err()).contains("is not an event id");
    }
}
