package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.Finding;
import io.rdmatrace.analyzer.Role;
import io.rdmatrace.analyzer.Severity;
import io.rdmatrace.analyzer.load.HostLoad;
import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.analyzer.rule.Rule;
import io.rdmatrace.analyzer.rule.RuleOutcome;

/** What watch tells from round to round: host states when they change, each finding once. */
class WatchProgressTest {

    @Test
    void aFindingIsToldOnce_evenWhenItsMessageChanges_andAHostLineOnlyWhenItsStateChanges() {
        WatchProgress progress = new WatchProgress();
        HostLoad live = host("b", "RECORDING");
        assertThat(progress.update(result(List.of(live), stall("6 s")), false))
                .containsExactly("b: trace still recording", "ERROR stall on b QP 0x000011: waits 6 s");
        assertThat(progress.update(result(List.of(live), stall("7 s")), false)).isEmpty();
        assertThat(progress.update(result(List.of(host("b", "CLEAN")), stall("8 s")), true))
                .containsExactly("b: trace complete");
    }

    @Test
    void aFindingAboutAnUnreadableHost_waitsOneRound_unlessTheRoundIsTheLast() {
        Finding unreadable = new Finding("trace-unreadable", Severity.ERROR, "a", null, List.of(), "not a trace");
        WatchProgress progress = new WatchProgress();
        assertThat(progress.update(result(List.of(host("a", "NO_SESSION")), unreadable), false))
                .containsExactly("a: trace unreadable (NO_SESSION)");
        assertThat(progress.update(result(List.of(host("a", "NO_SESSION")), unreadable), false))
                .containsExactly("ERROR trace-unreadable on a: not a trace");

        WatchProgress once = new WatchProgress();
        assertThat(once.update(result(List.of(host("a", "NO_SESSION")), unreadable), true))
                .containsExactly("a: trace unreadable (NO_SESSION)", "ERROR trace-unreadable on a: not a trace");
        // gone by the next round (the trace had only been caught mid-write): never told
        WatchProgress transient_ = new WatchProgress();
        transient_.update(result(List.of(host("a", "NO_SESSION")), unreadable), false);
        assertThat(transient_.update(result(List.of(host("a", "RECORDING"))), false))
                .containsExactly("a: trace still recording");
    }

    @Test
    void findingsWithoutAQp_oneEachByMessage_andAnErrorThatWentAwayIsSaid() {
        WatchProgress progress = new WatchProgress();
        Finding missing = new Finding("host-missing", Severity.ERROR, "a", null, List.of(), "no trace of b");
        Finding leakPd = new Finding("resource-leak", Severity.WARNING, "a", null, List.of(), "a PD (handle 0x55aa10) leaked");
        Finding leakMr = new Finding("resource-leak", Severity.WARNING, "a", null, List.of(), "a MR (handle 0x55aa20) leaked");
        Finding live = new Finding("trace-recording", Severity.INFO, "a", null, List.of(), "7 events so far, the last a#6");
        assertThat(progress.update(result(List.of(host("a", "RECORDING")), missing, live), false))
                .containsExactly("a: trace still recording", "ERROR host-missing on a: no trace of b",
                        "INFO trace-recording on a: 7 events so far, the last a#6");
        Finding liveLater = new Finding("trace-recording", Severity.INFO, "a", null, List.of(), "90 events so far, the last a#89");
        assertThat(progress.update(result(List.of(host("a", "RECORDING"), host("b", "RECORDING")), liveLater), false))
                .containsExactly("b: trace still recording", "no longer found: host-missing on a");
        assertThat(progress.update(result(List.of(host("a", "CLEAN"), host("b", "CLEAN")), leakPd, leakMr), true))
                .containsExactly("a: trace complete", "b: trace complete", "WARNING resource-leak on a: a PD (handle 0x55aa10) leaked",
                        "WARNING resource-leak on a: a MR (handle 0x55aa20) leaked");
    }

    private static Finding stall(String waited) {
        return new Finding("stall", Severity.ERROR, "b", 0x11L, List.of(), "waits " + waited, Role.CONSEQUENCE, false);
    }

    private static HostLoad host(String name, String status) {
        return new HostLoad("/t/" + name, name, status, status.toLowerCase(), 10, 0);
    }

    private static AnalysisResult result(List<HostLoad> hosts, Finding... findings) {
        List<RuleOutcome> outcomes = java.util.Arrays.stream(findings).map(f -> new RuleOutcome(new Rule(f.ruleId(),
                f.severity(), f.role(), "t", "e", "fix", "SELECT 1", "", "test"), List.of(f), null, 0)).toList();
        return new AnalysisResult(new LoadReport(hosts, List.of(), 0), List.of(), outcomes, List.of(), 0);
    }
}
