package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The step table keeps a failure reason whole: wrapped at spaces, never cut. */
class CaptureTableTest {
    @Test
    void wrap_keepsEveryWord_andBreaksUnderTheTextColumn() {
        String reason = "hostA gave up: TC04 send each way with pattern check failed: qp#0 send completion "
                + "IBV_WC_WR_FLUSH_ERR (work request flushed) after IBV_WC_RETRY_EXC_ERR on the peer";
        String wrapped = CaptureTable.wrap(reason, 40);
        String[] lines = wrapped.split(System.lineSeparator());
        assertThat(lines.length).isGreaterThan(1);
        assertThat(lines[0].length()).isLessThanOrEqualTo(40);
        for (int i = 1; i < lines.length; i++) {
            assertThat(lines[i]).startsWith(" ".repeat(50));
            assertThat(lines[i].strip().length()).isLessThanOrEqualTo(40);
        }
        assertThat(String.join(" ", java.util.Arrays.stream(lines).map(String::strip).toList())).isEqualTo(reason);
        assertThat(CaptureTable.wrap("short", 40)).isEqualTo("short");
    }

    @Test
    void text_verbose_everyNoteOnItsOwnLine_otherwiseTheSummary() {
        java.util.List<String> notes = java.util.List.of("qp#0 RTS", "qp#1 RTS", "qp#2 RTS", "qp#3 RTS", "qp#4 RTS");
        String summary = io.rdmatrace.capture.run.TestCaseResult.summary(notes, 3);
        assertThat(summary).isEqualTo("qp#0 RTS; qp#1 RTS; qp#2 RTS; and 2 more (-v shows all)");
        var t = new io.rdmatrace.capture.run.TestCaseResult("TC03", "connect", io.rdmatrace.trace.model.MarkEvent.Verdict.PASS,
                summary, notes);
        assertThat(CaptureTable.text(t, false)).isEqualTo(summary);
        String[] lines = CaptureTable.text(t, true).split(System.lineSeparator());
        assertThat(lines).hasSize(5);
        assertThat(lines[0]).isEqualTo("qp#0 RTS");
        for (int i = 1; i < 5; i++) {
            assertThat(lines[i]).isEqualTo(" ".repeat(50) + "qp#" + i + " RTS");
        }
        // a result made with its text only shows that text either way
        var plain = new io.rdmatrace.capture.run.TestCaseResult("TC01", "resources", io.rdmatrace.trace.model.MarkEvent.Verdict.FAIL,
                "no device");
        assertThat(CaptureTable.text(plain, true)).isEqualTo("no device");
    }
}
