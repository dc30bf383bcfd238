package io.rdmatrace.analyzer.rules;

import static io.rdmatrace.analyzer.SqlRows.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rdmatrace.analyzer.AnalysisDatabase;
import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.Analyzer;
import io.rdmatrace.analyzer.Severity;
import io.rdmatrace.analyzer.fixture.Analysis;
import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.analyzer.report.ReportFormat;
import io.rdmatrace.analyzer.report.ReportOptions;
import io.rdmatrace.analyzer.rule.RuleCatalog;
import io.rdmatrace.trace.synth.RecordedProgramTrace;
import io.rdmatrace.trace.synth.RecordedProgramTrace.Connection;
import io.rdmatrace.trace.synth.RecordedProgramTrace.Fault;
import io.rdmatrace.trace.synth.RecordedProgramTrace.Spec;

/**
 * Recorded programs (no out-of-band channel of ours, no step marks): connections paired from the
 * QPs' own settings, the clock from the traffic, and every fault on the host that made it.
 */
class RecordedProgramTest {

    /** 1.2 ms: the skew injected into the client host's wall clock. */
    private static final long SKEW_NS = 1_200_000;

    @Test
    void cleanPair_pairedWithoutFindings_clockWithinItsBound(@TempDir Path out) throws Exception {
        RecordedProgramTrace.write(Spec.pair(out, 40, SKEW_NS));
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            AnalysisResult result = analyze(db, out);
            assertThat(result.ruleProblems()).isEmpty();
            assertThat(result.findings()).filteredOn(f -> f.severity() != Severity.INFO)
                    .as("findings of a clean recorded pair").isEmpty();
            assertThat(query(db, "SELECT host_a, qp_a, host_b, qp_b, matched_by FROM connection_pairs"))
                    .containsExactly("hostA|17|hostB|17|dest_qp_num");
            assertThat(query(db, "SELECT host, origin FROM hosts ORDER BY host")).containsExactly("hostA|RECORD", "hostB|RECORD");
            List<String> clock = query(db, "SELECT reference_host, offset_ns, uncertainty_ns, samples, dropped, method "
                    + "FROM host_clock_offset WHERE host = 'hostB'");
            assertThat(clock).hasSize(1);
            String[] c = clock.get(0).split("\\|");
            long offset = Long.parseLong(c[1]);
            long uncertainty = Long.parseLong(c[2]);
            assertThat(c[0]).isEqualTo("hostA");
            assertThat(c[5]).isEqualTo("causality");
            assertThat(Math.abs(offset - SKEW_NS)).as("estimate %d ± %d vs injected %d", offset, uncertainty, SKEW_NS)
                    .isLessThanOrEqualTo(uncertainty);
            assertThat(uncertainty).as("a one-way hop is 20 µs: the bound is that tight").isLessThan(50_000);
            // 40 rounds x 2 directions of send->recv, plus the ACK samples of both directions
            assertThat(Long.parseLong(c[3])).isEqualTo(160);
            assertThat(Long.parseLong(c[4])).isZero();
            assertThat(result.clocks()).hasSize(1);
            assertThat(result.clocks().get(0).describe()).startsWith("hostB − hostA = +1.2").contains("from 160 send/recv samples");
            // the receive chains reached the work-request views
            assertThat(query(db, "SELECT count(*) FROM work_requests WHERE queue = 'recv' AND wr_index = 1"))
                    .containsExactly("2");
        }
    }

    @Test
    void fourHostsWithRepeatedQpns_pairedByTheirAddresses_clocksChained(@TempDir Path out) throws Exception {
        Spec spec = new Spec(out, List.of("hostA", "hostB", "hostC", "hostD.4242"),
                List.of(new Connection("hostA", "hostB"), new Connection("hostC", "hostD.4242"),
                        new Connection("hostA", "hostC"), new Connection("hostB", "hostD.4242")),
                5, Map.of("hostB", 300_000L, "hostC", -2_000_000L, "hostD.4242", 7_000_000L), Fault.NONE);
        RecordedProgramTrace.write(spec);
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            AnalysisResult result = analyze(db, out);
            assertThat(result.findings()).filteredOn(f -> f.severity() != Severity.INFO).isEmpty();
            // every host has QPs 0x11 and 0x12: only the GIDs in the address vectors tell the pairs apart
            assertThat(query(db, "SELECT host_a, qp_a, host_b, qp_b FROM connection_pairs ORDER BY ALL")).containsExactly(
                    "hostA|17|hostB|17", "hostA|18|hostC|18", "hostB|18|hostD.4242|18", "hostC|17|hostD.4242|17");
            for (String row : query(db, "SELECT host, reference_host, offset_ns, uncertainty_ns FROM host_clock_offset")) {
                String[] c = row.split("\\|");
                long truth = Map.of("hostA", 0L, "hostB", 300_000L, "hostC", -2_000_000L, "hostD.4242", 7_000_000L).get(c[0]);
                assertThat(c[1]).isEqualTo("hostA");
                assertThat(Math.abs(Long.parseLong(c[2]) - truth)).as(row).isLessThanOrEqualTo(Long.parseLong(c[3]));
            }
        }
    }

    @Test
    void secondProcessOfAHost_readsItsClock_unknownPairsAreNotOrdered(@TempDir Path out) throws Exception {
        RecordedProgramTrace.write(new Spec(out.resolve("same"), List.of("hostA", "hostA.77"),
                List.of(new Connection("hostA.77", "hostA")), 2, Map.of(), Fault.NONE));
        RecordedProgramTrace.write(Spec.pair(out.resolve("silent"), 1, SKEW_NS).withFault(Fault.DEST_QPN));
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            analyze(db, out.resolve("same"));
            assertThat(query(db, "SELECT host, reference_host, offset_ns, uncertainty_ns, method FROM host_clock_offset ORDER BY host"))
                    .containsExactly("hostA|hostA|0|0|reference", "hostA.77|hostA|0|0|same-host");
        }
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            analyze(db, out.resolve("silent"));
            assertThat(query(db, "SELECT host, offset_ns, uncertainty_ns, method FROM host_clock_offset ORDER BY host"))
                    .containsExactly("hostA|0|3600000000000|none", "hostB|0|3600000000000|none");
        }
    }

    /** Four hosts, one QP (the first connection's faulty end, on hostA) at 4096: grouped by value, the outlier named. */
    @Test
    void fourHosts_onePathMtuApart_groupedByValue(@TempDir Path out) throws Exception {
        Spec spec = new Spec(out, List.of("hostA", "hostB", "hostC", "hostD"),
                List.of(new Connection("hostA", "hostB"), new Connection("hostC", "hostD"),
                        new Connection("hostA", "hostC"), new Connection("hostB", "hostD")),
                2, Map.of(), Fault.MTU_MISMATCH);
        RecordedProgramTrace.write(spec);
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            AnalysisResult result = analyze(db, out);
            assertThat(Analysis.rows(result, "setting-differs")).singleElement().asString()
                    .startsWith("null|-|[hostA#")
                    .endsWith("|path_mtu 1024 on 4 host(s), 4096 on hostA; the hosts of this job do not agree on path_mtu");
        }
        // two hosts: the pair rules say it, not this one
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            RecordedProgramTrace.write(Spec.pair(out.resolve("pair"), 2, 0).withFault(Fault.MTU_MISMATCH));
            assertThat(Analysis.rows(analyze(db, out.resolve("pair")), "setting-differs")).isEmpty();
        }
    }

    @Test
    void pathMtuMismatch_onThe4096Side(@TempDir Path out) throws Exception {
        assertThat(faultFindings(out, Fault.MTU_MISMATCH)).contains("path-mtu-mismatch hostB 0x000011")
                .noneMatch(f -> f.startsWith("path-mtu-mismatch hostA"));
    }

    @Test
    void wrongGidIndex_onThatSide(@TempDir Path out) throws Exception {
        assertThat(faultFindings(out, Fault.GID_INDEX)).contains("gid-index hostB 0x000011")
                .noneMatch(f -> f.startsWith("gid-index hostA"));
    }

    @Test
    void psnMismatch_onTheSenderThatStartsElsewhere(@TempDir Path out) throws Exception {
        assertThat(faultFindings(out, Fault.PSN_MISMATCH)).contains("psn-misaligned hostB 0x000011")
                .noneMatch(f -> f.startsWith("psn-misaligned hostA"));
    }

    @Test
    void destQpnMismatch_pairedFromOneSide_onTheWrongSide(@TempDir Path out) throws Exception {
        List<String> findings = faultFindings(out, Fault.DEST_QPN);
        assertThat(findings).contains("dest-qpn-mismatch hostB 0x000011")
                .noneMatch(f -> f.startsWith("dest-qpn-mismatch hostA") || f.startsWith("host-missing"));
    }

    @Test
    void peerTraceNotLoaded_isNamed(@TempDir Path out) throws Exception {
        RecordedProgramTrace.write(Spec.pair(out, 2, 0));
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            LoadReport load = db.load(List.of(out.resolve("hostB")));
            db.finishLoading();
            AnalysisResult result = Analyzer.analyze(db, load, RuleCatalog.builtin());
            assertThat(Analysis.rows(result, "host-missing")).containsExactly(
                    "hostB|0x000011|[hostB#12]|hostB QP 0x000011 is connected to QPN 0x000011 at GID ::ffff:10.0.0.1, "
                            + "an address no loaded trace has: the peer's trace was not loaded (or the peer was not recorded)");
        }
    }

    /** hostB (the client) makes the mistake; findings as "rule host qp". */
    private static List<String> faultFindings(Path out, Fault fault) throws Exception {
        RecordedProgramTrace.write(Spec.pair(out, 3, SKEW_NS).withFault(fault));
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            AnalysisResult result = analyze(db, out);
            assertThat(result.ruleProblems()).isEmpty();
            assertThat(result.connections()).as("the connection is paired").hasSize(1);
            return Analysis.summary(result);
        }
    }

    private static String report(AnalysisResult result, ReportFormat format) {
        StringWriter text = new StringWriter();
        try (PrintWriter out = new PrintWriter(text)) {
            format.writer().write(result, ReportOptions.DEFAULT, out);
        }
        return text.toString().replace("\r\n", "\n");
    }

    private static AnalysisResult analyze(AnalysisDatabase db, Path out) throws Exception {
        LoadReport load = db.load(List.of(out));
        db.finishLoading();
        return Analyzer.analyze(db, load, RuleCatalog.builtin());
    }

}
