package io.rdmatrace.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rdmatrace.analyzer.load.HostLoad;
import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.analyzer.rule.RuleSet;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.store.TraceSet;
import io.rdmatrace.trace.synth.SyntheticTrace;

/** Loads the trace module's synthetic two-host trace and checks the relations against the reader. */
class SyntheticLoadTest {

    @Test
    void load_syntheticPair_everyEventArrivesOnce(@TempDir Path dir) throws Exception {
        TraceSet set = SyntheticTrace.write(SyntheticTrace.Spec.of(dir, 2, 60));
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            LoadReport report = db.load(List.of(dir));
            db.finishLoading();
            assertThat(report.hosts()).extracting(HostLoad::host).containsExactly("host-a", "host-b");
            assertThat(report.hosts()).extracting(HostLoad::status).containsOnly("CLEAN");
            for (Path host : set.hosts()) {
                TraceReader.Result expected = TraceReader.readAll(host);
                String id = expected.session().hostId();
                assertThat(query(db, "SELECT count(*) FROM events WHERE host = '" + id + "'"))
                        .containsExactly(String.valueOf(expected.events().size()));
                assertThat(query(db, "SELECT max(seq) FROM events WHERE host = '" + id + "'"))
                        .containsExactly(String.valueOf(expected.events().size() - 1));
                long calls = expected.events().stream().filter(e -> e instanceof io.rdmatrace.trace.model.CallEvent).count();
                assertThat(query(db, "SELECT count(*) FROM calls WHERE host = '" + id + "'"))
                        .containsExactly(String.valueOf(calls));
            }
            assertThat(query(db, "SELECT host_a || ':' || qp_a || '-' || host_b || ':' || qp_b || ' ' || matched_by "
                    + "FROM connection_pairs ORDER BY pair_id"))
                    .containsExactly("host-a:17-host-b:1048593 dest_qp_num+oob", "host-a:18-host-b:1048594 dest_qp_num+oob");
            assertThat(query(db, "SELECT host || ' ' || method FROM host_clock_offset ORDER BY host"))
                    .containsExactly("host-a reference", "host-b oob-ntp");
            assertThat(query(db, "SELECT from_state_name || '>' || to_state_name || '>' || state_after_name || ' ' || ok "
                    + "FROM qp_state_timeline WHERE host = 'host-a' AND qp_num = 17 ORDER BY seq"))
                    .containsExactly("RESET>RTS>RESET false", "RESET>INIT>INIT true", "INIT>RTR>RTR true", "RTR>RTS>RTS true");

            AnalysisResult result = Analyzer.analyze(db, report, new RuleSet(List.of(), List.of()));
            assertThat(result.connections()).hasSize(2);
            assertThat(result.connections().get(0).statesA()).containsExactly("RESET", "INIT", "RTR", "RTS");
        }
    }

    @Test
    void finishLoading_smallTrace_viewsAndRulesRunWithoutDuckdbWorkers(@TempDir Path dir) throws Exception {
        SyntheticTrace.write(SyntheticTrace.Spec.of(dir, 1, 10));
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            long events = db.load(List.of(dir)).events();
            assertThat(events).isPositive().isLessThanOrEqualTo(AnalysisDatabase.SMALL_EVENTS);
            db.finishLoading();
            assertThat(query(db, "SELECT current_setting('threads')")).containsExactly("1");
        }
    }

    @Test
    void viewWorkers_oneConnectionPerCore_forTracesOfAnySize() {
        // a large trace's views used to run on one connection, leaving a core idle through the small statements
        assertThat(AnalysisDatabase.viewWorkers(2)).isEqualTo(2);
        assertThat(AnalysisDatabase.viewWorkers(1)).isEqualTo(1);
        assertThat(AnalysisDatabase.viewWorkers(64)).isEqualTo(4);
    }

    static List<String> query(AnalysisDatabase db, String sql) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Statement statement = db.connection().createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
        }
        return rows;
    }
}
