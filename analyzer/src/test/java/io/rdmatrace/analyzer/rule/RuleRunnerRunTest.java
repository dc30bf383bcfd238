package io.rdmatrace.analyzer.rule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.sql.Connection;
import java.sql.DriverManager;

import org.junit.jupiter.api.Test;

import io.rdmatrace.analyzer.Evidence;
import io.rdmatrace.analyzer.Role;
import io.rdmatrace.analyzer.Severity;

/** One rule run: its columns checked against the output contract from its result, its rows read, its failure contained. */
class RuleRunnerRunTest {
    private static Rule rule(String sql) {
        return new Rule("r", Severity.WARNING, Role.CAUSE, "r", "", "", sql, "", "builtin");
    }

    private static RuleOutcome run(String sql) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:")) {
            return new RuleRunner(connection).run(rule(sql));
        }
    }

    @Test
    void run_rowsBecomeFindings_evidenceSortedAndDistinct_expectedColumnRead() throws Exception {
        RuleOutcome outcome = run("SELECT * FROM (VALUES ('b', 7::BIGINT, [{'host': 'b', 'seq': 9::BIGINT}, {'host': 'a', 'seq': 2::BIGINT},"
                + " {'host': 'b', 'seq': 9::BIGINT}], 'second', true), ('a', NULL, [], 'first', false))"
                + " t(host, qp, evidence, message, expected)");
        assertThat(outcome.problem()).isNull();
        assertThat(outcome.findings()).extracting(f -> f.host(), f -> f.qp(), f -> f.message(), f -> f.expected())
                .containsExactly(tuple("a", null, "first", false),
                        tuple("b", 7L, "second", true));
        assertThat(outcome.findings().get(1).evidence()).containsExactly(new Evidence("a", 2), new Evidence("b", 9));
    }

    @Test
    void run_noRows_noFindingNoProblem() throws Exception {
        RuleOutcome outcome = run("SELECT NULL::VARCHAR AS host, NULL::BIGINT AS qp, [{'host': 'h', 'seq': 1::BIGINT}] AS evidence,"
                + " 'm' AS message WHERE false");
        assertThat(outcome.problem()).isNull();
        assertThat(outcome.findings()).isEmpty();
    }

    @Test
    void run_wrongColumns_aProblemNamingThemAndNoFinding() throws Exception {
        RuleOutcome outcome = run("SELECT 'h' AS host, 1 AS qp");
        assertThat(outcome.findings()).isEmpty();
        assertThat(outcome.problem().toString()).contains("rules/r.sql")
                .contains("returns (host VARCHAR, qp INTEGER); a rule must return (host VARCHAR, qp BIGINT, "
                        + "evidence STRUCT(host VARCHAR, seq BIGINT)[], message VARCHAR) and may add (expected BOOLEAN)");
    }

    @Test
    void run_sqlError_aProblemWithDuckDbsMessage() throws Exception {
        RuleOutcome outcome = run("SELECT * FROM no_such_relation");
        assertThat(outcome.findings()).isEmpty();
        assertThat(outcome.problem().toString()).contains("rules/r.sql").contains("no_such_relation");
    }

    private static final String ONE_ROW = "SELECT 'h' AS host, 1::BIGINT AS qp, []::STRUCT(host VARCHAR, seq BIGINT)[] AS evidence,"
            + " 'm' AS message";

    private static RuleOutcome runWhen(String when) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:")) {
            return new RuleRunner(connection).run(new Rule("r", Severity.WARNING, Role.CAUSE, "r", "", "", ONE_ROW, when, "builtin"));
        }
    }

    @Test
    void run_whenReturnsARow_theRuleRuns() throws Exception {
        RuleOutcome outcome = runWhen("SELECT 1 FROM range(3) WHERE range = 2");
        assertThat(outcome.problem()).isNull();
        assertThat(outcome.findings()).extracting(f -> f.message()).containsExactly("m");
    }

    @Test
    void run_whenReturnsNoRow_theRuleIsSkipped_withoutAProblem() throws Exception {
        RuleOutcome outcome = runWhen("SELECT 1 FROM range(3) WHERE range = 7");
        assertThat(outcome.problem()).isNull();
        assertThat(outcome.findings()).isEmpty();
    }

    @Test
    void run_whenFails_aProblemSaysSo_neverASilentSkip() throws Exception {
        RuleOutcome outcome = runWhen("SELECT 1 FROM no_such_gate");
        assertThat(outcome.findings()).isEmpty();
        assertThat(outcome.problem().toString()).contains("rules/r.sql").contains("when: ").contains("no_such_gate");
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:")) {
            assertThat(new RuleRunner(connection).bindCheck(new Rule("r", Severity.WARNING, Role.CAUSE, "r", "", "", ONE_ROW,
                    "SELECT 1 FROM no_such_gate", "builtin"))).hasValueSatisfying(p -> assertThat(p).startsWith("when: "));
        }
    }
}
