package io.rdmatrace.analyzer.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rdmatrace.analyzer.AnalysisDatabase;
import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.Analyzer;
import io.rdmatrace.analyzer.Evidence;
import io.rdmatrace.analyzer.Finding;
import io.rdmatrace.analyzer.Role;
import io.rdmatrace.analyzer.Severity;
import io.rdmatrace.analyzer.load.HostLoad;
import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.analyzer.rule.Rule;
import io.rdmatrace.analyzer.rule.RuleCatalog;
import io.rdmatrace.analyzer.rule.RuleOutcome;
import io.rdmatrace.trace.synth.RecordedProgramTrace;
import io.rdmatrace.trace.synth.RecordedProgramTrace.Connection;
import io.rdmatrace.trace.synth.RecordedProgramTrace.Fault;
import io.rdmatrace.trace.synth.RecordedProgramTrace.Spec;

/** A job's report tells its hosts, connections and alike findings by group, not one line each. */
class JobSummaryTest {

    @Test
    void hostLines_twoHostsOfSixteenDeviate_oneLineForTheOkOnesOneForTheDeviatingPair() {
        List<HostLoad> hosts = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            String host = String.format(Locale.ROOT, "node%02d", i);
            hosts.add(new HostLoad("/t/" + host, host, "CLEAN", "", 100, 0));
        }
        Rule mtu = rule("path-mtu-mismatch", Severity.ERROR);
        List<Finding> findings = List.of(
                mtuFinding("node07", 0x11, "node08", 0x12),
                mtuFinding("node12", 0x2a, "node03", 0x11));
        AnalysisResult result = new AnalysisResult(new LoadReport(hosts, List.of(), 0), List.of(),
                List.of(new RuleOutcome(mtu, findings, null, 0)), List.of(), 0);
        assertThat(JobSummary.applies(result)).isTrue();
        assertThat(JobSummary.hostLines(result)).containsExactly(
                "14 hosts: ok",
                "node07, node12: FAILED: path-mtu-mismatch (uses path MTU 4096 but its peer uses 1024: "
                        + "messages longer than 1024 bytes are dropped by the peer)");
        // the two findings are one entry of the report, with both places
        String report = text(result);
        assertThat(report).contains("ERROR path-mtu-mismatch: t (2 alike)\n"
                + "  - on 2 host(s): node07, node12; the first: node07 QP 0x000011: node07 QP 0x000011 uses path MTU 4096 "
                + "but its peer node08 QP 0x000012 uses 1024: messages longer than 1024 bytes are dropped by the peer\n");
        assertThat(report).doesNotContain("  - node12 QP");
    }

    @Test
    void hostLines_aTwoHostCapture_notAJob() {
        List<HostLoad> hosts = List.of(new HostLoad("/t/a", "a", "CLEAN", "", 1, 0), new HostLoad("/t/b", "b", "CLEAN", "", 1, 0));
        AnalysisResult result = new AnalysisResult(new LoadReport(hosts, List.of(), 0), List.of(), List.of(), List.of(), 0);
        assertThat(JobSummary.applies(result)).isFalse();
        assertThat(text(result)).contains("Hosts\n  a ").doesNotContain("grouped");
    }

    @Test
    void anonymous_hostNamesAndQpNumbersLeftOut() {
        assertThat(JobSummary.anonymous("b's ibv_modify_qp on b QP 0x000011, then a QP 0xabc: fails",
                java.util.Set.of("a", "b"))).isEqualTo("ibv_modify_qp on then fails");
    }

    /** A generated recorded job, 16 processes on 8 machines, the first client's path MTU wrong. */
    @Test
    void recordedJob_oneClientsPathMtuWrong_reportGroupsHostsAndConnections(@TempDir Path out) throws Exception {
        List<String> hosts = new ArrayList<>();
        Map<String, Long> skew = new LinkedHashMap<>();
        for (int i = 0; i < 16; i++) {
            String host = String.format(Locale.ROOT, "node%03d.%d", i / 2, 4000 + i);
            hosts.add(host);
            skew.put(host, (i / 2 % 3 - 1) * 1_000_000L);
        }
        List<Connection> links = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            links.add(new Connection(hosts.get(i), hosts.get((i + 2) % 16)));
        }
        RecordedProgramTrace.write(new Spec(out, hosts, links, 3, skew, Fault.MTU_MISMATCH));
        AnalysisResult result;
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            LoadReport load = db.load(List.of(out));
            db.finishLoading();
            result = Analyzer.analyze(db, load, RuleCatalog.builtin());
        }
        assertThat(result.ruleProblems()).isEmpty();
        assertThat(result.connections()).hasSize(16);
        String report = text(result);
        List<String> lines = List.of(report.split("\n"));
        int hostsAt = lines.indexOf("Hosts (16, grouped)");
        assertThat(hostsAt).as(report).isPositive();
        assertThat(lines.subList(hostsAt + 1, hostsAt + 3)).containsExactly(
                "  15 hosts: ok",
                "  node000.4000: FAILED: completion-error (IBV_WC_RETRY_EXC_ERR (transport retry counter exceeded) on wr_id 0x3e8 "
                        + "after 7 retries (retry_cnt), vendor_err 0x81), path-mtu-mismatch "
                        + "(uses path MTU 4096 but its peer uses 1024: messages longer than 1024 bytes are dropped by the peer)");
        int connectionsAt = lines.indexOf("Connections (16, grouped)");
        assertThat(connectionsAt).as(report).isPositive();
        assertThat(lines.get(connectionsAt + 1)).startsWith("  ");
        assertThat(report).doesNotContain("       node000.4000: RESET");
    }

    private static Finding mtuFinding(String host, long qp, String peer, long peerQp) {
        return new Finding("path-mtu-mismatch", Severity.ERROR, host, qp, List.of(new Evidence(host, 40), new Evidence(peer, 41)),
                host + " QP " + Lookup.qpHex(qp) + " uses path MTU 4096 but its peer " + peer + " QP " + Lookup.qpHex(peerQp)
                        + " uses 1024: messages longer than 1024 bytes are dropped by the peer", Role.CAUSE, false);
    }

    private static Rule rule(String id, Severity severity) {
        return new Rule(id, severity, Role.CAUSE, "t", "e", "f", "SELECT 1", "", "builtin");
    }

    private static String text(AnalysisResult result) {
        StringWriter text = new StringWriter();
        try (PrintWriter out = new PrintWriter(text)) {
            ReportFormat.TEXT.writer().write(result, ReportOptions.DEFAULT, out);
        }
        return text.toString().replace("\r\n", "\n");
    }
}
