package io.rdmatrace.analyzer.rule;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rdmatrace.analyzer.Role;
import io.rdmatrace.analyzer.Severity;

/** Rules are taken longest SQL first, and their outcomes still come back in the rules' order. */
class RuleRunnerOrderTest {
    private static Rule rule(String id, String sql) {
        return new Rule(id, Severity.INFO, Role.CAUSE, id, "", "", sql, "", "builtin");
    }

    private static String select(String message, int padding) {
        return "SELECT NULL::VARCHAR AS host, NULL::BIGINT AS qp, [{'host': 'h', 'seq': 1::BIGINT}] AS evidence, '" + message
                + "' AS message" + " ".repeat(padding);
    }

    @Test
    void startOrder_longestSqlFirst_tiesInFileOrder() {
        List<Rule> rules = List.of(rule("a", "x".repeat(10)), rule("b", "x".repeat(300)), rule("c", "x".repeat(10)),
                rule("d", "x".repeat(40)));
        assertThat(RuleRunner.startOrder(rules)).containsExactly(1, 3, 0, 2);
    }

    @Test
    void runAll_onSeveralConnections_outcomesInTheRulesOrder() throws Exception {
        List<Rule> rules = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            rules.add(rule("r" + i, select("m" + i, (i * 37) % 200)));
        }
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:")) {
            List<RuleOutcome> outcomes = new RuleRunner(connection).runAll(rules);
            assertThat(outcomes).extracting(o -> o.rule().id()).containsExactlyElementsOf(rules.stream().map(Rule::id).toList());
            for (int i = 0; i < outcomes.size(); i++) {
                assertThat(outcomes.get(i).problem()).isNull();
                assertThat(outcomes.get(i).findings()).extracting(f -> f.message()).containsExactly("m" + i);
            }
        }
    }
}
