package io.rdmatrace.analyzer.show;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rdmatrace.analyzer.Analysis;
import io.rdmatrace.analyzer.rule.RuleCatalog;
import io.rdmatrace.trace.synth.SyntheticTrace;

/** `show` computes only the relations it reads: they hold what a whole analysis computes, and fewer views exist. */
class PartialViewsTest {
    @TempDir
    Path dir;

    @Test
    void connectionFor_theRelationsShowReads_sameRowsAsAfterEveryView_andNoRulesAfter() throws Exception {
        Path trace = dir.resolve("trace");
        SyntheticTrace.write(new SyntheticTrace.Spec(trace, "host-a", "host-b", 2, 24, 7, SyntheticTrace.Fault.PSN_OFF_BY_ONE));
        Map<String, List<String>> whole;
        int allRelations;
        try (Analysis analysis = Analysis.open(List.of(trace))) {
            whole = rows(analysis.connection());
            allRelations = relations(analysis.connection());
        }
        try (Analysis analysis = Analysis.open(List.of(trace))) {
            Connection partial = analysis.connectionFor(EventQuery.RELATIONS);
            assertThat(rows(partial)).isEqualTo(whole);
            assertThat(relations(partial)).isLessThan(allRelations * 3 / 4);
            assertThatThrownBy(() -> analysis.analyze(RuleCatalog.load(List.of())))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("connectionFor");
        }
        assertThat(whole.get("qp_state_timeline")).hasSizeGreaterThan(4);
        assertThat(whole.get("completions")).isNotEmpty();
    }

    /** Every row of every relation show reads, as text, sorted. */
    private static Map<String, List<String>> rows(Connection connection) throws Exception {
        Map<String, List<String>> rows = new TreeMap<>();
        for (String relation : EventQuery.RELATIONS) {
            List<String> lines = new ArrayList<>();
            try (Statement s = connection.createStatement();
                    ResultSet rs = s.executeQuery("SELECT * FROM " + relation + " ORDER BY ALL")) {
                ResultSetMetaData meta = rs.getMetaData();
                while (rs.next()) {
                    StringBuilder line = new StringBuilder();
                    for (int i = 1; i <= meta.getColumnCount(); i++) {
                        line.append(meta.getColumnName(i)).append('=').append(rs.getString(i)).append(' ');
                    }
                    lines.add(line.toString());
                }
            }
            rows.put(relation, lines);
        }
        return rows;
    }

    /** Tables and views the analysis made (not DuckDB's own). */
    private static int relations(Connection connection) throws Exception {
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT (SELECT count(*) FROM duckdb_tables() WHERE NOT internal)"
                        + " + (SELECT count(*) FROM duckdb_views() WHERE NOT internal)")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
