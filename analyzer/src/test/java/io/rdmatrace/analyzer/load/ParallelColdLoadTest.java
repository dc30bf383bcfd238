package io.rdmatrace.analyzer.load;

import static io.rdmatrace.analyzer.SqlRows.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rdmatrace.analyzer.AnalysisDatabase;
import io.rdmatrace.trace.store.TraceSet;
import io.rdmatrace.trace.synth.SyntheticTrace;

/**
 * Hosts loaded in parallel hand their other (cold) rows to one transaction on one connection: every
 * row of every host must arrive, the same as loading each host alone, with the hosts in folder order.
 */
class ParallelColdLoadTest {
    private static final String ROWS = "SELECT host, seq, verb, ret, in_qp_num, out_qp_num, in_qp_state FROM _call "
            + "UNION ALL SELECT host, seq, NULL, NULL, NULL, NULL, NULL FROM _oob "
            + "UNION ALL SELECT host, seq, NULL, NULL, NULL, NULL, NULL FROM _session "
            + "UNION ALL SELECT host, thread_id, NULL, NULL, NULL, NULL, NULL FROM _thread ORDER BY ALL";

    @TempDir
    Path dir;

    @Test
    void twoHostsInParallel_sameColdRowsAsEachAlone_hostsInFolderOrder() throws Exception {
        Path trace = dir.resolve("trace");
        TraceSet set = SyntheticTrace.write(SyntheticTrace.Spec.of(trace, 40, 30));
        assertThat(set.hosts()).hasSize(2);

        List<String> alone = new ArrayList<>();
        for (Path host : set.hosts()) {
            try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
                db.load(List.of(host));
                alone.addAll(query(db, ROWS));
            }
        }
        alone.sort(null);
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            LoadReport load = db.load(List.of(trace));
            assertThat(load.hosts()).extracting(HostLoad::status).containsExactly("CLEAN", "CLEAN");
            List<String> together = new ArrayList<>(query(db, ROWS));
            together.sort(null);
            assertThat(together).hasSizeGreaterThan(40 * 2 * 4).isEqualTo(alone);
            List<String> hostOrder = load.hosts().stream().map(HostLoad::host).toList();
            assertThat(query(db, "SELECT host FROM _host ORDER BY rowid")).isEqualTo(hostOrder);
            // each host's calls arrive whole, one host after the other
            assertThat(query(db, "SELECT host FROM _call GROUP BY host ORDER BY min(rowid)")).isEqualTo(hostOrder);
            assertThat(query(db, "SELECT count(*) FROM (SELECT host FROM _call GROUP BY host "
                    + "HAVING max(rowid) - min(rowid) + 1 <> count(*))")).containsExactly("0");
        }
    }
}
