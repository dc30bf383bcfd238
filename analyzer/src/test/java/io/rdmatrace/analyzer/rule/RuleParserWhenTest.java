package io.rdmatrace.analyzer.rule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The optional header key {@code when}: a gate query, read across continuation lines, one SELECT only. */
class RuleParserWhenTest {
    private static String file(String extra) {
        return "-- id: r\n-- severity: error\n-- title: t\n-- explanation: e\n-- fix: f\n" + extra + "SELECT 1\n";
    }

    @Test
    void noWhen_theRuleAlwaysRuns() throws Exception {
        assertThat(RuleParser.parse("r.sql", file(""), "builtin").when()).isEmpty();
    }

    @Test
    void when_readAcrossContinuationLines() throws Exception {
        Rule rule = RuleParser.parse("r.sql", file("-- when: SELECT 1 FROM t\n--   WHERE x <> 0\n"), "builtin");
        assertThat(rule.when()).isEqualTo("SELECT 1 FROM t WHERE x <> 0");
        assertThat(rule.sql()).isEqualTo("SELECT 1");
    }

    @Test
    void when_thatIsNotOneSelect_isRefused() {
        assertThatThrownBy(() -> RuleParser.parse("r.sql", file("-- when: DELETE FROM t\n"), "builtin"))
                .isInstanceOf(RuleFormatException.class).hasMessageContaining("'-- when:' must be one SELECT");
        assertThatThrownBy(() -> RuleParser.parse("r.sql", file("-- when: SELECT 1; DROP TABLE t\n"), "builtin"))
                .isInstanceOf(RuleFormatException.class).hasMessageContaining("without ';'");
    }
}
