package io.rdmatrace.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** How findings are linked: causes to the consequences on their QP, their peer QP, or shared evidence. */
class DiagnosisTest {
    private static final ConnectionSummary PAIR = new ConnectionSummary(1, "hostA", 0x11, "hostB", 0x12, "RC", "oob",
            List.of("RESET", "INIT", "RTR", "RTS"), List.of("RESET", "INIT", "RTR", "RTS"), null, null);

    private static Finding finding(String rule, Severity severity, Role role, String host, Long qp, boolean expected,
            Evidence... evidence) {
        return new Finding(rule, severity, host, qp, List.of(evidence), rule + " message; details", role, expected);
    }

    @Test
    void consequenceOnThePeerQp_followsFromTheCause() {
        Finding psn = finding("psn-misaligned", Severity.ERROR, Role.CAUSE, "hostB", 0x12L, false, new Evidence("hostB", 38));
        Finding peerError = finding("completion-error", Severity.ERROR, Role.CONSEQUENCE, "hostA", 0x11L, false,
                new Evidence("hostA", 50));
        Finding ownError = finding("completion-error", Severity.ERROR, Role.CONSEQUENCE, "hostB", 0x12L, false,
                new Evidence("hostB", 51));
        Diagnosis d = Diagnosis.of(List.of(peerError, ownError, psn), List.of(PAIR));
        assertThat(d.rootCause()).contains(psn);
        // the cause's own QP's failure comes first
        assertThat(d.consequencesOf(psn)).containsExactly(ownError, peerError);
        assertThat(d.causesOf(peerError)).containsExactly(psn);
        assertThat(d.unexplained()).isEmpty();
        assertThat(d.inReportOrder()).containsExactly(psn, ownError, peerError);
    }

    @Test
    void unrelatedQp_isUnexplained_andInfoCausesExplainNothing() {
        Finding info = finding("mr-access-excess", Severity.INFO, Role.CAUSE, "hostA", 0x11L, false, new Evidence("hostA", 5));
        Finding failure = finding("completion-error", Severity.ERROR, Role.CONSEQUENCE, "hostA", 0x11L, false,
                new Evidence("hostA", 60));
        Finding elsewhere = finding("verb-failed", Severity.ERROR, Role.CONSEQUENCE, "hostC", 0x99L, false,
                new Evidence("hostC", 7));
        Diagnosis d = Diagnosis.of(List.of(failure, elsewhere, info), List.of(PAIR));
        assertThat(d.unexplained()).containsExactly(failure, elsewhere);
        assertThat(d.rootCause()).isEmpty();
    }

    @Test
    void sharedEvidence_linksAcrossQps_andExpectedFindingsStandApart() {
        Finding mask = finding("illegal-attr-mask", Severity.ERROR, Role.CAUSE, "hostB", null, false, new Evidence("hostB", 40));
        Finding refused = finding("verb-failed", Severity.ERROR, Role.CONSEQUENCE, "hostB", 0x12L, false,
                new Evidence("hostB", 40));
        Finding probe = finding("illegal-transition-rejected", Severity.INFO, Role.CAUSE, "hostB", 0x12L, true,
                new Evidence("hostB", 25));
        Diagnosis d = Diagnosis.of(List.of(mask, refused, probe), List.of(PAIR));
        assertThat(d.causesOf(refused)).containsExactly(mask);
        assertThat(d.expected()).containsExactly(probe);
        assertThat(d.causes()).containsExactly(mask);
    }

    /** issue 32: a failed ibv_create_qp is not "caused" by the objects the program then left allocated. */
    @Test
    void leakAtExit_isNeverACause_andNoRootCauseWithoutOne() {
        Finding refused = finding("verb-failed", Severity.ERROR, Role.CONSEQUENCE, "hostB", null, false, new Evidence("hostB", 12));
        Finding leak = finding("resource-leak", Severity.WARNING, Role.AFTERMATH, "hostB", null, false, new Evidence("hostB", 8));
        Diagnosis d = Diagnosis.of(List.of(refused, leak), List.of(PAIR));
        assertThat(d.causesOf(refused)).isEmpty();
        assertThat(d.consequencesOf(leak)).isEmpty();
        assertThat(d.unexplained()).containsExactly(refused);
        assertThat(d.rootCause()).as("the leak is no root cause of the refusal").isEmpty();
        assertThat(d.ordered()).containsExactly(leak, refused);

        // with nothing failed, the leak is what there is to say
        assertThat(Diagnosis.of(List.of(leak), List.of(PAIR)).rootCause()).contains(leak);
    }

    /** A warning that explains no failure is not promoted to the root cause of one it does not explain. */
    @Test
    void unrelatedWarning_isNoRootCauseOfAnUnexplainedFailure() {
        Finding timeout = finding("timeout-config", Severity.WARNING, Role.CAUSE, "hostC", 0x99L, false, new Evidence("hostC", 3));
        Finding failure = finding("completion-error", Severity.ERROR, Role.CONSEQUENCE, "hostA", 0x11L, false,
                new Evidence("hostA", 60));
        Diagnosis d = Diagnosis.of(List.of(failure, timeout), List.of(PAIR));
        assertThat(d.rootCause()).isEmpty();
        assertThat(d.unexplained()).containsExactly(failure);
        // a warning alone, nothing failed: it is the root cause
        assertThat(Diagnosis.of(List.of(timeout), List.of(PAIR)).rootCause()).contains(timeout);
        // causes lead every ordering, their consequences after them
        Finding mtu = finding("path-mtu-mismatch", Severity.ERROR, Role.CAUSE, "hostA", 0x11L, false, new Evidence("hostA", 15));
        assertThat(Diagnosis.of(List.of(failure, mtu), List.of(PAIR)).ordered()).containsExactly(mtu, failure);
    }
}
