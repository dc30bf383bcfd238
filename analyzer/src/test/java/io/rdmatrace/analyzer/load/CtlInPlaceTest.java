package io.rdmatrace.analyzer.load;

import static io.rdmatrace.analyzer.SqlRows.query;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.rdmatrace.analyzer.AnalysisDatabase;

/**
 * _ctl is the loaded _call table given its computed columns in place and renamed (40_calls.sql):
 * it must hold the same rows, values and column types as the copy it replaced, _call must stay
 * what the loader stored (users' rules read it) and calls must keep its column order.
 */
class CtlInPlaceTest {
    /** The definition _ctl had as a copy of _call, run on the _call view. */
    private static final String COPIED = """
            SELECT c.host, c.seq, c.mono_ns, c.wall_ns, c.wall_ns - coalesce(k.offset_ns, 0) AS ts_ns, c.thread_id,
                   v.name AS verb, c.handle, c.ret, c.errno, errno_name(c.errno) AS errno_name,
                   _call_ok(v.name, c.ret) AS ok, c.duration_ns,
                   coalesce(c.in_qp_num, CASE WHEN v.name = 'ibv_create_qp' THEN c.out_qp_num END, q.qp_num) AS qp_num,
                   COLUMNS('^(in|out)_')
            FROM _call c
            JOIN _verb v ON v.code = c.verb
            LEFT JOIN host_clock_offset k ON k.host = c.host
            LEFT JOIN _qp_handle q ON q.host = c.host AND q.handle = c.handle AND c.seq >= q.create_seq
                AND c.seq < q.until_seq""";
    /** _ctl's columns in the copy's order. */
    private static final String CTL = "SELECT host, seq, mono_ns, wall_ns, ts_ns, thread_id, verb, handle, ret, errno, "
            + "errno_name, ok, duration_ns, qp_num, COLUMNS('^(in|out)_') FROM _ctl";

    private static List<Path> samples() throws Exception {
        String root = System.getProperty("rdmatrace.repo.root");
        Path dir = (root != null ? Path.of(root) : Path.of("..").toAbsolutePath().normalize()).resolve("sample-traces");
        List<Path> samples = new ArrayList<>();
        try (Stream<Path> list = Files.list(dir)) {
            list.filter(Files::isDirectory).sorted().forEach(samples::add);
        }
        return samples;
    }

    private static List<String> describe(Connection c, String relation) throws Exception {
        return query(c, "SELECT column_name, column_type FROM (DESCRIBE " + relation + ")");
    }

    @Test
    void ctl_onEverySample_sameRowsValuesAndTypesAsTheCopy_callAsLoaded_callsInItsOrder() throws Exception {
        List<String> loaded;
        try (Connection fresh = DriverManager.getConnection("jdbc:duckdb:")) {
            Schema.createBaseTables(fresh);
            loaded = describe(fresh, "_call");
        }
        List<Path> samples = samples();
        assertThat(samples).isNotEmpty();
        for (Path sample : samples) {
            try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
                db.load(List.of(sample));
                db.finishLoading();
                Connection c = db.connection();
                assertThat(describe(c, "(" + CTL + ")")).as(sample + ": _ctl's types")
                        .isEqualTo(describe(c, "(" + COPIED + ")"));
                assertThat(query(c, "SELECT count(*) FROM ((" + CTL + ") EXCEPT ALL (" + COPIED + ")) UNION ALL "
                        + "SELECT count(*) FROM ((" + COPIED + ") EXCEPT ALL (" + CTL + ")) UNION ALL "
                        + "SELECT (count(*) > 0)::BIGINT FROM _ctl WHERE ts_ns IS NOT NULL AND verb IS NOT NULL"))
                        .as(sample + ": rows only in one of _ctl and the copy").containsExactly("0", "0", "1");
                assertThat(describe(c, "_call")).as(sample + ": _call's columns").isEqualTo(loaded);
                assertThat(describe(c, "calls")).as(sample + ": calls' columns").isEqualTo(describe(c,
                        "(SELECT * FROM (" + COPIED + ") UNION ALL BY NAME SELECT * FROM _dp_calls)"));
            }
        }
    }
}
