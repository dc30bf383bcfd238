package io.rdmatrace.analyzer.rules;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.fixture.Analysis;
import io.rdmatrace.analyzer.fixture.Capture;

/** The negative case of every rule at once: a clean capture yields only the expected TC02 probe note. */
class CleanCaptureTest {

    @Test
    void cleanCapture_onlyTheProbeIsNoted() throws Exception {
        AnalysisResult result = Analysis.run(new Capture());
        assertThat(result.ruleProblems()).isEmpty();
        assertThat(Analysis.summary(result)).containsExactly(
                "illegal-transition-rejected host-a 0x000011",
                "illegal-transition-rejected host-b 0x000011");
        assertThat(Analysis.rows(result, "illegal-transition-rejected")).containsExactly(
                "host-a|0x000011|[host-a#7, host-a#8]|ibv_modify_qp RESET->RTS on RC QP 0x000011 was refused with EINVAL "
                        + "and the QP stayed RESET (the TC02 probe: expected)",
                "host-b|0x000011|[host-b#7, host-b#8]|ibv_modify_qp RESET->RTS on RC QP 0x000011 was refused with EINVAL "
                        + "and the QP stayed RESET (the TC02 probe: expected)");
        assertThat(result.connections()).hasSize(1);
        assertThat(result.connections().get(0).matchedBy()).isEqualTo("dest_qp_num+oob");
        assertThat(result.connections().get(0).statesA()).containsExactly("RESET", "INIT", "RTR", "RTS");
    }
}
