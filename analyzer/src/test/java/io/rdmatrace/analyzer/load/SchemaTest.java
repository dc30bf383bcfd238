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
