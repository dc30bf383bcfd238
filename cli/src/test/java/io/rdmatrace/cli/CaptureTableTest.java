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
}
