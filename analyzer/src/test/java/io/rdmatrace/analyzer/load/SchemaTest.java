package io.rdmatrace.analyzer.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class SchemaTest {
    /** Relations filled from the dictionaries, not from a trace. */
    private static final List<String> REFERENCE = List.of("attrs", "qp_transition", "qp_transition_mask");

    @Test
    void createEmpty_everyPublicRelationBindsAndIsEmpty() throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:")) {
            Schema.createEmpty(connection);
            List<String> relations = publicRelations(connection);
            assertThat(relations).contains("calls", "completions", "events", "objects", "qps", "qp_state_timeline",
                    "oob", "oob_messages", "connection_pairs", "qp_peers", "host_clock_offset", "hosts", "posts");
            for (String relation : relations) {
                if (REFERENCE.contains(relation)) {
                    continue;
                }
                try (Statement statement = connection.createStatement();
                        ResultSet rs = statement.executeQuery("SELECT * FROM " + relation)) {
                    assertThat(rs.next()).as(relation + " is empty on an empty database").isFalse();
                }
            }
        }
    }

    /**
     * qp_state_timeline's req_/got_ columns (from _modify and _query) come from the verbs ABI model (macro
     * _qp_attr_fields): these are the fields its SQL listed by hand before, so the generated list changed nothing.
     */
    @Test
    void qpStateTimeline_carriesEveryRecordedQpAttrFieldRequestedAndQueried() throws Exception {
        List<String> before = List.of("qp_state", "cur_qp_state", "path_mtu", "path_mig_state", "qkey", "rq_psn",
                "sq_psn", "dest_qp_num", "qp_access_flags", "pkey_index", "alt_pkey_index", "en_sqd_async_notify",
                "sq_draining", "max_rd_atomic", "max_dest_rd_atomic", "min_rnr_timer", "port_num", "timeout",
                "retry_cnt", "rnr_retry", "alt_port_num", "alt_timeout", "rate_limit", "dlid", "sl", "src_path_bits",
                "static_rate", "is_global", "ah_port_num", "dgid", "flow_label", "sgid_index", "hop_limit",
                "traffic_class", "max_send_wr", "max_recv_wr", "max_send_sge", "max_recv_sge", "max_inline_data");
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:")) {
            Schema.createEmpty(connection);
            List<String> req = new ArrayList<>();
            List<String> got = new ArrayList<>();
            try (Statement statement = connection.createStatement();
                    ResultSet rs = statement.executeQuery("SELECT column_name FROM duckdb_columns() "
                            + "WHERE table_name IN ('_modify', '_query') ORDER BY table_name, column_index")) {
                while (rs.next()) {
                    String c = rs.getString(1);
                    if (c.startsWith("req_")) {
                        req.add(c.substring(4));
                    } else if (c.startsWith("got_")) {
                        got.add(c.substring(4));
                    }
                }
            }
            assertThat(req).containsExactlyInAnyOrderElementsOf(before);
            assertThat(got).containsExactlyInAnyOrderElementsOf(before);
        }
    }

    static List<String> publicRelations(Connection connection) throws Exception {
        List<String> names = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(
                        "SELECT view_name FROM duckdb_views() WHERE NOT internal AND view_name NOT LIKE '\\_%' ESCAPE '\\' "
                                + "UNION SELECT table_name FROM duckdb_tables() WHERE table_name NOT LIKE '\\_%' ESCAPE '\\' "
                                + "ORDER BY 1")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }
}
