package io.rdmatrace.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import io.rdmatrace.analyzer.rule.RuleCatalog;
import io.rdmatrace.analyzer.rule.RuleOutcome;
import io.rdmatrace.analyzer.rule.RuleSet;

/**
 * A few rules analyzed with only the relations they and the report read computed find what they find
 * in the full analysis, finding for finding, and the relations no one of them reads are not made.
 */
class AnalyzeOnlyTest {
    private static Path sample(String name) {
        String root = System.getProperty("rdmatrace.repo.root");
        Path repo = root != null ? Path.of(root) : Path.of("..").toAbsolutePath().normalize();
        Path sample = repo.resolve("sample-traces").resolve(name);
        Assumptions.assumeTrue(Files.isDirectory(sample), "no sample " + sample + " in this checkout: nothing checked");
        return sample;
    }

    @Test
    void analyzeOnly_theRulesThatFire_sameFindingsAsTheFullAnalysis_andUnreadRelationsAreNotMade() throws Exception {
        for (String name : List.of("path-mtu-one-side", "advertise-psn-off-by-one", "mr-access-missing")) {
            Path sample = sample(name);
            RuleSet catalog = RuleCatalog.builtin();
            Map<String, String> full;
            try (Analysis analysis = Analysis.open(List.of(sample))) {
                full = findings(analysis.analyze(catalog));
            }
            assertThat(full).as(name).isNotEmpty();
            RuleSet fired = new RuleSet(catalog.rules().stream().filter(r -> full.containsKey(r.id())).toList(), List.of());
            try (Analysis analysis = Analysis.open(List.of(sample))) {
                AnalysisResult only = analysis.analyzeOnly(fired);
                assertThat(findings(only)).as(name).isEqualTo(full);
                assertThat(only.connections()).as(name).isNotEmpty();
            }
        }
    }

    @Test
    void analyzeOnly_oneRule_computesWhatItReads_notTheRest() throws Exception {
        RuleSet catalog = RuleCatalog.builtin();
        RuleSet mtu = new RuleSet(List.of(catalog.find("path-mtu-mismatch").orElseThrow()), List.of());
        try (Analysis analysis = Analysis.open(List.of(sample("path-mtu-one-side")))) {
            AnalysisResult result = analysis.analyzeOnly(mtu);
            assertThat(findings(result)).containsOnlyKeys("path-mtu-mismatch");
            Connection connection = analysis.database().connection();
            assertThat(exists(connection, "qp_settings")).isTrue();  // the rule's and the report's
            assertThat(exists(connection, "cm_events")).isFalse();   // no rule of these reads them
            assertThat(exists(connection, "_post_stats")).isFalse();
            // the database holds only these relations: every other rule would fail, so none can run
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> analysis.analyze(catalog))
                    .isInstanceOf(IllegalStateException.class);
        }
    }

    /** Rule id → its findings' text, for the rules that found something. */
    private static Map<String, String> findings(AnalysisResult result) {
        Map<String, String> byRule = new TreeMap<>();
        for (RuleOutcome outcome : result.outcomes()) {
            assertThat(outcome.failed()).as(outcome.rule().id() + ": " + outcome.problem()).isFalse();
            if (!outcome.findings().isEmpty()) {
                byRule.put(outcome.rule().id(), outcome.findings().toString());
            }
        }
        return byRule;
    }

    private static boolean exists(Connection connection, String name) throws Exception {
        try (Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT count(*) FROM duckdb_tables() WHERE table_name = '" + name
                        + "' UNION ALL SELECT count(*) FROM duckdb_views() WHERE view_name = '" + name + "'")) {
            long n = 0;
            while (rs.next()) {
                n += rs.getLong(1);
            }
            return n > 0;
        }
    }
}
