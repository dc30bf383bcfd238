package io.rdmatrace.analyzer.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.Test;

import io.rdmatrace.analyzer.SqlRows;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CompletionEvent;
import io.rdmatrace.trace.model.EndEvent;
import io.rdmatrace.trace.model.EventHeader;
import io.rdmatrace.trace.model.FormatVersion;
import io.rdmatrace.trace.model.SessionEvent;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.model.Wc;

/** In memory, the data-path rows go to a few compressed databases (lanes), each checkpointed in parts. */
class DatapathStoreTest {
    private static final int CHECKPOINT_ROWS = 4 * 1024;

    @Test
    void compressed_partsAcrossCheckpoints_allRowsInTheViewAndCompressed() throws Exception {
        try (DuckDBConnection c = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:");
                BufferAllocator allocator = new RootAllocator()) {
            Schema.createBaseTables(c);
            TraceLoader loader = new TraceLoader(c, allocator, DatapathStore.compressed(c, CHECKPOINT_ROWS, 3));
            // 2.5 parts (lane 0), exactly 3 parts (lane 1), a bring-up's few rows (lane 2: no last checkpoint),
            // and a fourth host in lane 0 again
            loader.loadEvents("a", completions(CHECKPOINT_ROWS * 5 / 2, 7));
            loader.loadEvents("b", completions(CHECKPOINT_ROWS * 3, 9));
            loader.loadEvents("c", completions(10, 11));
            loader.loadEvents("d'x", completions(3, 12));
            assertThat(rows(c, "SELECT host, count(*), sum(wr_id), min(seq), max(seq), count(DISTINCT seq), any_value(qp_num) "
                    + "FROM _datapath GROUP BY host ORDER BY host")).containsExactly(
                    "a|10240|52433920|1|10240|10240|7",
                    "b|12288|75503616|1|12288|12288|9",
                    "c|10|55|1|10|10|11",
                    "d'x|3|6|1|3|3|12");
            assertThat(rows(c, "SELECT count(*) FROM _datapath WHERE host = 'b'")).containsExactly("12288");
            assertThat(rows(c, "SELECT host, count(*) FROM _datapath_0.main._datapath GROUP BY host ORDER BY host"))
                    .containsExactly("a|10240", "d'x|3");
            // three lanes, no more
            assertThat(rows(c, "SELECT database_name FROM duckdb_databases() WHERE database_name LIKE '\\_datapath%' "
                    + "ESCAPE '\\' ORDER BY database_name")).containsExactly("_datapath_0", "_datapath_1", "_datapath_2");
            // every lane's table stores the host column (and the view has it)
            assertThat(rows(c, "SELECT database_name, count(*) FROM duckdb_columns() WHERE table_name = '_datapath' "
                    + "AND column_name = 'host' GROUP BY ALL ORDER BY ALL"))
                    .containsExactly("_datapath_0|1", "_datapath_1|1", "_datapath_2|1", "memory|1");
            // the view has the base table's columns, in order, with their types
            try (DuckDBConnection plain = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:")) {
                Schema.createBaseTables(plain);
                String describe = "SELECT column_name, column_type FROM (DESCRIBE _datapath)";
                assertThat(rows(c, describe)).hasSize(BaseTables.DATAPATH.columns().size() + 1)
                        .containsExactlyElementsOf(rows(plain, describe));
            }
            // checkpointed parts are stored compressed; the bring-up's rows were never checkpointed
            assertThat(rows(c, "SELECT count(*) > 0 FROM pragma_storage_info('_datapath_1.main._datapath') "
                    + "WHERE segment_type = 'BIGINT' AND compression <> 'Uncompressed'")).containsExactly("true");
            assertThat(rows(c, "SELECT count(*) FROM pragma_storage_info('_datapath_2.main._datapath') "
                    + "WHERE persistent")).containsExactly("0");
        }
    }

    @Test
    void forHosts_aJobsThousandHosts_spreadOverTheLanesOnly() throws Exception {
        try (DuckDBConnection c = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:")) {
            Schema.createBaseTables(c);
            DatapathStore store = DatapathStore.compressed(c, CHECKPOINT_ROWS, 2);
            List<String> hosts = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                hosts.add("n" + i / 8 + "." + i);
            }
            List<DatapathStore.Lane> lanes = store.forHosts(hosts);
            assertThat(lanes).hasSize(1000);
            assertThat(lanes.subList(0, 3)).extracting(DatapathStore.Lane::catalog)
                    .containsExactly("_datapath_0", "_datapath_1", "_datapath_0");
            assertThat(lanes.stream().map(DatapathStore.Lane::catalog).distinct()).hasSize(2);
            try (var st = c.createStatement()) {
                st.execute("INSERT INTO _datapath_1.main._datapath (host, seq) VALUES ('n0.1', 5)");
                st.execute("INSERT INTO _datapath_0.main._datapath (host, seq) VALUES ('n124.999', 6)");
            }
            assertThat(rows(c, "SELECT host, seq FROM _datapath ORDER BY seq")).containsExactly("n0.1|5", "n124.999|6");
            assertThat(rows(c, "SELECT count(*) FROM duckdb_databases() WHERE database_name LIKE '\\_datapath%' "
                    + "ESCAPE '\\'")).containsExactly("2");
        }
    }

    @Test
    void plain_rowsInTheDatabasesOwnTable() throws Exception {
        try (DuckDBConnection c = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:");
                BufferAllocator allocator = new RootAllocator()) {
            Schema.createBaseTables(c);
            new TraceLoader(c, allocator).loadEvents("a", completions(CHECKPOINT_ROWS * 2, 7));
            assertThat(rows(c, "SELECT table_type, count(*) FROM information_schema.tables t JOIN _datapath d ON true "
                    + "WHERE t.table_name = '_datapath' GROUP BY ALL")).containsExactly("BASE TABLE|8192");
        }
    }

    @Test
    void insertTable_bundleRowsGoToTheFirstDatabase() throws Exception {
        try (DuckDBConnection c = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:")) {
            Schema.createBaseTables(c);
            assertThat(DatapathStore.compressed(c).insertTable("_datapath")).isEqualTo("_datapath_0.main._datapath");
            assertThat(DatapathStore.plain().insertTable("_datapath")).isEqualTo("_datapath");
            assertThat(DatapathStore.plain().insertTable("_call")).isEqualTo("_call");
        }
    }

    /** A SESSION, {@code n} completions (wr_id = seq), an END. */
    private static List<TraceEvent> completions(int n, int qpNum) {
        SessionInfo info = new SessionInfo("t", "h", "", "", SessionInfo.PROGRAM_SCENARIO, Map.of(), Attrs.EMPTY,
                List.of(), List.of());
        List<TraceEvent> events = new ArrayList<>();
        events.add(new SessionEvent(h(0), FormatVersion.CURRENT, info));
        for (int i = 1; i <= n; i++) {
            events.add(new CompletionEvent(h(i), 0xC0, new Wc(i, 0, 0, 0, 64, 0, qpNum, 0, 0, 0, 0, 0, 0)));
        }
        events.add(new EndEvent(h(n + 1), n + 2));
        return events;
    }

    private static EventHeader h(long seq) {
        return new EventHeader(seq, seq * 1000, 1_700_000_000_000_000_000L + seq * 1000, 1, 1, "main");
    }

    private static List<String> rows(DuckDBConnection c, String sql) throws Exception {
        return SqlRows.query(c, sql);
    }
}
